/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Exactly-once accounting of the synchronisation primitives under races (session 30): many
 * tasks send and receive through a channel, or take and give back semaphore permits, while
 * others time out, lose selects, are cancelled through their handles, the channel closes and the
 * runtime shuts down; then every message and every permit is accounted for.
 */
class AsyncRaceRegressionTest {

    static Stream<Arguments> configs() {
        List<Arguments> out = new ArrayList<>();
        for (int workers : new int[] {2, 4}) {
            for (AsyncPolicy policy : AsyncPolicy.values()) {
                for (boolean closeFirst : new boolean[] {true, false}) {
                    out.add(Arguments.of(workers, policy, closeFirst));
                }
            }
        }
        return out.stream();
    }

    /** Polls with an unlimited budget and a waker that does nothing: for draining after shutdown. */
    private static final Context SYNC = new Context() {
        @Override
        public Waker waker() {
            return () -> { };
        }

        @Override
        public boolean consumeBudget() {
            return true;
        }
    };

    private static boolean isTimeout(Throwable e) {
        return e instanceof CompletionException && e.getCause() instanceof TimeoutException;
    }

    /** A random short duration, up to {@code maxMicros}; zero sometimes (times out at once). */
    private static Duration shortly(SplittableRandom rnd, int maxMicros) {
        return Duration.ofNanos(rnd.nextInt(maxMicros * 1000));
    }

    /** The elements of {@code a} not in {@code b}, sorted (set operations: AssertJ's are quadratic). */
    private static List<Integer> minus(Set<Integer> a, Set<Integer> b) {
        return filter(a, b, false);
    }

    /** The elements of {@code a} also in {@code b}, sorted, at most 20. */
    private static List<Integer> both(Set<Integer> a, Set<Integer> b) {
        return filter(a, b, true);
    }

    private static List<Integer> filter(Set<Integer> a, Set<Integer> b, boolean in) {
        List<Integer> out = new ArrayList<>();
        for (Integer x : a) {
            if (b.contains(x) == in) {
                out.add(x);
            }
        }
        out.sort(null);
        return out.size() > 20 ? out.subList(0, 20) : out;
    }

