import dev.spindle.async.*;
import java.util.*;
public class PipeTime {
    public static void main(String[] a) throws Exception {
        for (String pol : new String[] {"WORK_STEALING", "HYBRID"}) {
            try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).policy(AsyncPolicy.valueOf(pol)).build()) {
                long w0 = System.nanoTime();
                while (System.nanoTime() - w0 < 2_000_000_000L) Shapes.pipeSpindle(rt);
                long[] t = new long[31];
                long parks0 = rt.stats().parks();
                for (int r = 0; r < t.length; r++) { long t0 = System.nanoTime(); Shapes.pipeSpindle(rt); t[r] = System.nanoTime() - t0; }
                long parks = (rt.stats().parks() - parks0) / t.length;
                Arrays.sort(t);
                System.out.printf("%s %s median %.2f ms [%.2f-%.2f] parks/run %d%n", a[0], pol, t[15] / 1e6, t[0] / 1e6, t[30] / 1e6, parks);
            }
        }
        System.exit(0);
    }
}
