import dev.spindle.bench.actor.*;
import dev.spindle.bench.workload.Size;
import dev.spindle.pool.WorkSharingPool;
/** One actor workload on spindle-wsh (2 workers): median per run, parks and unparks per run (second half). */
public class AP {
    public static void main(String[] a) throws Exception {
        String wl = a[0]; long secs = Long.parseLong(a[1]);
        ActorWorkload work = ActorWorkloads.create(wl, Size.FULL);
        SpindleActorKit kit = SpindleActorKit.workSharing(2);
        var f = SpindleActorKit.class.getDeclaredField("pool"); f.setAccessible(true);
        WorkSharingPool pool = (WorkSharingPool) f.get(kit);
        long half = System.nanoTime() + secs * 500_000_000L, end = System.nanoTime() + secs * 1_000_000_000L;
        long[] t = new long[1_000_000]; int n = 0, n0 = -1; long p0 = 0, u0 = 0;
        var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean(); long c0 = 0;
        while (System.nanoTime() < end) {
            long s = System.nanoTime(); work.run(kit); t[n++] = System.nanoTime() - s;
            if (n0 < 0 && System.nanoTime() > half) { n0 = n; p0 = pool.stats().parks(); u0 = pool.stats().unparks(); c0 = os.getProcessCpuTime(); }
        }
        int m = n - n0;
        long parks = pool.stats().parks() - p0, unparks = pool.stats().unparks() - u0; long cpu = os.getProcessCpuTime() - c0;
        java.util.Arrays.sort(t, n0, n);
        System.out.printf("%s runs %d median %.3f ms cpu/run %.3f ms parks/run %.1f unparks/run %.1f%n", wl, m, t[n0 + m / 2] / 1e6, cpu / 1e6 / m, (double) parks / m, (double) unparks / m);
        kit.close();
        System.exit(0);
    }
}
