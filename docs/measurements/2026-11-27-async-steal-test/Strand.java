import dev.spindle.async.*;
import java.util.concurrent.*;
public class Strand {
    public static void main(String[] a) throws Exception {
        int iters = Integer.parseInt(a[0]); int children = Integer.parseInt(a[1]);
        AsyncPolicy pol = AsyncPolicy.valueOf(a[2]);
        int stalls = 0;
        for (int it = 0; it < iters; it++) {
            try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).policy(pol).build()) {
                CountDownLatch ran = new CountDownLatch(children);
                JoinHandle<Boolean> h = rt.spawn(cx -> {
                    for (int i = 0; i < children; i++) {
                        rt.spawn(c2 -> { ran.countDown(); return Poll.ready(null); });
                    }
                    if (a.length > 3) rt.spawn(c3 -> Poll.ready(null));
                    try { return Poll.ready(ran.await(2, TimeUnit.SECONDS)); }
                    catch (InterruptedException e) { throw new IllegalStateException(e); }
                });
                if (!h.get(10, TimeUnit.SECONDS)) { stalls++; System.out.println("stall at iteration " + it + ", left " + ran.getCount() + " stats " + rt.stats()); }
            }
        }
        System.out.println("stalls " + stalls + " of " + iters);
    }
}
