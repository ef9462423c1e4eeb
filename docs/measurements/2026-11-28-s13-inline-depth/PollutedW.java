import dev.spindle.bench.runtime.*;
import dev.spindle.bench.workload.*;
public class PollutedW {
    public static void main(String[] a) throws Exception {
        RuntimeKind kind = RuntimeKind.valueOf(a[0]); int workers = Integer.parseInt(a[1]);
        String[] warm = a[2].isEmpty() ? new String[0] : a[2].split(","); int secs = Integer.parseInt(a[3]);
        try (BenchRuntime rt = Runtimes.create(kind, workers)) {
            for (int r = 0; r < 5; r++) for (String w : warm) { Workload wl = Workloads.create(w, Size.FULL); for (int i = 0; i < 3; i++) wl.run(rt); }
            Workload fib = Workloads.create(System.getProperty("wl","fib"), Size.FULL);
            for (int i = 0; i < 20; i++) fib.run(rt);
            System.out.println("measuring");
            var os=(com.sun.management.OperatingSystemMXBean)java.lang.management.ManagementFactory.getOperatingSystemMXBean(); long c0=os.getProcessCpuTime(); long end = System.nanoTime() + secs * 1_000_000_000L, t0 = System.nanoTime(); long runs = 0;
            while (System.nanoTime() < end) { fib.run(rt); runs++; }
            System.out.printf("%s warm=%s fib ms/run %.2f cpu ms/run %.2f%n", kind, a[2], (System.nanoTime() - t0) / 1e6 / runs, (os.getProcessCpuTime()-c0)/1e6/runs);
        }
        System.exit(0);
    }
}
