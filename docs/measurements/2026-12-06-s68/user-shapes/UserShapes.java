import dev.spindle.pool.WorkStealingPool;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

public class UserShapes {
    static volatile long sink;
    static long work(long x) { long h = x; for (int i = 0; i < 20; i++) h = h * 31 + i; return h; }

    interface Shape { void run(ExecutorService ex) throws Exception; }

    static void roundtrip(ExecutorService ex) throws Exception {
        long s = 0;
        for (int i = 0; i < 1_000; i++) { final int k = i; s += ex.submit(() -> work(k)).get(); }
        sink = s;
    }
    static void burst(ExecutorService ex) throws Exception {
        int n = 100_000; CountDownLatch l = new CountDownLatch(n); AtomicLong acc = new AtomicLong();
        for (int i = 0; i < n; i++) { final int k = i; ex.execute(() -> { sink = work(k); l.countDown(); }); }
        l.await();
    }
    static void burstFutures(ExecutorService ex) throws Exception {
        int n = 20_000; List<Future<Long>> fs = new ArrayList<>(n);
        for (int i = 0; i < n; i++) { final int k = i; fs.add(ex.submit(() -> work(k))); }
        long s = 0; for (Future<Long> f : fs) s += f.get(); sink = s;
    }
    static void cfChain(ExecutorService ex) throws Exception {
        int n = 5_000; CompletableFuture<?>[] cfs = new CompletableFuture<?>[n];
        for (int i = 0; i < n; i++) {
            final int k = i;
            CompletableFuture<Long> c = CompletableFuture.supplyAsync(() -> work(k), ex);
            for (int j = 0; j < 5; j++) c = c.thenApplyAsync(UserShapes::work, ex);
            cfs[i] = c;
        }
        CompletableFuture.allOf(cfs).join();
    }
    static void invokeAll(ExecutorService ex) throws Exception {
        for (int r = 0; r < 20; r++) {
            List<Callable<Long>> cs = new ArrayList<>();
            for (int i = 0; i < 1000; i++) { final int k = i; cs.add(() -> work(k)); }
            long s = 0; for (Future<Long> f : ex.invokeAll(cs)) s += f.get(); sink = s;
        }
    }
    static void multiProducer(ExecutorService ex) throws Exception {
        int producers = 4, per = 25_000; CountDownLatch l = new CountDownLatch(producers * per);
        Thread[] ts = new Thread[producers];
        for (int p = 0; p < producers; p++) {
            ts[p] = new Thread(() -> { for (int i = 0; i < per; i++) { final int k = i; ex.execute(() -> { sink = work(k); l.countDown(); }); } });
            ts[p].start();
        }
        l.await(); for (Thread t : ts) t.join();
    }

    public static void main(String[] a) throws Exception {
        String[] names = {"roundtrip", "burst", "burstFutures", "cfChain", "invokeAll", "multiProducer"};
        Shape[] shapes = {UserShapes::roundtrip, UserShapes::burst, UserShapes::burstFutures, UserShapes::cfChain, UserShapes::invokeAll, UserShapes::multiProducer};
        String[] pools = {"spindle", "fjp", "tpe"};
        int rounds = Integer.parseInt(a.length > 0 ? a[0] : "15");
        String only = System.getProperty("only"); for (int s = 0; s < shapes.length; s++) { if (only != null && !only.equals(names[s])) continue;
            Map<String, List<Double>> t = new LinkedHashMap<>();
            ExecutorService[] exs = {WorkStealingPool.builder().workers(2).build(), new ForkJoinPool(2), Executors.newFixedThreadPool(2)};
            for (int r = 0; r < rounds; r++) {
                for (int pi = 0; pi < pools.length; pi++) {
                    int p = (r % 2 == 0) ? pi : pools.length - 1 - pi;
                    long t0 = System.nanoTime();
                    shapes[s].run(exs[p]);
                    double ms = (System.nanoTime() - t0) / 1e6;
                    if (r >= rounds / 2) t.computeIfAbsent(pools[p], k -> new ArrayList<>()).add(ms);
                }
            }
            for (ExecutorService e : exs) { e.shutdown(); e.awaitTermination(10, TimeUnit.SECONDS); }
            StringBuilder sb = new StringBuilder(String.format("%-14s", names[s]));
            double sp = med(t.get("spindle"));
            for (String p : pools) sb.append(String.format("  %s %8.2f ms", p, med(t.get(p))));
            sb.append(String.format("   fjp/spindle %.2f  tpe/spindle %.2f", med(t.get("fjp")) / sp, med(t.get("tpe")) / sp));
            System.out.println(sb);
        }
    }
    static double med(List<Double> v) { List<Double> c = new ArrayList<>(v); Collections.sort(c); return c.get(c.size() / 2); }
}
