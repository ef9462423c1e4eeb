import dev.spindle.pool.WorkStealingPool;
import java.util.*;
import java.util.concurrent.*;

public class RT {
    static volatile long sink;
    static long work(long x) { long h = x; for (int i = 0; i < 20; i++) h = h * 31 + i; return h; }
    public static void main(String[] a) throws Exception {
        int w = Integer.getInteger("w", 2);
        WorkStealingPool sp = WorkStealingPool.builder().workers(w).build();
        ExecutorService[] exs = {sp, new ForkJoinPool(w), Executors.newFixedThreadPool(w)};
        String[] names = {"spindle", "fjp", "tpe"};
        int n = 1000, rounds = Integer.getInteger("rounds", 60);
        double[][] t = new double[3][rounds];
        long parks0 = 0, unparks0 = 0;
        for (int r = 0; r < rounds; r++) {
            if (r == rounds / 2) { parks0 = sp.stats().parks(); unparks0 = sp.stats().unparks(); }
            for (int pi = 0; pi < 3; pi++) {
                int p = r % 2 == 0 ? pi : 2 - pi;
                long t0 = System.nanoTime(), s = 0;
                for (int i = 0; i < n; i++) { final int k = i; s += exs[p].submit(() -> work(k)).get(); }
                t[p][r] = (System.nanoTime() - t0) / 1e3 / n; sink = s;
            }
        }
        for (int p = 0; p < 3; p++) { double[] v = Arrays.copyOfRange(t[p], rounds / 2, rounds); Arrays.sort(v); System.out.printf("%-8s %.2f us per round trip%n", names[p], v[v.length / 2]); }
        long tasks = (long) n * (rounds - rounds / 2);
        System.out.printf("spindle parks/task %.2f unparks/task %.2f%n", (sp.stats().parks() - parks0) / (double) tasks, (sp.stats().unparks() - unparks0) / (double) tasks);
        for (ExecutorService e : exs) e.shutdown();
    }
}
