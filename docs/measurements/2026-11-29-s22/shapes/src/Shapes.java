import dev.spindle.async.*;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;
import java.util.function.*;

public class Shapes {
    static final int FAN = Integer.getInteger("fan", 1000), DEPTH = 1000, ITEMS = 10_000, STAGES = 4, CAP = 16, CLIENTS = 100, REQS = 100;

    static long work(long i) { long x = i; for (int k = 0; k < 20; k++) x = x * 31 + k; return x & 1023; }

    // ---- fan-out/fan-in
    static long fanSpindle(AsyncRuntime rt) throws Exception {
        JoinHandle<Long> root = rt.spawn(Async.then(Async.ready(null), x -> {
            List<JoinHandle<Long>> hs = new ArrayList<>(FAN);
            for (int i = 0; i < FAN; i++) { long v = i; hs.add(rt.spawn(cx -> Poll.ready(work(v)))); }
            return Async.map(Async.all(hs), l -> { long s = 0; for (long v : l) s += v; return s; });
        }));
        return root.get(60, TimeUnit.SECONDS);
    }
    static long fan2Spindle(AsyncRuntime rt) throws Exception {
        AsyncPromise<Long> done = new AsyncPromise<>();
        AtomicLong sum = new AtomicLong(); AtomicInteger left = new AtomicInteger(FAN);
        JoinHandle<Long> root = rt.spawn(Async.then(Async.ready(null), x -> {
            for (int i = 0; i < FAN; i++) { long v = i; rt.spawn(cx -> { sum.addAndGet(work(v)); if (left.decrementAndGet() == 0) done.complete(sum.get()); return Poll.ready(null); }); }
            return done;
        }));
        return root.get(60, TimeUnit.SECONDS);
    }
    static long fanCf(ForkJoinPool pool) throws Exception {
        return CompletableFuture.supplyAsync(() -> {
            List<CompletableFuture<Long>> fs = new ArrayList<>(FAN);
            for (int i = 0; i < FAN; i++) { long v = i; fs.add(CompletableFuture.supplyAsync(() -> work(v), pool)); }
            return CompletableFuture.allOf(fs.toArray(new CompletableFuture[0])).thenApply(x -> { long s = 0; for (CompletableFuture<Long> f : fs) s += f.join(); return s; });
        }, pool).thenCompose(f -> f).get(60, TimeUnit.SECONDS);
    }
    static long fanVt(ExecutorService vt) throws Exception {
        return vt.submit(() -> {
            List<Future<Long>> fs = new ArrayList<>(FAN);
            for (int i = 0; i < FAN; i++) { long v = i; fs.add(vt.submit(() -> work(v))); }
            long s = 0; for (Future<Long> f : fs) s += f.get(); return s;
        }).get(60, TimeUnit.SECONDS);
    }

    // ---- deep await chain: task i spawns task i+1 and awaits it
    static AsyncTask<Long> chainTask(AsyncRuntime rt, int i) {
        if (i == DEPTH) return Async.ready(0L);
        return Async.then(Async.ready(null), x -> Async.map(rt.spawn(chainTask(rt, i + 1)), v -> v + 1));
    }
    static long chainSpindle(AsyncRuntime rt) throws Exception { return rt.spawn(chainTask(rt, 0)).get(60, TimeUnit.SECONDS); }
    static CompletableFuture<Long> chainCfF(ForkJoinPool pool, int i) {
        if (i == DEPTH) return CompletableFuture.completedFuture(0L);
        return CompletableFuture.supplyAsync(() -> chainCfF(pool, i + 1), pool).thenCompose(f -> f).thenApply(v -> v + 1);
    }
    static long chainCf(ForkJoinPool pool) throws Exception { return chainCfF(pool, 0).get(60, TimeUnit.SECONDS); }
    static long chainVtR(ExecutorService vt, int i) throws Exception {
        if (i == DEPTH) return 0;
        return vt.submit(() -> chainVtR(vt, i + 1)).get() + 1;
    }
    static long chainVt(ExecutorService vt) throws Exception { return vt.submit(() -> chainVtR(vt, 0)).get(60, TimeUnit.SECONDS); }

