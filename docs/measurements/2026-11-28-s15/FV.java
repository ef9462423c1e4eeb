import dev.spindle.pool.*;
import dev.spindle.*;
import java.util.concurrent.*;
/** fib(30) rounds on 2 workers: per-round time and stats deltas, Spindle and FJP interleaved. */
public class FV {
    static final class SF extends ComputeTask<Long> { final int n; SF(int n){this.n=n;}
        protected Long compute(){ if(n<2) return (long)n; SF a=new SF(n-1), b=new SF(n-2); a.fork(); b.fork(); long rb=b.join(); return a.join()+rb; } }
    static final class FT extends RecursiveTask<Long> { final int n; FT(int n){this.n=n;}
        protected Long compute(){ if(n<2) return (long)n; FT a=new FT(n-1), b=new FT(n-2); a.fork(); b.fork(); long rb=b.join(); return a.join()+rb; } }
    public static void main(String[] a) throws Exception {
        int w = Integer.parseInt(a[0]), rounds = Integer.parseInt(a[1]), n = 30;
        WorkStealingPool sp = WorkStealingPool.builder().workers(w).build();
        ForkJoinPool fp = new ForkJoinPool(w);
        for (int i = 0; i < 10; i++) { sp.invoke(new SF(n)); fp.invoke(new FT(n)); }
        long[] ts = new long[rounds], tf = new long[rounds];
        for (int r = 0; r < rounds; r++) {
            SchedulerStats s0 = sp.stats();
            long t0 = System.nanoTime(); sp.invoke(new SF(n)); long t1 = System.nanoTime();
            SchedulerStats s1 = sp.stats();
            long f0 = fp.getStealCount();
            long t2 = System.nanoTime(); fp.invoke(new FT(n)); long t3 = System.nanoTime();
            ts[r] = t1 - t0; tf[r] = t3 - t2;
            System.out.printf("r%02d spindle %6.1f ms steals %5d parks %5d live %d  | fjp %6.1f ms steals %5d size %d%n", r, ts[r]/1e6,
                s1.steals()-s0.steals(), s1.parks()-s0.parks(), s1.liveWorkers(), tf[r]/1e6, fp.getStealCount()-f0, fp.getPoolSize());
        }
        java.util.Arrays.sort(ts); java.util.Arrays.sort(tf);
        System.out.printf("median spindle %.1f fjp %.1f ratio %.2f%n", ts[rounds/2]/1e6, tf[rounds/2]/1e6, (double)tf[rounds/2]/ts[rounds/2]);
        System.out.println(sp.stats());
        System.exit(0);
    }
}