    @ParameterizedTest(name = "workers={0} policy={1} closeFirst={2}")
    @MethodSource("configs")
    void everyChannelMessageIsReceivedOnceOrReportedBack(int workers, AsyncPolicy policy, boolean closeFirst)
            throws Exception {
        long seed = 0x5EEDL * 31 + workers * 7L + policy.ordinal() * 3L + (closeFirst ? 1 : 0);
        SplittableRandom master = new SplittableRandom(seed);
        AsyncChannel<Integer> ch = new AsyncChannel<>(3);
        Set<Integer> attempted = ConcurrentHashMap.newKeySet();
        Set<Integer> sent = ConcurrentHashMap.newKeySet();
        Set<Integer> notSent = ConcurrentHashMap.newKeySet();
        ConcurrentLinkedQueue<Integer> received = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<JoinHandle<?>> handles = new ConcurrentLinkedQueue<>();
        List<JoinHandle<Void>> loops = new ArrayList<>();
        String name = "race-ch-" + seed;
        AsyncRuntime rt = AsyncRuntime.builder().workers(workers).policy(policy).name(name).build();
        try {
            for (int p = 0; p < 4; p++) {
                SplittableRandom rnd = master.split();
                int base = (p + 1) * 1_000_000;
                loops.add(rt.spawn(Async.loop(0, (Integer k) -> {
                    int id = base + k;
                    attempted.add(id);
                    int mode = rnd.nextInt(3);
                    AsyncTask<Void> op = mode == 0 ? ch.send(id) : Async.timeout(ch.send(id), shortly(rnd, 300));
                    return Async.recover(Async.map(op, x -> {
                        sent.add(id);
                        return Async.Step.<Integer, Void>next(k + 1);
                    }), e -> {
                        notSent.add(id);
                        if (isTimeout(e)) {
                            return Async.Step.next(k + 1);
                        }
                        if (e instanceof ChannelClosedException) {
                            return Async.Step.done(null);
                        }
                        throw Async.unchecked(e);
                    });
                })));
            }
            for (int c = 0; c < 4; c++) {
                SplittableRandom rnd = master.split();
                loops.add(rt.spawn(Async.loop(0, (Integer k) -> {
                    AsyncTask<Integer> op;
                    switch (rnd.nextInt(4)) {
                        case 0:
                            op = ch.receive();
                            break;
                        case 1:
                            op = Async.timeout(ch.receive(), shortly(rnd, 300));
                            break;
                        case 2:
                            op = Async.map(Async.select(List.of(ch.receive(),
                                    Async.map(Async.sleep(shortly(rnd, 300)), x -> -1))), s -> s.value());
                            break;
                        default:
                            op = Async.map(Async.select(List.of(ch.receive(), ch.receive())), s -> s.value());
                            break;
                    }
                    return Async.recover(Async.map(op, v -> {
                        if (v >= 0) {
                            received.add(v);
                        }
                        return Async.Step.<Integer, Void>next(k + 1);
                    }), e -> {
                        if (isTimeout(e)) {
                            return Async.Step.next(k + 1);
                        }
                        if (e instanceof ChannelClosedException) {
                            return Async.Step.done(null);
                        }
                        throw Async.unchecked(e);
                    });
                })));
            }
            // churn from outside: short-lived receivers cancelled through their handles
            SplittableRandom rnd = master.split();
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(400);
            long closeAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100 + rnd.nextInt(250));
            boolean closed = false;
            while (System.nanoTime() - end < 0) {
                JoinHandle<Integer> h = rt.spawn(Async.map(ch.receive(), v -> {
                    received.add(v);
                    return v;
                }));
                handles.add(h);
                LockSupport.parkNanos(rnd.nextInt(50_000));
                boolean won = h.cancel(false);
                assertThat(h.isDone()).isTrue();
                if (won) {
                    assertThat(h.isCancelled()).as("a cancel that returned true").isTrue();
                }
                if (closeFirst && !closed && System.nanoTime() - closeAt >= 0) {
                    ch.close();
                    closed = true;
                }
            }
            if (closeFirst) {
                // a sender parked on the full channel, a receiver parked on the empty one: each
                // is woken by the close and told, so every loop ends by itself
                for (JoinHandle<Void> h : loops) {
                    h.get(30, TimeUnit.SECONDS);
                }
            }
        } finally {
            rt.close();
        }
        handles.addAll(loops);
        for (JoinHandle<?> h : handles) {
            assertThat(h.isDone()).as("every handle completes at shutdown").isTrue();
        }
        assertThat(Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith(name + "-worker-")))
                .as("worker threads left running").isEmpty();
        ch.close();
        List<Integer> all = new ArrayList<>(received);
        while (true) {
            try {
                Poll<Integer> p = ch.receive().poll(SYNC);
                assertThat(p.isReady()).as("a receive of a closed channel never waits").isTrue();
                all.add(p.value());
            } catch (ChannelClosedException drained) {
                break;
            }
        }
        Set<Integer> distinct = new HashSet<>(all);
        assertThat(all.size() - distinct.size()).as("messages received twice").isZero();
        assertThat(minus(sent, distinct)).as("accepted sends neither received nor left in the channel").isEmpty();
        assertThat(both(notSent, distinct))
                .as("sends reported failed (timeout, closed) that were delivered all the same").isEmpty();
        assertThat(minus(distinct, attempted)).as("values that nobody sent").isEmpty();
        assertThat(sent).as("progress").isNotEmpty();
    }

    /**
     * Takes a permit (plainly, under a timeout or against a sleep in a select), holds it over a
     * few polls and gives it back; cancelled at any point it gives back what it holds, as the
     * {@link Cancellable} contract asks of a hand-written task.
     */
    private static final class HoldTask implements AsyncTask<Boolean>, Cancellable {
        private final AsyncSemaphore sem;
        private final AtomicInteger held;
        private final AtomicInteger maxHeld;
        private AsyncTask<Boolean> acquire;
        private boolean holding;
        private int yields;

        HoldTask(AsyncSemaphore sem, AtomicInteger held, AtomicInteger maxHeld, SplittableRandom rnd) {
            this.sem = sem;
            this.held = held;
            this.maxHeld = maxHeld;
            this.yields = rnd.nextInt(3);
            switch (rnd.nextInt(3)) {
                case 0:
                    acquire = Async.map(sem.acquire(), x -> true);
                    break;
                case 1:
                    acquire = Async.recover(Async.map(Async.timeout(sem.acquire(), shortly(rnd, 200)), x -> true),
                            e -> {
                                if (isTimeout(e)) {
                                    return false;
                                }
                                throw Async.unchecked(e);
                            });
                    break;
                default:
                    acquire = Async.map(Async.select(List.of(sem.acquire(), Async.sleep(shortly(rnd, 200)))),
                            s -> s.index() == 0);
                    break;
            }
        }

        @Override
        public Poll<Boolean> poll(Context cx) {
            if (acquire != null) {
                Poll<Boolean> p = acquire.poll(cx);
                if (p.isPending()) {
                    return Poll.pending();
                }
                acquire = null;
                if (!p.value()) {
                    return Poll.ready(false);
                }
                holding = true;
                int now = held.incrementAndGet();
                maxHeld.accumulateAndGet(now, Math::max);
            }
            if (yields > 0) {
                yields--;
                cx.waker().wake();
                return Poll.pending();
            }
            giveBack();
            return Poll.ready(true);
        }

        private void giveBack() {
            if (holding) {
                holding = false;
                held.decrementAndGet();
                sem.release();
            }
        }

        @Override
        public void cancel() {
            if (acquire != null) {
                Async.cancel(acquire);
                acquire = null;
            }
            giveBack();
        }
    }

    @ParameterizedTest(name = "workers={0} policy={1} cancelAtEnd={2}")
    @MethodSource("configs")
    void everySemaphorePermitIsHeldOrFree(int workers, AsyncPolicy policy, boolean cancelAtEnd) throws Exception {
        long seed = 0xACEL * 31 + workers * 7L + policy.ordinal() * 3L + (cancelAtEnd ? 1 : 0);
        SplittableRandom rnd = new SplittableRandom(seed);
        int permits = 3;
        AsyncSemaphore sem = new AsyncSemaphore(permits);
        AtomicInteger held = new AtomicInteger();
        AtomicInteger maxHeld = new AtomicInteger();
        List<JoinHandle<Boolean>> handles = new ArrayList<>();
        String name = "race-sem-" + seed;
        AsyncRuntime rt = AsyncRuntime.builder().workers(workers).policy(policy).name(name).build();
        try {
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(400);
            while (System.nanoTime() - end < 0) {
                JoinHandle<Boolean> h = rt.spawn(new HoldTask(sem, held, maxHeld, rnd));
                handles.add(h);
                if (rnd.nextInt(4) == 0) {
                    LockSupport.parkNanos(rnd.nextInt(20_000));
                    JoinHandle<Boolean> victim = handles.get(rnd.nextInt(handles.size()));
                    boolean won = victim.cancel(false);
                    assertThat(victim.isDone()).isTrue();
                    if (won) {
                        assertThat(victim.isCancelled()).isTrue();
                    }
                }
                if (handles.size() % 64 == 0) {
                    LockSupport.parkNanos(100_000);
                }
            }
            if (!cancelAtEnd) {
                for (JoinHandle<Boolean> h : handles) {
                    try {
                        h.get(30, TimeUnit.SECONDS);
                    } catch (CancellationException cancelled) {
                        // cancelled by the loop above
                    } catch (ExecutionException e) {
                        throw new AssertionError("a hold task failed", e);
                    }
                }
            }
        } finally {
            rt.close();
        }
        for (JoinHandle<Boolean> h : handles) {
            assertThat(h.isDone()).as("every handle completes at shutdown").isTrue();
        }
        assertThat(Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith(name + "-worker-")))
                .as("worker threads left running").isEmpty();
        assertThat(maxHeld.get()).as("never more permits held than exist").isLessThanOrEqualTo(permits);
        assertThat(held.get()).as("permits still held").isZero();
        assertThat(sem.availablePermits()).as("free permits after everything ended").isEqualTo(permits);
        for (int i = 0; i < permits; i++) {
            assertThat(sem.tryAcquire()).as("no waiter left queued; permit " + i).isTrue();
        }
    }

    static Stream<Arguments> runtimes() {
        List<Arguments> out = new ArrayList<>();
        for (int workers : new int[] {2, 4}) {
            for (AsyncPolicy policy : AsyncPolicy.values()) {
                out.add(Arguments.of(workers, policy));
            }
        }
        return out.stream();
    }

    /**
     * {@code complete}, {@code completeExceptionally} and {@code cancel} race on a promise that
     * a task awaits: exactly one wins, and the awaiting task reports the winner's outcome.
     */
    @ParameterizedTest(name = "workers={0} policy={1}")
    @MethodSource("runtimes")
    void aPromiseRaceHasOneWinnerThatTheAwaitingTaskReports(int workers, AsyncPolicy policy) throws Exception {
        IllegalStateException boom = new IllegalStateException("boom");
        ExecutorService racers = Executors.newFixedThreadPool(3);
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(workers).policy(policy).build()) {
            for (int round = 0; round < 300; round++) {
                AsyncPromise<Integer> p = new AsyncPromise<>();
                JoinHandle<Integer> awaiting = rt.spawn(Async.map(p, v -> v + 1));
                CyclicBarrier start = new CyclicBarrier(3);
                int value = round;
                Future<Boolean> completed = racers.submit(() -> {
                    start.await();
                    return p.complete(value);
                });
                Future<Boolean> failed = racers.submit(() -> {
                    start.await();
                    return p.completeExceptionally(boom);
                });
                Future<Boolean> cancelled = racers.submit(() -> {
                    start.await();
                    return p.cancel(false);
                });
                boolean c = completed.get(30, TimeUnit.SECONDS);
                boolean f = failed.get(30, TimeUnit.SECONDS);
                boolean x = cancelled.get(30, TimeUnit.SECONDS);
                assertThat((c ? 1 : 0) + (f ? 1 : 0) + (x ? 1 : 0)).as("winners in round " + round).isEqualTo(1);
                try {
                    Integer got = awaiting.get(30, TimeUnit.SECONDS);
                    assertThat(c).as("the task saw a value").isTrue();
                    assertThat(got).isEqualTo(value + 1);
                    assertThat(p.get()).isEqualTo(value);
                } catch (CancellationException e) {
                    assertThat(x).as("the task saw a cancellation").isTrue();
                } catch (ExecutionException e) {
                    Throwable t = e.getCause();
                    while (t != null && t != boom && !(t instanceof CancellationException)) {
                        t = t.getCause();
                    }
                    assertThat(t).as("the awaiting task's failure", e).isNotNull();
                    if (t == boom) {
                        assertThat(f).as("the task saw the failure").isTrue();
                    } else {
                        assertThat(x).as("the task saw a cancellation").isTrue();
                    }
                }
            }
        } finally {
            racers.shutdownNow();
        }
    }

    /**
     * A receiver parked on the empty channel when it closes, while a value sent before the close
     * is in flight to another receive: that receive is cancelled (its task's handle, a timeout,
     * a lost select) and gives the value back. The Javadoc promises it goes "to the next waiting
     * receiver"; the close had already failed the parked one, so the value went into the channel
     * after every live consumer had been told "closed and empty", and a consumer that receives
     * until the channel is closed never saw it.
     */
    @Test
    void aReceiverParkedAtTheCloseGetsTheValueACancelledReceiveGivesBack() {
        AsyncChannel<Integer> ch = new AsyncChannel<>(1);
        AsyncTask<Integer> a = ch.receive();
        AsyncTask<Integer> b = ch.receive();
        assertThat(a.poll(SYNC).isPending()).isTrue();
        assertThat(b.poll(SYNC).isPending()).isTrue();
        assertThat(ch.send(7).poll(SYNC).isReady()).isTrue();   // handed to a, the oldest waiter
        ch.close();
        Async.cancel(a);                                          // a's task gave up before returning it
        Poll<Integer> got = b.poll(SYNC);
        assertThat(got.isReady()).as("the parked receiver gets the value back").isTrue();
        assertThat(got.value()).isEqualTo(7);
        assertThatThrownBy(() -> ch.receive().poll(SYNC)).isInstanceOf(ChannelClosedException.class);
    }

    /**
     * The other way out of the same race: the receive in flight returns its value, and the
     * receivers parked at the close are then woken and fail (none waits forever); a receive
     * started meanwhile waits for the outcome too.
     */
    @Test
    void receiversParkedAtTheCloseFailOnceTheValueInFlightIsTaken() {
        AsyncChannel<Integer> ch = new AsyncChannel<>(1);
        AtomicInteger wakes = new AtomicInteger();
        Context counting = new Context() {
            @Override
            public Waker waker() {
                return wakes::incrementAndGet;
            }

            @Override
            public boolean consumeBudget() {
                return true;
            }
        };
        AsyncTask<Integer> a = ch.receive();
        AsyncTask<Integer> b = ch.receive();
        assertThat(a.poll(SYNC).isPending()).isTrue();
        assertThat(b.poll(counting).isPending()).isTrue();
        assertThat(ch.send(7).poll(SYNC).isReady()).isTrue();
        ch.close();
        AsyncTask<Integer> c = ch.receive();
        Poll<Integer> early = null;
        try {
            early = c.poll(counting);
        } catch (ChannelClosedException notYet) {
            // the code before the fix: closed while a value was in flight
        }
        Poll<Integer> first = a.poll(SYNC);
        assertThat(first.value()).isEqualTo(7);
        assertThatThrownBy(() -> b.poll(SYNC)).isInstanceOf(ChannelClosedException.class);
        if (early != null) {
            assertThat(early.isPending()).isTrue();
            assertThat(wakes.get()).as("parked receivers woken once the value was taken").isEqualTo(2);
            assertThatThrownBy(() -> c.poll(SYNC)).isInstanceOf(ChannelClosedException.class);
        }
    }
}