    // ---- pipeline of bounded channels: producer -> STAGES stages (+1 each) -> consumer sums
    static long pipeSpindle(AsyncRuntime rt) throws Exception {
        List<AsyncChannel<Long>> ch = new ArrayList<>();
        for (int s = 0; s <= STAGES; s++) ch.add(new AsyncChannel<>(CAP));
        rt.spawn(Async.loop(0L, i -> i == ITEMS ? Async.ready(Async.Step.done((Void) null))
                : Async.map(ch.get(0).send(i), x -> Async.Step.next(i + 1))));
        for (int s = 0; s < STAGES; s++) {
            AsyncChannel<Long> in = ch.get(s), out = ch.get(s + 1);
            rt.spawn(Async.loop(0, n -> n == ITEMS ? Async.ready(Async.Step.done((Void) null))
                    : Async.then(in.receive(), v -> Async.map(out.send(v + 1), x -> Async.Step.next(n + 1)))));
        }
        AsyncChannel<Long> last = ch.get(STAGES);
        return rt.spawn(Async.loop(new long[] {0, 0}, a -> a[0] == ITEMS ? Async.ready(Async.Step.done(a[1]))
                : Async.map(last.receive(), v -> Async.Step.next(new long[] {a[0] + 1, a[1] + v})))).get(60, TimeUnit.SECONDS);
    }
    static long pipeVt(ExecutorService vt) throws Exception {
        List<BlockingQueue<Long>> ch = new ArrayList<>();
        for (int s = 0; s <= STAGES; s++) ch.add(new ArrayBlockingQueue<>(CAP));
        vt.submit(() -> { for (long i = 0; i < ITEMS; i++) ch.get(0).put(i); return null; });
        for (int s = 0; s < STAGES; s++) { BlockingQueue<Long> in = ch.get(s), out = ch.get(s + 1);
            vt.submit(() -> { for (int n = 0; n < ITEMS; n++) out.put(in.take() + 1); return null; }); }
        return vt.submit(() -> { long sum = 0; for (int n = 0; n < ITEMS; n++) sum += ch.get(STAGES).take(); return sum; }).get(60, TimeUnit.SECONDS);
    }

