import dev.spindle.pool.WorkStealingPool;
import java.util.*;
import java.util.concurrent.*;
public class BF {
    static volatile long sink;
    static long work(long x) { long h = x; for (int i = 0; i < 20; i++) h = h * 31 + i; return h; }
    public static void main(String[] a) throws Exception {
        boolean fjp = a.length > 0 && a[0].equals("fjp");
        int rounds = a.length > 1 ? Integer.parseInt(a[1]) : 15;
        ExecutorService ex = fjp ? new ForkJoinPool(2) : WorkStealingPool.builder().workers(2).build();
        StringBuilder sb = new StringBuilder(fjp ? "fjp " : "spindle ");
        for (int r = 0; r < rounds; r++) {
            long t0 = System.nanoTime();
            int n = 20_000; List<Future<Long>> fs = new ArrayList<>(n);
            for (int i = 0; i < n; i++) { final int k = i; fs.add(ex.submit(() -> work(k))); }
            long s = 0; for (Future<Long> f : fs) s += f.get(); sink = s;
            sb.append(String.format("%.1f ", (System.nanoTime() - t0) / 1e6));
        }
        System.out.println(sb);
        ex.shutdown();
    }
}
