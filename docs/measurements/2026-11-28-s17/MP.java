import dev.spindle.bench.runtime.*;
import dev.spindle.bench.workload.*;
/** One message workload on one runtime kind, W workers, S seconds: median time per run and CPU per run (second half). */
public class MP {
    public static void main(String[] a) throws Exception {
        String wl = a[0]; String kind = a[1]; int w = Integer.parseInt(a[2]); long secs = Long.parseLong(a[3]);
        Workload work = Workloads.create(wl, Size.FULL);
        BenchRuntime rt = Runtimes.create(RuntimeKind.byId(kind), w);
        rt.prestart();
        var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        long half = System.nanoTime() + secs * 500_000_000L; long cpu0 = -1; int r0 = 0;
        long end = System.nanoTime() + secs * 1_000_000_000L; int rounds = 0; long[] t = new long[10_000_000];
        while (System.nanoTime() < end) {
            long t0 = System.nanoTime();
            work.run(rt);
            t[rounds++] = System.nanoTime() - t0;
            if (cpu0 < 0 && System.nanoTime() > half) { cpu0 = os.getProcessCpuTime(); r0 = rounds; }
        }
        double cpu = (os.getProcessCpuTime() - cpu0) / 1e3 / (rounds - r0);
        java.util.Arrays.sort(t, r0, rounds);
        System.out.printf("%s %s w=%d rounds %d median(2nd half) %.1f us cpu/run %.1f us%n", wl, kind, w, rounds, t[r0 + (rounds - r0)/2]/1e3, cpu);
        System.exit(0);
    }
}
