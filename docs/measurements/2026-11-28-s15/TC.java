import dev.spindle.pool.*;
import java.util.*;
/** fib(30) on a 2-worker pool: CPU per pool thread and tasks per worker, over N runs after warm-up. */
public class TC {
    public static void main(String[] a) throws Exception {
        int w = Integer.parseInt(a[0]), runs = Integer.parseInt(a[1]);
        WorkStealingPool sp = WorkStealingPool.builder().workers(w).name("tc").build();
        for (int i = 0; i < 60; i++) sp.invoke(new FV.SF(30));
        var mx = java.lang.management.ManagementFactory.getThreadMXBean();
        Map<String, Long> c0 = new TreeMap<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) if (t.getName().startsWith("tc")) c0.put(t.getName(), mx.getThreadCpuTime(t.getId()));
        var s0 = sp.stats(); long t0 = System.nanoTime();
        for (int i = 0; i < runs; i++) sp.invoke(new FV.SF(30));
        long t1 = System.nanoTime(); var s1 = sp.stats();
        Map<String, Long> c1 = new TreeMap<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) if (t.getName().startsWith("tc")) c1.put(t.getName(), mx.getThreadCpuTime(t.getId()));
        System.out.printf("wall/run %.1f ms%n", (t1 - t0) / 1e6 / runs);
        for (var e : c1.entrySet()) System.out.printf("  %s cpu/run %.2f ms%n", e.getKey(), (e.getValue() - c0.getOrDefault(e.getKey(), 0L)) / 1e6 / runs);
        for (int i = 0; i < s1.workers().size(); i++) {
            var x = s1.workers().get(i); var y = i < s0.workers().size() ? s0.workers().get(i) : null;
            System.out.printf("  worker %d completed/run %.0f steals/run %.1f parks/run %.1f%n", i, (x.completed() - (y == null ? 0 : y.completed())) / (double) runs, (x.steals() - (y == null ? 0 : y.steals())) / (double) runs, (x.parks() - (y == null ? 0 : y.parks())) / (double) runs);
        }
        System.exit(0);
    }
}
