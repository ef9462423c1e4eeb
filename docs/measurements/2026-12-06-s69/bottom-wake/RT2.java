import dev.spindle.pool.WorkSharingPool;
import dev.spindle.async.*;
import java.util.*;
import java.util.concurrent.*;

public class RT2 {
    static volatile long sink;
    static long work(long x) { long h = x; for (int i = 0; i < 20; i++) h = h * 31 + i; return h; }
    interface Trip { long run(int k) throws Exception; }
    public static void main(String[] a) throws Exception {
        int w = Integer.getInteger("w", 2);
        AsyncRuntime rt = AsyncRuntime.builder().workers(w).build();
        WorkSharingPool ws = WorkSharingPool.builder().workers(w).build();
        ForkJoinPool fjp = new ForkJoinPool(w);
        Trip[] trips = {
            k -> rt.spawn(cx -> Poll.ready(work(k))).get(),
            k -> ws.submit(() -> work(k)).get(),
            k -> CompletableFuture.supplyAsync(() -> work(k), fjp).get(),
        };
        String[] names = {"async", "worksharing", "cf-fjp"};
        int n = 1000, rounds = Integer.getInteger("rounds", 60), P = trips.length;
        double[][] t = new double[P][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int pi = 0; pi < P; pi++) {
                int p = r % 2 == 0 ? pi : P - 1 - pi;
                long t0 = System.nanoTime(), s = 0;
                for (int i = 0; i < n; i++) s += trips[p].run(i);
                t[p][r] = (System.nanoTime() - t0) / 1e3 / n; sink = s;
            }
        }
        StringBuilder sb = new StringBuilder();
        for (int p = 0; p < P; p++) { double[] v = Arrays.copyOfRange(t[p], rounds / 2, rounds); Arrays.sort(v); sb.append(String.format("%s %.2f ", names[p], v[v.length / 2])); }
        System.out.println(sb);
        rt.shutdown(); ws.shutdown(); fjp.shutdown();
    }
}
