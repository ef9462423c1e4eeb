import dev.spindle.async.*;
import java.util.concurrent.*;
/** per-round time distribution, async vs CF, alternated. */
public class PPD {
    public static void main(String[] a) throws Exception {
        int rounds = Integer.parseInt(a[0]); int workers = Integer.parseInt(a[1]);
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(workers).name("p").build()) {
            ForkJoinPool pool = new ForkJoinPool(workers);
            for (int r = 0; r < 300; r++) { PPC.async(rt, 1000); PPC.cf(pool, 1000); }
            long[] ta = new long[rounds], tc = new long[rounds];
            for (int r = 0; r < rounds; r++) {
                long t0 = System.nanoTime(); PPC.async(rt, 1000); ta[r] = System.nanoTime() - t0;
                t0 = System.nanoTime(); PPC.cf(pool, 1000); tc[r] = System.nanoTime() - t0;
            }
            double sa = 0, sc = 0; for (int r = 0; r < rounds; r++) { sa += ta[r]; sc += tc[r]; }
            java.util.Arrays.sort(ta); java.util.Arrays.sort(tc);
            System.out.printf("async us/round p10 %d p50 %d p90 %d p99 %d max %d mean %.0f%n", ta[rounds/10]/1000, ta[rounds/2]/1000, ta[rounds*9/10]/1000, ta[rounds*99/100]/1000, ta[rounds-1]/1000, sa/rounds/1000);
            System.out.printf("cf    us/round p10 %d p50 %d p90 %d p99 %d max %d mean %.0f%n", tc[rounds/10]/1000, tc[rounds/2]/1000, tc[rounds*9/10]/1000, tc[rounds*99/100]/1000, tc[rounds-1]/1000, sc/rounds/1000);
            pool.shutdown();
        }
    }
}
