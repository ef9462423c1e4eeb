import dev.spindle.bench.runtime.*;
import dev.spindle.bench.workload.*;
/** One workload on one runtime in a fresh JVM: {@code W KIND WORKERS WORKLOAD SECS [WINDOWS]}; 200 warm-up runs, then WINDOWS (default 1) windows of SECS seconds, each printing ms and CPU ms per run. */
public class W {
    public static void main(String[] a) throws Exception {
        RuntimeKind kind = RuntimeKind.valueOf(a[0]); int workers = Integer.parseInt(a[1]); String wname = a[2]; int secs = Integer.parseInt(a[3]);
        int windows = a.length > 4 ? Integer.parseInt(a[4]) : 1;
        try (BenchRuntime rt = Runtimes.create(kind, workers)) {
            Workload wl = Workloads.create(wname, Size.FULL);
            for (int i = 0; i < 200; i++) wl.run(rt);
            var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
            for (int win = 0; win < windows; win++) {
                long c0 = os.getProcessCpuTime(), t0 = System.nanoTime(), end = t0 + secs * 1_000_000_000L, runs = 0;
                while (System.nanoTime() < end) { wl.run(rt); runs++; }
                System.err.printf("%s %s ms/run %.3f cpu ms/run %.3f%n", kind, wname, (System.nanoTime() - t0) / 1e6 / runs, (os.getProcessCpuTime() - c0) / 1e6 / runs);
            }
        }
        System.exit(0);
    }
}