    // ---- request/response over a channel: CLIENTS clients x REQS sequential requests to one server
    record Req(long v, AsyncPromise<Long> reply) {}
    static long rrSpindle(AsyncRuntime rt) throws Exception {
        AsyncChannel<Req> server = new AsyncChannel<>(64);
        rt.spawn(Async.loop(0, n -> n == CLIENTS * REQS ? Async.ready(Async.Step.done((Void) null))
                : Async.map(server.receive(), r -> { r.reply().complete(r.v() * 2); return Async.Step.next(n + 1); })));
        List<JoinHandle<Long>> cs = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
            cs.add(rt.spawn(Async.loop(new long[] {0, 0}, a -> {
                if (a[0] == REQS) return Async.ready(Async.Step.done(a[1]));
                AsyncPromise<Long> p = new AsyncPromise<>();
                return Async.then(server.send(new Req(a[0], p)), x -> Async.map(p, v -> Async.Step.next(new long[] {a[0] + 1, a[1] + v})));
            })));
        }
        long s = 0; for (JoinHandle<Long> h : cs) s += h.get(60, TimeUnit.SECONDS); return s;
    }
    record VReq(long v, CompletableFuture<Long> reply) {}
    static long rrVt(ExecutorService vt) throws Exception {
        BlockingQueue<VReq> server = new ArrayBlockingQueue<>(64);
        vt.submit(() -> { for (int n = 0; n < CLIENTS * REQS; n++) { VReq r = server.take(); r.reply().complete(r.v() * 2); } return null; });
        List<Future<Long>> cs = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) cs.add(vt.submit(() -> { long s = 0; for (long i = 0; i < REQS; i++) { CompletableFuture<Long> p = new CompletableFuture<>(); server.put(new VReq(i, p)); s += p.get(); } return s; }));
        long s = 0; for (Future<Long> f : cs) s += f.get(60, TimeUnit.SECONDS); return s;
    }

    // ---- contended lock: LOCK_TASKS tasks x LOCK_ROUNDS acquire/increment/release of one permit
    static final int LOCK_TASKS = 1000, LOCK_ROUNDS = 20;
    static long lockSpindle(AsyncRuntime rt) throws Exception {
        AsyncSemaphore sem = new AsyncSemaphore(1);
        long[] counter = {0};
        List<JoinHandle<Void>> hs = new ArrayList<>();
        for (int i = 0; i < LOCK_TASKS; i++) {
            hs.add(rt.spawn(Async.loop(0, r -> r == LOCK_ROUNDS ? Async.ready(Async.Step.done((Void) null))
                    : Async.map(sem.acquire(), p -> { counter[0]++; sem.release(); return Async.Step.next(r + 1); }))));
        }
        for (JoinHandle<Void> h : hs) h.get(60, TimeUnit.SECONDS);
        return counter[0];
    }
    /** A FIFO lock of CompletableFutures: release completes the next waiter's future on the releasing thread. */
    static final class CfLock {
        private final ArrayDeque<CompletableFuture<Void>> q = new ArrayDeque<>();
        private boolean held;
        synchronized CompletableFuture<Void> acquire() {
            if (!held) { held = true; return CompletableFuture.completedFuture(null); }
            CompletableFuture<Void> f = new CompletableFuture<>(); q.add(f); return f;
        }
        void release() {
            CompletableFuture<Void> next;
            synchronized (this) { next = q.poll(); if (next == null) { held = false; return; } }
            next.complete(null);
        }
    }
    static CompletableFuture<Void> lockLoop(ForkJoinPool pool, CfLock lock, long[] counter, int r) {
        if (r == LOCK_ROUNDS) return CompletableFuture.completedFuture(null);
        return lock.acquire().thenComposeAsync(x -> { counter[0]++; lock.release(); return lockLoop(pool, lock, counter, r + 1); }, pool);
    }
    static long lockCf(ForkJoinPool pool) throws Exception {
        CfLock lock = new CfLock();
        long[] counter = {0};
        List<CompletableFuture<Void>> all = new ArrayList<>();
        for (int i = 0; i < LOCK_TASKS; i++) all.add(CompletableFuture.supplyAsync(() -> null, pool).thenCompose(x -> lockLoop(pool, lock, counter, 0)));
        CompletableFuture.allOf(all.toArray(new CompletableFuture[0])).get(60, TimeUnit.SECONDS);
        return counter[0];
    }
    static long lockVt(ExecutorService vt) throws Exception {
        java.util.concurrent.locks.ReentrantLock lock = new java.util.concurrent.locks.ReentrantLock();
        long[] counter = {0};
        List<Future<?>> fs = new ArrayList<>();
        for (int i = 0; i < LOCK_TASKS; i++) fs.add(vt.submit(() -> { for (int r = 0; r < LOCK_ROUNDS; r++) { lock.lock(); try { counter[0]++; } finally { lock.unlock(); } } return null; }));
        for (Future<?> f : fs) f.get(60, TimeUnit.SECONDS);
        return counter[0];
    }

    interface Run { long run() throws Exception; }
    static void bench(String name, Map<String, Run> runs) throws Exception {
        Map<String, List<Long>> times = new LinkedHashMap<>();
        Long expect = null;
        for (Map.Entry<String, Run> e : runs.entrySet()) {       // warm-up: 1.5 s each
            long w0 = System.nanoTime();
            while (System.nanoTime() - w0 < 1_500_000_000L) e.getValue().run();
        }
        List<Map.Entry<String, Run>> order = new ArrayList<>(runs.entrySet());
        long pause = Long.getLong("pauseMs", 1);
        for (int r = 0; r < 41; r++) {
            for (int k = 0; k < order.size(); k++) {       // rotated each round, a pause before each run: no runtime always follows another
                Map.Entry<String, Run> e = order.get((k + r) % order.size());
                if (pause > 0) Thread.sleep(pause);
                long t0 = System.nanoTime(); long v = e.getValue().run(); long t = System.nanoTime() - t0;
                if (expect == null) expect = v; else if (v != expect) throw new AssertionError(name + " " + e.getKey() + " " + v + " != " + expect);
                if (r >= 8) times.computeIfAbsent(e.getKey(), key -> new ArrayList<>()).add(t);
            }
        }
        StringBuilder sb = new StringBuilder(String.format("%-10s", name));
        for (var e : times.entrySet()) { List<Long> l = e.getValue(); Collections.sort(l); sb.append(String.format("  %s %.3f ms [%.3f-%.3f]", e.getKey(), l.get(l.size() / 2) / 1e6, l.get(0) / 1e6, l.get(l.size() - 1) / 1e6)); }
        System.out.println(sb);
    }

    public static void main(String[] a) throws Exception {
        int workers = Integer.parseInt(a[0]);
        ForkJoinPool pool = new ForkJoinPool(workers);
        ExecutorService vt = null;
        try { vt = (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null); } catch (Exception e) { }
        if (Boolean.getBoolean("novt")) vt = null;
        System.setProperty("jdk.virtualThreadScheduler.parallelism", "" + workers);
        try (AsyncRuntime ws = AsyncRuntime.builder().workers(workers).policy(AsyncPolicy.WORK_STEALING).build();
             AsyncRuntime hy = AsyncRuntime.builder().workers(workers).policy(AsyncPolicy.HYBRID).build()) {
            ExecutorService v = vt;
            for (String shape : a[1].split(",")) {
                Map<String, Run> m = new LinkedHashMap<>();
                switch (shape) {
                    case "fan" -> { m.put("ws", () -> fanSpindle(ws)); m.put("hy", () -> fanSpindle(hy)); m.put("cf", () -> fanCf(pool)); if (v != null) m.put("vt", () -> fanVt(v)); }
                    case "fan2" -> { m.put("ws", () -> fan2Spindle(ws)); m.put("hy", () -> fan2Spindle(hy)); m.put("cf", () -> fanCf(pool)); }
                    case "chain" -> { m.put("ws", () -> chainSpindle(ws)); m.put("hy", () -> chainSpindle(hy)); m.put("cf", () -> chainCf(pool)); if (v != null) m.put("vt", () -> chainVt(v)); }
                    case "pipe" -> { m.put("ws", () -> pipeSpindle(ws)); m.put("hy", () -> pipeSpindle(hy)); if (v != null) m.put("vt", () -> pipeVt(v)); }
                    case "lock" -> { m.put("ws", () -> lockSpindle(ws)); m.put("hy", () -> lockSpindle(hy)); m.put("cf", () -> lockCf(pool)); if (v != null) m.put("vt", () -> lockVt(v)); }
                    case "rr" -> { m.put("ws", () -> rrSpindle(ws)); m.put("hy", () -> rrSpindle(hy)); if (v != null) m.put("vt", () -> rrVt(v)); }
                }
                bench(shape, m);
            }
        }
        pool.shutdown();
        System.exit(0);
    }
}
