import dev.spindle.pool.WorkStealingPool;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.locks.LockSupport;

/** External submit -> start latency as the bench's probe takes it, with a long warm-up: WorkStealingPool against ForkJoinPool. */
public class LatProbe {
    static long[] lastSubmit;
    static final class Sample implements Runnable {
        final Thread caller; volatile long started; volatile int runs; long submitted;
        Sample(Thread c) { caller = c; }
        public void run() { started = System.nanoTime(); runs++; LockSupport.unpark(caller); }
    }
    static long[] measure(Executor ex, int n, long gapNanos) {
        long[] out = new long[n];
        lastSubmit = new long[n];
        for (int i = 0; i < n; i++) {
            Sample s = new Sample(Thread.currentThread());
            s.submitted = System.nanoTime();
            ex.execute(s);
            lastSubmit[i] = System.nanoTime() - s.submitted;
            while (s.runs == 0) LockSupport.parkNanos(1_000_000);
            out[i] = s.started - s.submitted;
            LockSupport.parkNanos(gapNanos);
        }
        return out;
    }
    static String pct(List<Long> l) {
        Collections.sort(l);
        return String.format("p50 %.2f p99 %.2f p99.9 %.2f us", l.get(l.size() / 2) / 1e3, l.get((int) (l.size() * 0.99)) / 1e3, l.get((int) (l.size() * 0.999)) / 1e3);
    }
    public static void main(String[] a) throws Exception {
        int warm = Integer.parseInt(a[0]);
        try (WorkStealingPool sp = WorkStealingPool.builder().workers(2).build()) {
            ForkJoinPool fjp = new ForkJoinPool(2);
            measure(sp, warm, 200_000); measure(fjp, warm, 200_000);
            List<Long> s = new ArrayList<>(), f = new ArrayList<>(), ss = new ArrayList<>(), fs = new ArrayList<>();
            for (int c = 0; c < 4; c++) {
                for (long v : measure(c % 2 == 0 ? sp : fjp, 1000, 200_000)) (c % 2 == 0 ? s : f).add(v);
                for (long v : lastSubmit) (c % 2 == 0 ? ss : fs).add(v);
                for (long v : measure(c % 2 == 0 ? fjp : sp, 1000, 200_000)) (c % 2 == 0 ? f : s).add(v);
                for (long v : lastSubmit) (c % 2 == 0 ? fs : ss).add(v);
            }
            System.out.println("warm " + warm + " spindle " + pct(s) + " | fjp " + pct(f));
            System.out.println("   execute() alone: spindle " + pct(ss) + " | fjp " + pct(fs));
        }
        System.exit(0);
    }
}
