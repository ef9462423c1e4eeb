/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.spindle.Hints;
import dev.spindle.Scheduler;
import dev.spindle.SchedulerStats;
import dev.spindle.Spindle;
import dev.spindle.Task;
import dev.spindle.actor.ActorConfig;
import dev.spindle.actor.ActorRef;
import dev.spindle.actor.ActorSystem;
import dev.spindle.async.Async;
import dev.spindle.async.AsyncChannel;
import dev.spindle.async.AsyncPolicy;
import dev.spindle.async.AsyncPromise;
import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.AsyncSemaphore;
import dev.spindle.async.AsyncTask;
import dev.spindle.async.ChannelClosedException;
import dev.spindle.async.Context;
import dev.spindle.async.JoinHandle;
import dev.spindle.async.Poll;
import dev.spindle.async.io.AsyncTcpListener;
import dev.spindle.async.io.AsyncTcpStream;
import dev.spindle.async.io.Reactor;
import dev.spindle.async.io.ReactorGroup;
import dev.spindle.cluster.Client;
import dev.spindle.cluster.ClusterCoordinator;
import dev.spindle.cluster.ClusterFuture;
import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.Graph;
import dev.spindle.cluster.LocalCluster;
import dev.spindle.cluster.Message;
import dev.spindle.cluster.Restrictions;
import dev.spindle.cluster.Sized;
import dev.spindle.cluster.TaskSpec;
import dev.spindle.cluster.Transport;
import dev.spindle.cluster.WorkerNode;
import dev.spindle.pool.ComputeTask;
import dev.spindle.pool.PinnedPool;
import dev.spindle.pool.PriorityPool;
import dev.spindle.pool.SchedulerUnion;
import dev.spindle.pool.WorkSharingPool;
import dev.spindle.pool.WorkStealingPool;
import dev.spindle.queue.ForkStack;
import dev.spindle.queue.Injector;
import dev.spindle.queue.LifoSlot;
import dev.spindle.queue.OwnerFifo;
import dev.spindle.queue.StealResult;
import dev.spindle.queue.WorkStealingDeque;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringReader;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Runs the {@code <pre>{@code ...}} examples of the public Javadoc as written (filling in only
 * what the Javadoc elides: helpers, inputs, a runtime to run on) and checks what their comments
 * promise, that they finish, and that they leave no non-daemon thread behind (which would keep a
 * user's JVM from exiting). The README snippets are covered by {@link ReadmeExamplesTest}.
 */
class DocExamplesRegressionTest {

    // ------------------------------------------------------------------ harness

    /** Runs {@code example} with a hang guard, then checks that no new non-daemon thread outlives it. */
    private static void runExample(Executable example) {
        Set<Thread> before = Set.copyOf(Thread.getAllStackTraces().keySet());
        assertTimeoutPreemptively(Duration.ofSeconds(30), example);
        List<Thread> leaked = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        do {
            leaked.clear();
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t.isAlive() && !t.isDaemon() && !before.contains(t)) {
                    leaked.add(t);
                }
            }
            if (leaked.isEmpty()) {
                return;
            }
            Thread.onSpinWait();
        } while (System.nanoTime() < deadline);
        assertThat(leaked).as("non-daemon threads left running by the example").isEmpty();
    }

    private static String stdoutOf(Executable main) {
        PrintStream saved = System.out;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            runExample(main);
        } finally {
            System.setOut(saved);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    // ------------------------------------------------------------------ spindle-core

    /** {@link Scheduler}: "close() runs the accepted task, then stops the workers". */
    @Test
    void schedulerExamplePrintsHelloBeforeCloseReturns() {
        String out = stdoutOf(() -> {
            try (WorkStealingPool pool = WorkStealingPool.builder().workers(4).build()) {
                Scheduler scheduler = pool;
                scheduler.execute(() -> System.out.println("hello from " + Thread.currentThread().getName()));
            }   // close() runs the accepted task, then stops the workers (daemon threads by default)
        });
        assertThat(out).startsWith("hello from ");
    }

    /** {@link Task}: the spawn/join fib. */
    static long taskFib(WorkStealingPool pool, int n) {
        if (n < 2) return n;
        Task<Long> left = pool.spawn(() -> taskFib(pool, n - 1));
        long right = taskFib(pool, n - 2);
        return left.join() + right;
    }

    /** {@link WorkStealingPool}: fib from outside through invoke, and parallelFor. */
    static long fib(WorkStealingPool pool, int n) {
        if (n < 2) return n;
        Task<Long> left = pool.spawn(() -> fib(pool, n - 1)); // on a worker: pushed locally
        return fib(pool, n - 2) + left.join();                 // helps instead of blocking
    }

    @Test
    void workStealingPoolAndTaskExamplesComputeFib() {
        long[] pixels = new long[10_000];
        AtomicLong sumSeen = new AtomicLong();
        AtomicLong taskSeen = new AtomicLong();
        runExample(() -> {
            try (WorkStealingPool pool = WorkStealingPool.builder().name("compute").build()) {
                long sum = pool.invoke(() -> fib(pool, 30));     // from outside: submit and wait
                pool.parallelFor(0, pixels.length, i -> shade(pixels, i));
                sumSeen.set(sum);
                taskSeen.set(pool.invoke(() -> taskFib(pool, 25)));
            }
        });
        assertThat(sumSeen.get()).isEqualTo(832040L);
        assertThat(taskSeen.get()).isEqualTo(75025L);
        for (int i = 0; i < pixels.length; i++) {
            assertThat(pixels[i]).isEqualTo(i + 1L);
        }
    }

    private static void shade(long[] pixels, int i) {
        pixels[i] += i + 1;
    }

    /** {@link ComputeTask}: the class-level Fib, on {@code WorkStealingPool.create()}. */
    static final class Fib extends ComputeTask<Long> {
        private final int n;
        Fib(int n) { this.n = n; }

        @Override
        protected Long compute() {
            if (n < 2) return (long) n;
            Fib left = new Fib(n - 1);
            left.fork();                             // pushed to this worker's deque
            long right = new Fib(n - 2).compute();   // the other half, right here
            return left.join() + right;              // run inline if nobody stole it
        }
    }

    @Test
    void computeTaskExampleComputes832040OnTheDefaultPool() {
        AtomicLong seen = new AtomicLong();
        runExample(() -> {
            try (WorkStealingPool pool = WorkStealingPool.create()) {
                long f = pool.invoke(new Fib(30));           // 832040
                seen.set(f);
            }
        });
        assertThat(seen.get()).isEqualTo(832040L);
    }

    /** {@link WorkSharingPool}: a follow-up executed by a running task during close still runs. */
    @Test
    void workSharingPoolExampleRunsTheFollowUp() {
        String out = stdoutOf(() -> {
            try (WorkSharingPool pool = WorkSharingPool.builder().name("actors").build()) {
                pool.execute(() -> {
                    // runs on a worker; this follow-up goes into that worker's slot and runs right after
                    pool.execute(() -> System.out.println("next on " + Thread.currentThread().getName()));
                });
            }
        });
        assertThat(out).startsWith("next on ");
    }

    /** {@link PriorityPool}: the urgent task runs before queued priority-0 work. */
    @Test
    void priorityPoolExampleRunsTheUrgentTaskBeforeQueuedWork() throws Exception {
        List<String> order = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> gate = new CompletableFuture<>();
        CountDownLatch occupied = new CountDownLatch(1);
        runExample(() -> {
            // One worker, held busy so that both tasks queue. (With four workers held and then
            // released at once, two of them took the two tasks in priority order but ran them
            // side by side, so the log's order was a race: a CI run saw it reversed.)
            try (PriorityPool pool = PriorityPool.builder().workers(1).build()) {
                pool.execute(() -> {
                    occupied.countDown();
                    gate.join();
                });
                occupied.await();
                Hints urgent = Hints.ofPriority(-10);
                pool.execute(() -> order.add("compactLogs"));                 // priority 0
                pool.execute(() -> order.add("answerHealthCheck"), urgent);   // runs before queued priority-0 work
                gate.complete(null);
            }
        });
        assertThat(order).containsExactly("answerHealthCheck", "compactLogs");
    }

    /** {@link PinnedPool}: one customer's orders run on one thread, in submission order. */
    record Order(String customerId, int seq) {
    }

    @Test
    void pinnedPoolExampleKeepsOneCustomersOrdersInOrderOnOneThread() {
        List<Order> orders = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            orders.add(new Order("c" + (i % 7), i));
        }
        Map<String, List<Integer>> booked = new ConcurrentHashMap<>();
        Map<String, Set<String>> threads = new ConcurrentHashMap<>();
        runExample(() -> {
            try (PinnedPool pool = PinnedPool.builder().workers(4).build()) {
                for (Order o : orders) {
                    int shard = Math.floorMod(o.customerId().hashCode(), 4);
                    // all of one customer's orders run on one thread, in submission order
                    pool.execute(() -> {
                        booked.computeIfAbsent(o.customerId(), k -> Collections.synchronizedList(new ArrayList<>()))
                                .add(o.seq());
                        threads.computeIfAbsent(o.customerId(), k -> ConcurrentHashMap.newKeySet())
                                .add(Thread.currentThread().getName());
                    }, Hints.DEFAULT.withWorkerIndex(shard));
                }
            }
        });
        assertThat(booked).hasSize(7);
        booked.forEach((c, seqs) -> assertThat(seqs).as(c).isSorted().hasSize(orders.size() / 7 + (c.compareTo("c4") < 0 && 400 % 7 > Integer.parseInt(c.substring(1)) ? 1 : 0)));
        threads.forEach((c, names) -> assertThat(names).as(c).hasSize(1));
    }

    /** {@link SchedulerUnion}: routing by index, and the union closes both pools. */
    @Test
    void schedulerUnionExampleRoutesAndClosesBothPools() {
        List<String> ran = new CopyOnWriteArrayList<>();
        WorkStealingPool[] pools = new WorkStealingPool[2];
        runExample(() -> {
            WorkStealingPool control = WorkStealingPool.builder().workers(1).name("control").build();
            WorkStealingPool bulk = WorkStealingPool.builder().workers(8).name("bulk").build();
            pools[0] = control;
            pools[1] = bulk;
            try (SchedulerUnion union = SchedulerUnion.owning(control, bulk)) {
                union.execute(() -> ran.add("rebalance " + Thread.currentThread().getName()), Hints.DEFAULT);
                union.execute(() -> ran.add("compress " + Thread.currentThread().getName()),
                        Hints.DEFAULT.withSchedulerIndex(1));
            }                                                                           // closes both pools
        });
        assertThat(ran).hasSize(2);
        assertThat(ran).anySatisfy(s -> assertThat(s).startsWith("rebalance ").contains("control"));
        assertThat(ran).anySatisfy(s -> assertThat(s).startsWith("compress ").contains("bulk"));
        assertThat(pools[0].isTerminated()).isTrue();
        assertThat(pools[1].isTerminated()).isTrue();
    }

    /** {@link SchedulerStats}: the snapshot's fields. */
    @Test
    void schedulerStatsExampleCountsTheCompletedTasks() {
        AtomicLong completed = new AtomicLong();
        AtomicInteger workers = new AtomicInteger();
        runExample(() -> {
            try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).build()) {
                for (int i = 0; i < 10; i++) {
                    pool.invoke(() -> 1);
                }
                // A racy snapshot: the worker counts a task just after its result is out, so a
                // snapshot taken as invoke returns may miss it; once quiet the figures are exact.
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (pool.stats().completed() < 10 && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
                SchedulerStats s = pool.stats();
                System.out.println(s.completed() + " tasks, " + s.steals() + " stolen, " + s.queued() + " waiting");
                for (SchedulerStats.WorkerStats w : s.workers()) {
                    workers.incrementAndGet();
                }
                completed.set(s.completed());
            }
        });
        assertThat(completed.get()).isEqualTo(10);
        assertThat(workers.get()).isEqualTo(2);
    }

    // ------------------------------------------------------------------ spindle-async

    /** {@link AsyncTask}: counts to three. */
    @Test
    void asyncTaskExampleCountsToThree() {
        AtomicInteger seen = new AtomicInteger();
        runExample(() -> {
            // counts to three, yielding its thread between steps
            AsyncTask<Integer> counter = new AsyncTask<>() {
                int n;
                public Poll<Integer> poll(Context cx) {
                    if (++n == 3) return Poll.ready(n);
                    cx.waker().wake();                   // poll me again soon
                    return Poll.pending();
                }
            };
            try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
                seen.set(rt.run(counter));
            }
        });
        assertThat(seen.get()).isEqualTo(3);
    }

    /** {@link JoinHandle}: v == 42, child.get() == 21. */
    @Test
    void joinHandleExampleAwaitsTheChild() {
        AtomicInteger vSeen = new AtomicInteger();
        AtomicInteger childSeen = new AtomicInteger();
        runExample(() -> {
            try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
                JoinHandle<Integer> child = rt.spawn(cx -> Poll.ready(21));
                int v = rt.run(cx -> {                      // a task awaiting another
                    Poll<Integer> p = child.poll(cx);       // pending until child is done
                    return p.isReady() ? Poll.ready(p.value() * 2) : Poll.pending();
                });                                         // v == 42
                vSeen.set(v);
                childSeen.set(child.get());                 // 21, from a plain thread
            }
        });
        assertThat(vSeen.get()).isEqualTo(42);
        assertThat(childSeen.get()).isEqualTo(21);
    }

    /** {@link AsyncRuntime} class example and {@link AsyncPolicy}. */
    @Test
    void asyncRuntimeAndPolicyExamplesRun() {
        List<String> seen = new CopyOnWriteArrayList<>();
        runExample(() -> {
            try (AsyncRuntime rt = AsyncRuntime.builder()
                    .workers(4)
                    .policy(AsyncPolicy.HYBRID)
                    .name("server")
                    .build()) {
                JoinHandle<String> h = rt.spawn(cx -> Poll.ready("spawned"));
                String s = rt.run(cx -> Poll.ready("blocked on")); // waits; callers outside only
                seen.add(s);
                seen.add(h.get());                                  // "spawned"
            }                                                       // close(): shut down and join
            try (AsyncRuntime rt = AsyncRuntime.builder().policy(AsyncPolicy.HYBRID).build()) {
                seen.add(rt.run(cx -> Poll.ready("hello")));
            }
        });
        assertThat(seen).containsExactly("blocked on", "spawned", "hello");
    }

    /** {@link AsyncRuntime.Builder#budget}: the runtime built in the example terminates once closed. */
    @Test
    void asyncRuntimeBudgetExampleBuildsARuntimeThatCloses() {
        runExample(() -> {
            AsyncRuntime rt = AsyncRuntime.builder().workers(2).budget(64).build();
            assertThat(rt.run(Async.ready(1))).isEqualTo(1);
            rt.close();
        });
    }

    /** {@link AsyncPromise}: "got 42". */
    @Test
    void asyncPromiseExampleGetsTheAnswer() {
        List<String> seen = new CopyOnWriteArrayList<>();
        runExample(() -> {
            try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
                AsyncPromise<Integer> reply = new AsyncPromise<>();
                JoinHandle<String> client = rt.spawn(Async.map(reply, r -> "got " + r)); // pending until completed
                rt.spawn(cx -> {                                 // another task answers, once
                    reply.complete(42);
                    return Poll.ready(null);
                });
                seen.add(client.get());                          // "got 42"
            }
        });
        assertThat(seen).containsExactly("got 42");
    }

    /** {@link AsyncChannel}: the consumer completes with 3. */
    @Test
    void asyncChannelExampleConsumerCompletesWithThree() {
        AtomicInteger seen = new AtomicInteger();
        runExample(() -> {
            AsyncChannel<Integer> ch = new AsyncChannel<>(16);
            AsyncTask<Void> producer = Async.then(ch.send(1), x -> ch.send(2));
            AsyncTask<Integer> consumer = Async.then(ch.receive(), a -> Async.map(ch.receive(), b -> a + b));
            // run both on a runtime; consumer completes with 3
            try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
                JoinHandle<Integer> c = rt.spawn(consumer);
                rt.spawn(producer);
                seen.set(c.get(20, TimeUnit.SECONDS));
            }
        });
        assertThat(seen.get()).isEqualTo(3);
    }

    /** {@link AsyncSemaphore}: the guarded call runs and gives its permit back. */
    @Test
    void asyncSemaphoreExampleReleasesThePermit() {
        List<Object> seen = new CopyOnWriteArrayList<>();
        runExample(() -> {
            AsyncSemaphore connections = new AsyncSemaphore(10);
            AsyncTask<String> guarded = Async.then(connections.acquire(), permit -> {
                try {
                    return Async.ready(callServer());          // at most 10 at a time
                } finally {
                    connections.release();
                }
            });
            try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
                seen.add(rt.run(guarded));
            }
            seen.add(connections.availablePermits());
        });
        assertThat(seen).containsExactly("reply", 10);
    }

    private static String callServer() {
        return "reply";
    }

    /** {@link Async}: the class example (receive, sleep, double, timeout). */
    @Test
    void asyncClassExampleDoublesTheNumber() {
        AtomicInteger seen = new AtomicInteger();
        runExample(() -> {
            AsyncChannel<Integer> channel = new AsyncChannel<>(4);
            try (AsyncRuntime runtime = AsyncRuntime.builder().workers(2).build()) {
                runtime.spawn(channel.send(21));
                // read a number from a channel, wait a bit, double it, give up after one second
                AsyncTask<Integer> job = Async.timeout(
                        Async.then(channel.receive(),
                                n -> Async.map(Async.sleep(Duration.ofMillis(10)), ignored -> n * 2)),
                        Duration.ofSeconds(1));
                int result = runtime.run(job);
                seen.set(result);
            }
        });
        assertThat(seen.get()).isEqualTo(42);
    }

    /** The small examples of {@link Async}'s methods. */
    @Test
    void asyncMethodExamplesComputeWhatTheirCommentsSay() {
        List<Object> seen = new CopyOnWriteArrayList<>();
        runExample(() -> {
            try (AsyncRuntime runtime = AsyncRuntime.builder().workers(2).build()) {
                AsyncTask<Void> step = Async.then(Async.yieldNow(), ignored -> Async.ready(null));
                seen.add(String.valueOf(runtime.run(step)));

                AsyncTask<String> hello = Async.ready("hello");
                seen.add(runtime.run(hello));

                AsyncTask<String> bad = Async.failed(new IllegalStateException("no"));
                try {
                    runtime.spawn(bad).get();
                    seen.add("no failure");
                } catch (ExecutionException e) {
                    seen.add(e.getCause().getClass().getSimpleName());
                }

                CompletableFuture<String> f = CompletableFuture.supplyAsync(() -> "computed");
                AsyncTask<Integer> length = Async.map(Async.from(f), String::length);
                seen.add(runtime.run(length));

                AsyncTask<Integer> length4 = Async.map(Async.ready("four"), String::length); // 4
                seen.add(runtime.run(length4));

                AsyncChannel<String> channel = new AsyncChannel<>(4);
                AsyncChannel<String> other = new AsyncChannel<>(4);
                runtime.spawn(channel.send("ping"));
                AsyncTask<String> reply = Async.then(channel.receive(),
                        request -> Async.map(other.send(request), ignored -> "forwarded " + request));
                seen.add(runtime.run(reply));
                seen.add(runtime.run(other.receive()));

                AsyncTask<String> later = Async.map(Async.sleep(Duration.ofMillis(20)), x -> "woke up");
                seen.add(runtime.run(later));

                long t0 = System.nanoTime();
                AsyncTask<Void> tick = Async.sleepUntil(t0 + 1_000_000);   // one millisecond after t0
                runtime.run(tick);
                seen.add(System.nanoTime() - t0 >= 1_000_000);

                AsyncTask<String> fastest = Async.any(List.of(
                        Async.map(Async.sleep(Duration.ofSeconds(10)), x -> "slow"),
                        Async.map(Async.sleep(Duration.ofMillis(5)), x -> "fast")));   // "fast"
                seen.add(runtime.run(fastest));
            }
        });
        assertThat(seen).containsExactly("null", "hello", "IllegalStateException", 8, 4,
                "forwarded ping", "ping", "woke up", true, "fast");
    }

    /** {@link Async#recover}: null once the channel is closed and drained. */
    @Test
    void asyncRecoverExampleYieldsNullOnAClosedChannel() {
        List<Object> seen = new CopyOnWriteArrayList<>();
        runExample(() -> {
            AsyncChannel<Integer> channel = new AsyncChannel<>(4);
            try (AsyncRuntime runtime = AsyncRuntime.builder().workers(2).build()) {
                runtime.run(channel.send(7));
                channel.close();
                for (int i = 0; i < 2; i++) {
                    // null once the channel is closed and drained
                    AsyncTask<Integer> next = Async.recover(channel.receive(), e -> {
                        if (e instanceof ChannelClosedException) return null;
                        throw Async.unchecked(e);
                    });
                    seen.add(String.valueOf(runtime.run(next)));
                }
            }
        });
        assertThat(seen).containsExactly("7", "null");
    }

    /** {@link Async#loop} sums the first three messages; {@link Async#whileTrue} forwards until a negative one. */
    @Test
    void asyncLoopAndWhileTrueExamples() {
        List<Object> seen = new CopyOnWriteArrayList<>();
        runExample(() -> {
            AsyncChannel<Integer> channel = new AsyncChannel<>(8);
            AsyncChannel<Integer> in = new AsyncChannel<>(8);
            AsyncChannel<Integer> out = new AsyncChannel<>(8);
            try (AsyncRuntime runtime = AsyncRuntime.builder().workers(2).build()) {
                for (int m : new int[] {1, 2, 3, 100}) {
                    runtime.run(channel.send(m));
                }
                // sums the first three messages of a channel
                AsyncTask<Integer> sum = Async.loop(new int[] {0, 0}, acc -> acc[0] == 3
                        ? Async.ready(Async.Step.done(acc[1]))
                        : Async.map(channel.receive(),
                                (Integer m) -> Async.Step.next(new int[] {acc[0] + 1, acc[1] + m})));
                seen.add(runtime.run(sum));
                seen.add(channel.size());

                for (int m : new int[] {4, 5, -1, 6}) {
                    runtime.run(in.send(m));
                }
                // forwards messages until a negative one arrives
                AsyncTask<Void> pump = Async.whileTrue(() -> Async.then(in.receive(),
                        (Integer m) -> m < 0 ? Async.ready(false) : Async.map(out.send(m), x -> true)));
                runtime.run(pump);
                seen.add(runtime.run(out.receive()));
                seen.add(runtime.run(out.receive()));
                seen.add(out.size());
                seen.add(in.size());
            }
        });
        assertThat(seen).containsExactly(6, 1, 4, 5, 0, 1);
    }

    /** {@link Async#all}, {@link Async#select} and {@link Async#timeout}. */
    @Test
    void asyncAllSelectAndTimeoutExamples() {
        List<Object> seen = new CopyOnWriteArrayList<>();
        runExample(() -> {
            AsyncChannel<Integer> a = new AsyncChannel<>(4);
            AsyncChannel<Integer> b = new AsyncChannel<>(4);
            AsyncChannel<Integer> channel = new AsyncChannel<>(4);
            try (AsyncRuntime runtime = AsyncRuntime.builder().workers(2).build()) {
                runtime.run(a.send(1));
                runtime.run(b.send(2));
                AsyncTask<List<Integer>> both = Async.all(List.of(a.receive(), b.receive()));
                seen.add(runtime.run(both));

                runtime.run(b.send(3));
                AsyncTask<Async.Selected<Integer>> first = Async.select(List.of(a.receive(), b.receive()));
                Async.Selected<Integer> sel = runtime.run(first);
                seen.add(sel.index() + ":" + sel.value());
                seen.add(a.size() + b.size());

                AsyncTask<Integer> bounded = Async.timeout(channel.receive(), Duration.ofSeconds(1));
                // runtime.spawn(bounded).get() throws ExecutionException caused by TimeoutException
                try {
                    runtime.spawn(bounded).get();
                    seen.add("no timeout");
                } catch (ExecutionException e) {
                    seen.add(e.getCause() instanceof TimeoutException);
                }
            }
        });
        assertThat(seen).containsExactly(List.of(1, 2), "1:3", 0, true);
    }

    /** {@link Async#unchecked}: "CompletionException(IOException)". */
    @Test
    void asyncUncheckedExampleWrapsInCompletionException() {
        RuntimeException e = Async.unchecked(new java.io.IOException("reset"));
        assertThat(e).isInstanceOf(java.util.concurrent.CompletionException.class)
                .hasCauseInstanceOf(java.io.IOException.class);
    }

    /** {@link AsyncTcpListener}, {@link AsyncTcpStream} and {@link Reactor}: connect, send a line, read the reply. */
    @Test
    void tcpExamplesTalkToALocalServer() {
        List<Object> seen = new CopyOnWriteArrayList<>();
        runExample(() -> {
            try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
                AsyncTcpListener listener = AsyncTcpListener.bind(new InetSocketAddress("127.0.0.1", 0));
                int port = listener.localAddress().getPort();
                AsyncTask<AsyncTcpStream> next = listener.accept();   // pending until a client connects
                JoinHandle<Integer> server = rt.spawn(Async.then(next, s -> {
                    ByteBuffer in = ByteBuffer.allocate(64);
                    return Async.then(s.read(in), n -> {
                        in.flip();
                        return Async.map(s.writeAll(in), x -> n);
                    });
                }));

                // connect, send a line, read the reply (one read)
                ByteBuffer reply = ByteBuffer.allocate(1024);
                AsyncTask<Integer> talk = Async.then(AsyncTcpStream.connect(new InetSocketAddress("127.0.0.1", port)),
                        stream -> Async.then(stream.writeAll(ByteBuffer.wrap("hello\n".getBytes())),
                                x -> stream.read(reply)));
                seen.add(rt.run(talk));
                seen.add(server.get(20, TimeUnit.SECONDS));
                reply.flip();
                seen.add(StandardCharsets.UTF_8.decode(reply).toString());
                listener.close();
            }
            try (Reactor reactor = Reactor.open()) {
                AsyncTcpListener listener = AsyncTcpListener.bind(new InetSocketAddress("127.0.0.1", 0), reactor);
                seen.add(listener.localAddress().getPort() > 0);
                listener.close();
            }
            try (ReactorGroup reactors = ReactorGroup.open(4);
                    AsyncTcpListener listener = AsyncTcpListener.bind(
                            new InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), reactors)) {
                seen.add(listener.localAddress().getPort() > 0);
            }
            InetSocketAddress address = new InetSocketAddress("127.0.0.1", 0);
            try (ReactorGroup reactors = ReactorGroup.openDriven(2);
                    AsyncRuntime rt = AsyncRuntime.builder().workers(8).driveIo(reactors.reactors()).build();
                    AsyncTcpListener l = AsyncTcpListener.bind(address, reactors)) {
                seen.add(rt.run(Async.map(Async.sleep(Duration.ofMillis(5)), x -> "driven")));
            }
        });
        assertThat(seen).containsExactly(6, 6, "hello\n", true, true, "driven");
    }

    // ------------------------------------------------------------------ spindle-actor

    static final class Greeter {
        private int greeted;
        String greet(String who) { greeted++; return "hello " + who + " #" + greeted; }
    }

    /** {@link ActorSystem}: "hello ask #2". */
    @Test
    void actorSystemExamplePrintsHelloAsk2() {
        String out = stdoutOf(() -> {
            try (ActorSystem system = ActorSystem.create()) {            // owns a pool sized to the cores
                ActorRef<Greeter> greeter = system.spawn(Greeter::new);
                greeter.tell(g -> g.greet("tell"));                       // result ignored
                System.out.println(greeter.ask(g -> g.greet("ask")).join()); // hello ask #2
            }                                                             // stops the actors, closes the pool
        });
        assertThat(out.strip()).isEqualTo("hello ask #2");
    }

    static final class Account {
        private long balance;                                   // plain field, owned by the actor
        void deposit(long amount) { balance += amount; }
        long balance() { return balance; }
    }

    /** The package example: 1000. */
    @Test
    void actorPackageExamplePrints1000() {
        String out = stdoutOf(() -> {
            try (ActorSystem system = ActorSystem.create()) {
                ActorRef<Account> account = system.spawn(Account::new,
                        ActorConfig.builder().name("account").maxMessagesPerActivation(50).build());
                for (int i = 0; i < 1_000; i++) {
                    account.tell(a -> a.deposit(1));
                }
                System.out.println(account.ask(Account::balance).join()); // 1000
            }
        });
        assertThat(out.strip()).isEqualTo("1000");
    }

    static final class Counter2 {
        private long count;                       // plain field: only the actor touches it
        void add(long n) { count += n; }
        long get() { return count; }
    }

    static final class Asker {
        private final ActorRef<Asker> self;
        private final ActorRef<Counter2> counter;
        private long last;
        Asker(ActorRef<Asker> self, ActorRef<Counter2> counter) { this.self = self; this.counter = counter; }

        void refresh() {                          // runs on the asker; returns at once
            counter.ask(Counter2::get).thenAccept(n -> self.tell(a -> a.last = n));
        }
    }

    /** {@link ActorRef}: the counter, then the asker that refreshes from it without blocking. */
    @Test
    void actorRefExamplesTellAskAndRefresh() {
        List<Long> seen = new CopyOnWriteArrayList<>();
        runExample(() -> {
            try (ActorSystem system = ActorSystem.create()) {
                ActorRef<Counter2> counter = system.spawn(Counter2::new);
                counter.tell(c -> c.add(5));                              // fire and forget
                long n = counter.ask(Counter2::get).join();                // 5: the ask runs after the tell
                seen.add(n);
                ActorRef<Asker> asker = system.spawnWithSelf(self -> new Asker(self, counter));
                asker.tell(Asker::refresh);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                long last;
                do {
                    last = asker.ask(a -> a.last).join();
                } while (last != 5 && System.nanoTime() < deadline);
                seen.add(last);
                counter.stop();
            }
        });
        assertThat(seen).containsExactly(5L, 5L);
    }

    static final class Ingest {
    }

    /** {@link ActorConfig}: the config names scheduler index 1, so the system runs on a union. */
    @Test
    void actorConfigExampleSpawnsOnAUnion() {
        List<Object> seen = new CopyOnWriteArrayList<>();
        runExample(() -> {
            try (SchedulerUnion union = SchedulerUnion.owning(
                    WorkSharingPool.builder().workers(1).build(), WorkSharingPool.builder().workers(1).build());
                    ActorSystem system = ActorSystem.builder().scheduler(union).build()) {
                ActorConfig config = ActorConfig.builder()
                        .name("ingest")
                        .priority(-1)                    // smaller is more urgent, on schedulers that order
                        .schedulerIndex(1)               // the second member of a scheduler union
                        .maxMessagesPerActivation(32)    // then yield the thread to other actors
                        .mailboxCapacity(10_000)         // tell throws MailboxFullException beyond this
                        .build();
                ActorRef<Ingest> ingest = system.spawn(Ingest::new, config);
                seen.add(ingest.ask(i -> "ok").join());
            }
        });
        assertThat(seen).containsExactly("ok");
    }

    /** {@link dev.spindle.actor.FailureHandler}: the handler sees a failing actor. */
    @Test
    void failureHandlerExampleSeesTheFailure() {
        List<String> logged = new CopyOnWriteArrayList<>();
        runExample(() -> {
            ActorSystem system = ActorSystem.builder()
                    .failureHandler((actor, failure) -> logged.add("actor " + actor.name() + " failed: " + failure.getMessage()))
                    .build();
            try (system) {
                ActorRef<Greeter> g = system.spawn(Greeter::new, ActorConfig.builder().name("g").build());
                g.tell(x -> {
                    throw new IllegalStateException("boom");
                });
                g.ask(x -> 1).exceptionally(t -> 0).join();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (logged.isEmpty() && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
            }
        });
        assertThat(logged).containsExactly("actor g failed: boom");
    }

    // ------------------------------------------------------------------ spindle-cluster

    /** {@link LocalCluster}: scatter an array, sum it. */
    @Test
    void localClusterExampleSumsTheScatteredArray() {
        String out = stdoutOf(() -> {
            try (LocalCluster cluster = LocalCluster.builder().workers(4).threadsPerWorker(2)
                    .bandwidth(100e6).latency(Duration.ofMillis(1)).build()) {
                Client client = cluster.client();
                ClusterFuture<int[]> data = client.scatter("data", new int[] {1, 2, 3}, 0);
                ClusterFuture<Integer> sum = client.submit("sum-0", args -> java.util.Arrays.stream((int[]) args.get(0)).sum(), data);
                System.out.println(sum.get() + " " + cluster.stats());
            }
        });
        assertThat(out).startsWith("6 ");
    }

    /**
     * {@link ClusterFuture}'s cancel example: a cancel before the task started wins, the
     * future's {@code get()} throws {@link java.util.concurrent.CancellationException}, and the
     * task runs only if a worker had started it (here it cannot have: the worker's one thread is
     * held by a task that started first, until the worker has given the cancelled one up).
     */
    @Test
    void clusterFutureCancelExampleCancelsATaskNotStarted() {
        runExample(() -> {
            try (LocalCluster cluster = LocalCluster.builder().workers(1).threadsPerWorker(1).build()) {
                Client client = cluster.client();
                CountDownLatch started = new CountDownLatch(1);
                CountDownLatch hold = new CountDownLatch(1);
                AtomicBoolean reportRan = new AtomicBoolean();
                ClusterFuture<Integer> busy = client.submit("busy", args -> {
                    started.countDown();
                    hold.await(20, TimeUnit.SECONDS);   // timed: no spare thread stands in meanwhile
                    return 0;
                });
                assertThat(started.await(20, TimeUnit.SECONDS)).as("the busy task started").isTrue();
                ClusterFuture<String> report = client.submit("report", args -> {
                    reportRan.set(true);
                    return "slow report";
                });
                if (report.cancel(false)) {
                    // report.get() throws CancellationException; the task runs only if a worker had started it
                    assertThatThrownBy(report::get).isInstanceOf(java.util.concurrent.CancellationException.class);
                } else {
                    throw new AssertionError("a task queued behind a busy worker was not cancelled");
                }
                // The cancel asks the task back from the worker it was sent to; only the worker's
                // answer, that it gave the task up unstarted, keeps it from running (it is then
                // forgotten and counted). Released before that answer, the worker's thread took the
                // queued task and ran it, as a task that had started by then runs (ClusterFuture).
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (cluster.stats().tasksCancelled() < 1 && System.nanoTime() - deadline < 0) {
                    Thread.sleep(1);
                }
                assertThat(cluster.stats().tasksCancelled()).as("the task given up unstarted, forgotten").isEqualTo(1);
                hold.countDown();
                assertThat(busy.get(20, TimeUnit.SECONDS)).isZero();
                assertThat(reportRan).as("the cancelled task ran").isFalse();
            }
        });
    }

    /** {@link dev.spindle.console.Console}'s class example: registers three sources and prints its URI. */
    @Test
    void consoleClassExampleRegistersAndPrintsItsUri() {
        String out = stdoutOf(() -> {
            try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).build();
                    AsyncRuntime runtime = AsyncRuntime.builder().workers(1).build();
                    ActorSystem system = ActorSystem.create()) {
                try (dev.spindle.console.Console console = dev.spindle.console.Console.builder().start()) {       // 127.0.0.1, an ephemeral port
                    console.register("fib", pool::stats);                  // any pool
                    console.register("io", runtime);                       // an AsyncRuntime, with its busiest tasks
                    console.register("actors", system);
                    System.out.println("console at " + console.uri());
                    assertThat(runtime.taskStatisticsEnabled()).as("register(io, runtime) turned task statistics on").isTrue();
                }
            }
        });
        assertThat(out.strip()).matches("console at http://127\\.0\\.0\\.1:\\d+/\\?token=[A-Za-z0-9_-]{32}");
    }

    /** {@link ClusterFuture}, {@link Client} and {@link Graph}, on a local cluster. */
    @Test
    void clusterClientExamplesComputeWhatTheySay() {
        List<Object> seen = new CopyOnWriteArrayList<>();
        runExample(() -> {
            try (LocalCluster cluster = LocalCluster.builder().workers(3).threadsPerWorker(2).build()) {
                Client client = cluster.client();
                ClusterFuture<Integer> x = client.submit("inc-1", args -> 1 + 1);
                ClusterFuture<Integer> y = client.submit("double-1", args -> 2 * (Integer) args.get(0), x);
                int four = y.get();
                seen.add(four);

                List<ClusterFuture<Integer>> parts = client.scatter("part", List.of(1, 2, 3));
                List<ClusterFuture<Integer>> squares = client.map("square", args -> (Integer) args.get(0) * (Integer) args.get(0), parts);
                List<Integer> values = client.gather(squares);   // [1, 4, 9]
                seen.add(values);

                Graph graph = Graph.builder()
                        .task("sum-0", args -> (Integer) args.get(0) + (Integer) args.get(1), "one-0", "two-0")
                        .task("one-0", args -> 1)
                        .task("two-0", args -> 2)
                        .build();
                Map<String, ClusterFuture<?>> futures = client.submit(graph);
                seen.add(futures.get("sum-0").get(20, TimeUnit.SECONDS));

                TaskSpec<Integer> spec = TaskSpec.builder("sum-1", args -> (Integer) args.get(0) + (Integer) args.get(1))
                        .dependsOn("one-0", "two-0")
                        .priority(10)                          // higher runs first on its worker
                        .durationHint(Duration.ofMillis(20))   // used until the prefix has been measured
                        .build();
                seen.add(client.submit(spec).get(20, TimeUnit.SECONDS));

                TaskSpec<String> render = TaskSpec.builder("render-1", args -> render())
                        .restrictions(Restrictions.strict(Set.of(0))).build();
                seen.add(client.submit(render).get(20, TimeUnit.SECONDS));
            }
        });
        assertThat(seen).containsExactly(4, List.of(1, 4, 9), 3, 3, "rendered");
    }

    private static String render() {
        return "rendered";
    }

    // ------------------------------------------------------------------ queues (single-threaded: what the comments say)

    @Test
    void queueExamplesBehaveAsCommented() {
        Runnable task = () -> { };
        Injector<Runnable> injector = new Injector<>();

        OwnerFifo<Runnable> yields = new OwnerFifo<>(1024);
        if (!yields.offer(task)) {                 // owner thread only
            injector.offer(task);                  // full: the caller puts it elsewhere, never drops it
        }
        Runnable mine = yields.poll();             // owner thread only; null when empty
        Runnable theirs = yields.steal();          // any other thread; null when empty
        assertThat(mine).isSameAs(task);
        assertThat(theirs).isNull();
        OwnerFifo<Runnable> tiny = new OwnerFifo<>(2);
        assertThat(tiny.offer(task) && tiny.offer(task)).isTrue();
        assertThat(tiny.offer(task)).as("full: offer says so").isFalse();

        Runnable taskA = () -> { };
        Runnable taskB = () -> { };
        WorkStealingDeque<Runnable> deque = new WorkStealingDeque<>();
        deque.push(taskA);                        // owner thread
        deque.push(taskB);
        Runnable popped = deque.pop();            // owner: taskB (newest first)
        deque.push(taskB);
        StealResult<Runnable> s = deque.steal();  // another thread: taskA (oldest first)
        assertThat(popped).isSameAs(taskB);
        assertThat(s.isSuccess()).isTrue();
        assertThat(s.value()).isSameAs(taskA);
        StealResult<Runnable> r;
        do {
            r = deque.steal();
        } while (r.isRetry());
        assertThat(r.isSuccess() ? r.value() : null).isSameAs(taskB);
        r = deque.steal();
        assertThat(r.isSuccess()).isFalse();
        assertThat(r.isRetry()).isFalse();

        for (int i = 0; i < 100; i++) {
            injector.offer(task);
        }
        Runnable next = injector.poll();              // any thread; null when empty
        WorkStealingDeque<Runnable> local = new WorkStealingDeque<>();      // owned by the calling thread
        Runnable first = injector.pollBatch(local, 32); // first to run now, up to 31 more into local
        assertThat(next).isNotNull();
        assertThat(first).isNotNull();
        assertThat(local.size()).isEqualTo(31);
        WorkStealingDeque<Runnable> local2 = new WorkStealingDeque<>();
        Runnable share = injector.pollShare(local2, 4);  // a fair share for one of 4 consumers
        assertThat(share).isNotNull();
        assertThat(local2.size() + 1).as("ceil(68 / 4)").isEqualTo(17);

        LifoSlot<Runnable> slot = new LifoSlot<>();
        List<Runnable> queue = new ArrayList<>();
        Runnable displaced = slot.put(taskA);           // owner: the previous occupant, or null
        if (displaced != null) queue.add(displaced);
        assertThat(displaced).isNull();
        assertThat(slot.put(taskB)).isSameAs(taskA);
        Runnable took = slot.take();                   // owner
        Runnable stolen = slot.steal();                // any thread
        assertThat(took).isSameAs(taskB);
        assertThat(stolen).isNull();
    }

    /** A task with a claim word, as {@link ForkStack}'s example assumes. */
    static final class MyTask implements Runnable {
        final AtomicBoolean claimed = new AtomicBoolean();
        final AtomicInteger runs = new AtomicInteger();
        boolean isNew() { return !claimed.get(); }
        boolean tryClaim() { return claimed.compareAndSet(false, true); }
        @Override public void run() { runs.incrementAndGet(); }
    }

    @Test
    void forkStackExampleHandsBackTheOldestWhenFull() {
        ForkStack<MyTask> forks = new ForkStack<>(8, MyTask::isNew);
        WorkStealingDeque<MyTask> deque = new WorkStealingDeque<>();
        List<MyTask> all = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            MyTask task = new MyTask();
            all.add(task);
            MyTask displaced = forks.push(task);       // owner; a full stack hands back its oldest
            if (displaced != null) deque.push(displaced);
        }
        assertThat(deque.pop()).isSameAs(all.get(0));
        MyTask mine = forks.pop();                 // owner: newest first
        assertThat(mine).isSameAs(all.get(8));
        MyTask other = forks.peekOldest();         // any thread: oldest unclaimed, not removed
        if (other != null && other.tryClaim()) other.run();
        assertThat(other).isSameAs(all.get(1));
        assertThat(other.runs.get()).isEqualTo(1);
        assertThat(forks.peekOldest()).as("a claimed element is skipped").isSameAs(all.get(2));
    }

    // ------------------------------------------------------------------ Spindle.blocking

    /** The promise of {@link Spindle}: a blocked work-sharing worker hands the task in its slot to the others. */
    @Test
    void blockingOnAWorkSharingWorkerLetsTheSlottedTaskRunElsewhere() {
        AtomicBoolean ran = new AtomicBoolean();
        runExample(() -> {
            try (WorkSharingPool pool = WorkSharingPool.builder().workers(2).build()) {
                CompletableFuture<Void> outer = new CompletableFuture<>();
                pool.execute(() -> {
                    CountDownLatch latch = new CountDownLatch(1);
                    pool.execute(() -> {                           // into this worker's slot
                        ran.set(true);
                        latch.countDown();
                    });
                    try {
                        Spindle.blocking(() -> latch.await());
                        outer.complete(null);
                    } catch (InterruptedException e) {
                        outer.completeExceptionally(e);
                    }
                });
                outer.get(20, TimeUnit.SECONDS);
            }
        });
        assertThat(ran).isTrue();
    }

    /** A one-worker stealing pool adds a compensating worker; a ForkJoinPool goes through managedBlock. */
    @Test
    void blockingCompensatesOnAStealingPoolAndOnAForkJoinPool() {
        runExample(() -> {
            try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).build()) {
                CountDownLatch latch = new CountDownLatch(1);
                Task<Boolean> waiter = pool.spawn(() -> Spindle.blocking(() -> latch.await(20, TimeUnit.SECONDS)));
                pool.spawn(() -> {
                    latch.countDown();
                    return null;
                });
                assertThat(waiter.join()).isTrue();
            }
            ForkJoinPool fj = new ForkJoinPool(1);
            try {
                CountDownLatch latch = new CountDownLatch(1);
                java.util.concurrent.Future<Boolean> waiter = fj.submit(
                        () -> Spindle.blocking(() -> latch.await(20, TimeUnit.SECONDS)));
                fj.submit(latch::countDown);
                assertThat(waiter.get(30, TimeUnit.SECONDS)).isTrue();
            } finally {
                fj.shutdownNow();
            }
        });
    }

    /** The class example: an IOException from the section fails the task unchanged. */
    @Test
    void blockingExampleFailsTheTaskWithTheSectionsException() {
        runExample(() -> {
            try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).build()) {
                BufferedReader reader = new BufferedReader(new StringReader("abc\n")) {
                    private boolean first = true;
                    @Override
                    public String readLine() throws IOException {
                        if (first) {
                            first = false;
                            return super.readLine();
                        }
                        throw new IOException("reset");
                    }
                };
                for (int i = 0; i < 2; i++) {
                    Task<Integer> length = pool.spawn(() -> {
                        String line = Spindle.blocking(() -> reader.readLine());   // may block for long
                        return process(line);
                    });
                    if (i == 0) {
                        assertThat(length.join()).isEqualTo(3);
                    } else {
                        assertThat(org.assertj.core.api.Assertions.catchThrowable(length::join))
                                .isInstanceOf(CompletionException.class).hasCauseInstanceOf(IOException.class);
                    }
                }
            }
        });
    }

    private static int process(String line) {
        return line.length();
    }

    // ------------------------------------------------------------------ SchedulerUnion.shutdownNow idiom

    /** A member whose shutdownNow fails. */
    static final class FailingMember extends AbstractExecutorService implements Scheduler {
        private final RuntimeException failure;
        private volatile boolean shut;
        FailingMember(RuntimeException failure) { this.failure = failure; }
        @Override public void execute(Runnable command) { command.run(); }
        @Override public void shutdown() { shut = true; }
        @Override public List<Runnable> shutdownNow() { shut = true; throw failure; }
        @Override public boolean isShutdown() { return shut; }
        @Override public boolean isTerminated() { return shut; }
        @Override public boolean awaitTermination(long timeout, TimeUnit unit) { return true; }
    }

    private static void cancelAll(List<Runnable> tasks, List<Runnable> into) {
        into.addAll(tasks);
    }

    @Test
    void schedulerUnionShutdownNowIdiomRecoversTheUnstartedTasks() {
        for (boolean suppressible : new boolean[] {true, false}) {
            List<Runnable> cancelled = new ArrayList<>();
            WorkSharingPool pool = WorkSharingPool.builder().workers(1).build();
            CountDownLatch block = new CountDownLatch(1);
            CountDownLatch started = new CountDownLatch(1);
            pool.execute(() -> {
                started.countDown();
                try {
                    block.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            try {
                started.await();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            Runnable queued = () -> { };
            pool.execute(queued);
            RuntimeException failure = suppressible ? new IllegalStateException("member failed")
                    : new RuntimeException("member failed", null, false, false) { };
            SchedulerUnion union = SchedulerUnion.owning(new FailingMember(failure), pool);
            Throwable thrown = null;
            try {
                try {
                    cancelAll(union.shutdownNow(), cancelled);
                } catch (SchedulerUnion.UnstartedTasks u) {
                    cancelAll(u.tasks(), cancelled);
                    throw u;
                } catch (RuntimeException | Error e) {
                    for (Throwable s : e.getSuppressed()) {
                        if (s instanceof SchedulerUnion.UnstartedTasks u) {
                            cancelAll(u.tasks(), cancelled);
                        }
                    }
                    throw e;
                }
            } catch (Throwable t) {
                thrown = t;
            } finally {
                block.countDown();
                pool.close();
            }
            assertThat(cancelled).as("suppressible " + suppressible).containsExactly(queued);
            if (suppressible) {
                assertThat(thrown).isSameAs(failure);
            } else {
                assertThat(thrown).isInstanceOf(SchedulerUnion.UnstartedTasks.class).hasCause(failure);
            }
        }
    }

    // ------------------------------------------------------------------ more async

    /** {@link AsyncRuntime#stats} and {@link AsyncRuntime#busiestTasks} examples. */
    @Test
    void asyncStatsAndBusiestTasksExamples() {
        List<Object> seen = new CopyOnWriteArrayList<>();
        runExample(() -> {
            AsyncRuntime rt = AsyncRuntime.builder().taskStatistics(true).build();
            try (rt) {
                AsyncPromise<Integer> hold = new AsyncPromise<>();
                JoinHandle<Integer> live = rt.spawn(Async.map(Async.then(Async.yieldNow(), x -> hold), v -> v));
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                List<?> longest;
                do {
                    longest = rt.busiestTasks(10).longestPolls();   // empty while no task is live
                } while (longest.isEmpty() && System.nanoTime() < deadline);
                seen.add(longest.size());
                hold.complete(1);
                live.get(20, TimeUnit.SECONDS);
                SchedulerStats s = rt.stats();
                long polls = s.polls();
                long pollsOfWorker0 = s.workers().get(0).polls();
                seen.add(polls >= pollsOfWorker0 && polls > 0);
            }
        });
        assertThat(seen).containsExactly(1, true);
    }

    // ------------------------------------------------------------------ more cluster

    record Block(long bytes) implements Sized, java.io.Serializable {
        public long sizeInBytes() { return bytes; }
    }

    @Test
    void sizedExampleScattersWithItsDeclaredSize() {
        List<Object> seen = new CopyOnWriteArrayList<>();
        runExample(() -> {
            try (LocalCluster cluster = LocalCluster.builder().workers(2).build()) {
                ClusterFuture<Block> b = cluster.client().scatter("block", new Block(1234), 1);
                seen.add(b.get(20, TimeUnit.SECONDS).bytes());
            }
        });
        assertThat(seen).containsExactly(1234L);
    }

    /**
     * The smallest caller-supplied {@link Transport}: in-process, one delivery thread each way,
     * fetches answered with {@link WorkerNode#valueOrDefault} as its Javadoc shows.
     */
    static final class DirectTransport implements Transport {
        private static final Object NOT_HELD = new Object();
        private final ExecutorService toWorkers = Executors.newSingleThreadExecutor();
        private final ExecutorService toScheduler = Executors.newSingleThreadExecutor();
        private final Map<Integer, WorkerNode> nodes = new ConcurrentHashMap<>();
        private final Set<Integer> lost = ConcurrentHashMap.newKeySet();
        private volatile Consumer<Message.ToScheduler> handler = m -> { };
        private final AtomicLong bytes = new AtomicLong();

        void onMessage(Consumer<Message.ToScheduler> h) { handler = h; }

        void add(WorkerNode node) { nodes.put(node.id(), node); }

        @Override public void toWorker(int worker, Message.ToWorker message) {
            if (!lost.contains(worker)) {
                toWorkers.execute(() -> nodes.get(worker).receive(message));
            }
        }

        @Override public void toScheduler(Message.ToScheduler message) {
            toScheduler.execute(() -> handler.accept(message));
        }

        @Override public CompletableFuture<Object> fetch(String key, int holder, int requester) {
            WorkerNode node = nodes.get(holder);
            Object v = node == null || lost.contains(holder) ? NOT_HELD : node.valueOrDefault(key, NOT_HELD);
            if (v == NOT_HELD) {
                return CompletableFuture.failedFuture(new IllegalStateException(key + " not held by " + holder));
            }
            bytes.addAndGet(8);
            return CompletableFuture.completedFuture(v);
        }

        @Override public void workerLost(int worker) {
            lost.add(worker);
            toScheduler(new Message.WorkerLost(worker));
        }

        @Override public long bytesTransferred() { return bytes.get(); }

        @Override public void close() {
            toWorkers.shutdownNow();
            toScheduler.shutdownNow();
        }
    }

    /** {@link ClusterCoordinator} with {@link WorkerNode}s behind a caller-supplied transport. */
    @Test
    void clusterCoordinatorExampleRunsOverACallerSuppliedTransport() {
        List<Object> seen = new CopyOnWriteArrayList<>();
        runExample(() -> {
            DirectTransport transport = new DirectTransport();
            List<WorkerNode> nodes = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                WorkerNode node = new WorkerNode(i, 2, transport);
                nodes.add(node);
                transport.add(node);
            }
            ClusterCoordinator coordinator = ClusterCoordinator.start(
                    CoordinatorSettings.builder().workers(3).threadsPerWorker(2).build(), transport);
            transport.onMessage(coordinator::receive);          // the transport's own wiring
            try {
                ClusterFuture<Integer> one = coordinator.client().submit("one", args -> 1);
                seen.add(one.get(20, TimeUnit.SECONDS));
                List<ClusterFuture<Integer>> parts = coordinator.client().scatter("part", List.of(1, 2, 3));
                ClusterFuture<Integer> sum = coordinator.client().submit(TaskSpec.builder("sum",
                        args -> (Integer) args.get(0) + (Integer) args.get(1) + (Integer) args.get(2))
                        .dependsOn(parts.toArray(new ClusterFuture<?>[0])).build());
                seen.add(sum.get(20, TimeUnit.SECONDS));
                CoordinatorSettings settings = CoordinatorSettings.builder().workers(3).threadsPerWorker(2)
                        .bandwidth(1e9).latency(Duration.ofMillis(1)).build();
                seen.add(settings.workers());
            } finally {
                coordinator.close();
                for (WorkerNode n : nodes) {
                    n.close();
                }
                transport.close();
            }
        });
        assertThat(seen).containsExactly(1, 6, 3);
    }

    /** README: a work-sharing task waiting for what it submitted does not strand it in its slot. */
    @Test
    void workSharingTaskWaitingForItsFollowUpDoesNotStrandIt() {
        for (String how : List.of("get", "latch", "join")) {
            runExample(() -> {
                try (WorkSharingPool pool = WorkSharingPool.builder().workers(2).build()) {
                    CompletableFuture<String> outer = new CompletableFuture<>();
                    pool.execute(() -> {
                        try {
                            switch (how) {
                                case "get" -> outer.complete(pool.submit(() -> "ran").get());
                                case "latch" -> {
                                    CountDownLatch latch = new CountDownLatch(1);
                                    pool.execute(latch::countDown);
                                    latch.await();
                                    outer.complete("ran");
                                }
                                default -> {
                                    CompletableFuture<String> f = new CompletableFuture<>();
                                    pool.execute(() -> f.complete("ran"));
                                    outer.complete(f.join());
                                }
                            }
                        } catch (Exception e) {
                            outer.completeExceptionally(e);
                        }
                    });
                    assertThat(outer.get(20, TimeUnit.SECONDS)).as(how).isEqualTo("ran");
                }
            });
        }
    }

    /** {@link Hints}: priority, union member, and "pinned to worker 3 % workers". */
    @Test
    void hintsExamplePlacesAsCommented() {
        List<String> seen = new CopyOnWriteArrayList<>();
        runExample(() -> {
            Hints urgent = Hints.DEFAULT.withPriority(-10);           // smaller is more urgent
            Hints ioGroup = Hints.DEFAULT.withSchedulerIndex(1);      // the union's second member
            Hints onWorker3 = Hints.DEFAULT.withWorkerIndex(3);       // pinned to worker 3 % workers
            try (PinnedPool pool = PinnedPool.builder().workers(2).name("pinned").build()) {
                Scheduler scheduler = pool;
                CompletableFuture<String> a = new CompletableFuture<>();
                CompletableFuture<String> b = new CompletableFuture<>();
                scheduler.execute(() -> a.complete(Thread.currentThread().getName()), onWorker3);
                scheduler.execute(() -> b.complete(Thread.currentThread().getName()), Hints.DEFAULT.withWorkerIndex(1));
                seen.add(String.valueOf(a.get(20, TimeUnit.SECONDS).equals(b.get(20, TimeUnit.SECONDS))));
                scheduler.execute(() -> seen.add("handled"), urgent);
            }
            try (SchedulerUnion union = SchedulerUnion.owning(
                    WorkSharingPool.builder().workers(1).name("first").build(),
                    WorkSharingPool.builder().workers(1).name("second").build())) {
                CompletableFuture<String> c = new CompletableFuture<>();
                union.execute(() -> c.complete(Thread.currentThread().getName()), ioGroup);
                seen.add(c.get(20, TimeUnit.SECONDS).startsWith("second") ? "second" : c.get());
            }
        });
        assertThat(seen).containsExactly("true", "handled", "second");
    }
}
