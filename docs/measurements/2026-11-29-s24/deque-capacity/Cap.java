import dev.spindle.bench.runtime.*;
import dev.spindle.bench.workload.*;
import dev.spindle.pool.WorkStealingPool;
import java.util.*;

public class Cap {
    static final class RT implements BenchRuntime {
        final WorkStealingPool p;
        RT(int w, int cap) { p = WorkStealingPool.builder().workers(w).localQueueCapacity(cap).build(); }
        public RuntimeKind kind() { return RuntimeKind.SPINDLE; }
        public int workers() { return p.parallelism(); }
        public void execute(Runnable r) { p.execute(r); }
        public boolean ownsThread(Thread t) { return false; }
        public void prestart() { }
        public WorkStealingPool spindle() { return p; }
        public void close() { p.shutdown(); }
    }
    public static void main(String[] a) throws Exception {
        String wl = a[0]; int rounds = Integer.parseInt(a[1]);
        int[] caps = Arrays.stream(a[2].split(",")).mapToInt(Integer::parseInt).toArray();
        Workload w = Workloads.create(wl, Size.FULL);
        BenchRuntime[] rts = new BenchRuntime[caps.length + 1];
        for (int i = 0; i < caps.length; i++) rts[i] = new RT(2, caps[i]);
        rts[caps.length] = Runtimes.create(RuntimeKind.FJP, 2);
        List<List<Double>> times = new ArrayList<>();
        for (int i = 0; i < rts.length; i++) times.add(new ArrayList<>());
        for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < rts.length; i++) {
                long end = System.nanoTime() + 300_000_000L;
                List<Double> ts = new ArrayList<>();
                while (System.nanoTime() < end) { long t0 = System.nanoTime(); w.run(rts[i]); ts.add((System.nanoTime() - t0) / 1e6); }
                Collections.sort(ts);
                if (r >= 2) times.get(i).add(ts.get(ts.size() / 2));
            }
        }
        for (int i = 0; i < rts.length; i++) {
            List<Double> t = times.get(i); Collections.sort(t);
            System.out.printf("%s %s median=%.3f ms  all=%s%n", wl, i < caps.length ? "cap=" + caps[i] : "fjp", t.get(t.size() / 2), t);
        }
        System.exit(0);
    }
}
