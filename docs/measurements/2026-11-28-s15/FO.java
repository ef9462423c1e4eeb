import dev.spindle.pool.*;
import java.util.concurrent.*;
/** fib(30) rounds on W workers for S seconds, one pool kind: spindle or fjp. */
public class FO {
    static long[] gcs() { long c = 0, t = 0; for (var g : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) { c += g.getCollectionCount(); t += g.getCollectionTime(); } return new long[]{c, t}; }
    public static void main(String[] a) throws Exception {
        int w = Integer.parseInt(a[0]); String kind = a[1]; long secs = Long.parseLong(a[2]);
        String warm = System.getProperty("warmWorkers");  // optional: 4 s of fib on a pool of this many workers first
        if (warm != null) {
            int ww = Integer.parseInt(warm);
            long e = System.nanoTime() + 4_000_000_000L;
            if (kind.equals("spindle")) { try (WorkStealingPool wp = WorkStealingPool.builder().workers(ww).build()) { while (System.nanoTime() < e) wp.invoke(new FV.SF(30)); } }
            else { ForkJoinPool wp = new ForkJoinPool(ww); while (System.nanoTime() < e) wp.invoke(new FV.FT(30)); wp.shutdown(); }
        }
        WorkStealingPool sp = kind.equals("spindle") ? WorkStealingPool.builder().workers(w).build() : null;
        ForkJoinPool fp = kind.equals("fjp") ? new ForkJoinPool(w) : null;
        var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        long half = System.nanoTime() + secs * 500_000_000L; long cpu0 = -1; int r0 = 0; long[] gc0 = null;
        long end = System.nanoTime() + secs * 1_000_000_000L; int rounds = 0; long[] t = new long[100000];
        while (System.nanoTime() < end) {
            long t0 = System.nanoTime();
            if (sp != null) sp.invoke(new FV.SF(30)); else fp.invoke(new FV.FT(30));
            t[rounds++] = System.nanoTime() - t0;
            if (cpu0 < 0 && System.nanoTime() > half) { cpu0 = os.getProcessCpuTime(); r0 = rounds; gc0 = gcs(); }
        }
        double cpu = (os.getProcessCpuTime() - cpu0) / 1e6 / (rounds - r0);
        long[] gc1 = gcs();
        java.util.Arrays.sort(t, r0, rounds);
        System.out.printf("%s w=%d rounds %d median(2nd half) %.1f ms cpu/round %.1f ms gc/round %.2f (%.2f ms)%n", kind, w, rounds, t[r0 + (rounds - r0)/2]/1e6, cpu, (gc1[0]-gc0[0])/(double)(rounds-r0), (gc1[1]-gc0[1])/(double)(rounds-r0));
        System.exit(0);
    }
}
