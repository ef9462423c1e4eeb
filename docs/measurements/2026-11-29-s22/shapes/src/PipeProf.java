import dev.spindle.async.*;
public class PipeProf {
    public static void main(String[] a) throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(Integer.parseInt(a[1])).policy(AsyncPolicy.valueOf(a[0])).build()) {
            long w0 = System.nanoTime();
            while (System.nanoTime() - w0 < 3_000_000_000L) Shapes.pipeSpindle(rt);
            long t0 = System.nanoTime(); int n = 0;
            while (System.nanoTime() - t0 < Long.parseLong(a[2]) * 1_000_000_000L) { Shapes.pipeSpindle(rt); n++; }
            System.out.printf("%s w%s %.3f ms/run%n", a[0], a[1], (System.nanoTime() - t0) / 1e6 / n);
        }
        System.exit(0);
    }
}
