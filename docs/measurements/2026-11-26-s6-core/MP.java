import dev.spindle.pool.*;
import dev.spindle.bench.runtime.*;
import dev.spindle.bench.workload.*;
import java.util.*;
import java.util.concurrent.*;

/** Message-passing workloads on pools of several deque capacities and on FJP (async mode), alternated in one JVM. */
public class MP {
    record Rt(String name, ExecutorService ex) implements BenchRuntime {
        public RuntimeKind kind() { return ex instanceof ForkJoinPool ? RuntimeKind.values()[1] : RuntimeKind.SPINDLE; }
        public int workers() { return 2; }
        public void execute(Runnable t) { ex.execute(t); }
        public boolean ownsThread(Thread t) { return false; }
        public void prestart() { }
        public void close() { ex.shutdown(); }
    }
    public static void main(String[] a) throws Exception {
        int reps = Integer.parseInt(a[0]);
        String[] caps = a[1].split(",");
        String[] wls = a[2].split(",");
        List<Rt> rts = new ArrayList<>();
        for (String c : caps) rts.add(new Rt("cap" + c, WorkStealingPool.builder().workers(2).localQueueCapacity(Integer.parseInt(c)).build()));
        rts.add(new Rt("fjp-async", new ForkJoinPool(2, ForkJoinPool.defaultForkJoinWorkerThreadFactory, null, true)));
        for (String wn : wls) {
            Workload w = Workloads.create(wn, Size.FULL);
            int inner = 1; long t0 = System.nanoTime(); w.run(rts.get(0)); long one = System.nanoTime() - t0; inner = (int) Math.max(1, 20_000_000L / Math.max(1, one));
            double[][] res = new double[rts.size()][reps];
            for (int r = -5; r < reps; r++) for (int k = 0; k < rts.size(); k++) {
                long s = System.nanoTime(); for (int j = 0; j < inner; j++) w.run(rts.get(k)); long e = System.nanoTime();
                if (r >= 0) res[k][r] = (e - s) / 1e6 / inner;
            }
            StringBuilder sb = new StringBuilder(String.format("%-18s", wn));
            double fjp = median(res[rts.size() - 1]);
            for (int k = 0; k < rts.size(); k++) sb.append(String.format("  %s %.3f ms (fjp/x %.2f)", rts.get(k).name(), median(res[k]), fjp / median(res[k])));
            System.out.println(sb);
        }
        System.exit(0);
    }
    static double median(double[] x) { double[] c = x.clone(); Arrays.sort(c); return c[c.length / 2]; }
}
