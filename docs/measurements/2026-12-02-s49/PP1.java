import dev.spindle.bench.runtime.*;
import dev.spindle.bench.workload.*;
public class PP1 {
    public static void main(String[] a) throws Exception {
        Workload wl = new PingPong(1000, Integer.parseInt(a[1]));
        RuntimeKind kind = a[0].equals("fjp") ? RuntimeKind.FJP : RuntimeKind.SPINDLE;
        try (BenchRuntime rt = Runtimes.create(kind, 2)) {
            rt.prestart();
            long end = System.nanoTime() + (long) (Double.parseDouble(a[2]) * 1e9); int n = 0;
            long t0 = System.nanoTime();
            while (System.nanoTime() < end) { wl.run(rt); n++; }
            System.out.printf("%s runs=%d avg=%.4f ms%n", kind.id(), n, (System.nanoTime()-t0)/1e6/n);
        }
    }
}
