import dev.spindle.async.*;
import java.util.concurrent.*;
public class Steal2 {
    public static void main(String[] a) throws Exception {
        int iters = Integer.parseInt(a[0]); AsyncPolicy pol = AsyncPolicy.valueOf(a[1]);
        int bad = 0;
        for (int it = 0; it < iters; it++) {
            try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).policy(pol).build()) {
                long dl = System.nanoTime() + 5_000_000_000L;
                while (rt.stats().parks() < 2 && System.nanoTime() < dl) Thread.sleep(1);
                CountDownLatch ran = new CountDownLatch(100);
                JoinHandle<Integer> h = rt.spawn(cx -> { for (int i = 0; i < 100; i++) rt.spawn(c2 -> { long e = System.nanoTime() + 200_000; while (System.nanoTime() < e) Thread.onSpinWait(); ran.countDown(); return Poll.ready(null); }); return Poll.ready(100); });
                h.get(10, TimeUnit.SECONDS);
                if (!ran.await(10, TimeUnit.SECONDS) || rt.stats().steals() == 0) { bad++; System.out.println("bad at " + it + " " + rt.stats()); }
            }
        }
        System.out.println("bad " + bad + " of " + iters);
    }
}
