/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Second review of the flattening of long map / then / recover chains into a loop
 * ({@code Async.Pipeline}) and of {@code ThenTask.tail()}: a flattened chain must behave as the
 * nested chain it replaces (values, which recover catches what, the exception that reaches the
 * caller, wake-ups and re-polls, cancellation of what it awaits).
 */
@Timeout(60)
class PipelineSecondReviewRegressionTest {

    /**
     * A task pending until {@link #fire}, then ready with its value or failing with its error;
     * records polls after it completed and cancels.
     */
    private static final class Gate implements AsyncTask<Integer>, Cancellable {
        final Integer value;
        final RuntimeException error;
        boolean fired;
        boolean done;
        int polls;
        int pollsAfterDone;
        int cancels;
        Waker waker;

        Gate(Integer value, RuntimeException error) {
            this.value = value;
            this.error = error;
        }

        @Override
        public Poll<Integer> poll(Context cx) {
            polls++;
            if (done) {
                pollsAfterDone++;
            }
            if (!fired) {
                waker = cx.waker();
                return Poll.pending();
            }
            done = true;
            if (error != null) {
                throw error;
            }
            return Poll.ready(value);
        }

        void fire() {
            fired = true;
            waker.wake();
        }

        @Override
        public void cancel() {
            cancels++;
        }
    }

    // ------------------------------------------------------------------ random chains

    private static final int MOD = 1000;

    /** One stage of a random chain, innermost first. */
    private record Op(char type, int i, int kind) {}

    /** An outcome: a value, or "!Class:message" for a failure. */
    private static Object describe(Throwable e) {
        return "!" + e.getClass().getSimpleName() + ":" + e.getMessage();
    }

    private static int mapped(int v, int i) {
        return Math.floorMod(v * 7 + i, MOD);
    }

    /** What the chain computes, stage after stage, without any task. */
    private static Object interpret(int srcKind, int src, List<Op> ops) {
        Integer val = srcKind == 2 || srcKind == 3 ? null : src;
        String cls = srcKind == 2 ? "IllegalStateException" : srcKind == 3 ? "UnsupportedOperationException" : null;
        String msg = srcKind >= 2 ? "src" : null;
        for (Op op : ops) {
            switch (op.type) {
                case 'm' -> {
                    if (cls == null) {
                        if (op.kind == 1 && val % 3 == 0) {
                            cls = "IllegalArgumentException";
                            msg = "map" + op.i;
                        } else if (op.kind == 2 && val % 5 == 0) {
                            cls = "AssertionError";
                            msg = "map" + op.i;
                        } else {
                            val = mapped(val, op.i);
                        }
                    }
                }
                case 't' -> {
                    if (cls == null) {
                        switch (op.kind) {
                            case 0, 1 -> val = mapped(val, op.i + 1);
                            case 2 -> {
                                cls = "IllegalStateException";
                                msg = "then" + op.i;
                            }
                            case 3 -> {
                                cls = "IllegalArgumentException";
                                msg = "thenfn" + op.i;
                            }
                            case 4 -> {
                                cls = "NullPointerException";
                                msg = "then: fn returned null";
                            }
                            default -> {
                                cls = "UnsupportedOperationException";
                                msg = "failed" + op.i;
                            }
                        }
                        if (cls != null) {
                            val = null;
                        }
                    }
                }
                default -> {
                    if (cls != null) {
                        switch (op.kind) {
                            case 0 -> {
                                val = Math.floorMod(msg.hashCode() + op.i, MOD);
                                cls = null;
                                msg = null;
                            }
                            case 1 -> {
                                cls = "IllegalStateException";
                                msg = "rec" + op.i + "<" + msg + ">";
                            }
                            default -> { } // rethrows what it caught
                        }
                    }
                }
            }
        }
        return cls == null ? val : "!" + cls + ":" + msg;
    }

    private static RuntimeException sneaky(Throwable t) {
        return Async.unchecked(t);
    }

    /** The chain built with Async's combinators; gates and fn calls recorded. */
    private static AsyncTask<Integer> build(int srcKind, int src, List<Op> ops, List<Gate> gates, int[] calls,
            int prePollAt, AsyncCombinatorTest.HandContext cx) {
        AsyncTask<Integer> t = switch (srcKind) {
            case 0 -> Async.ready(src);
            case 1 -> gate(gates, src, null);
            case 2 -> gate(gates, null, new IllegalStateException("src"));
            default -> Async.failed(new UnsupportedOperationException("src"));
        };
        for (int n = 0; n < ops.size(); n++) {
            Op op = ops.get(n);
            int i = op.i;
            switch (op.type) {
                case 'm' -> t = Async.map(t, v -> {
                    calls[i]++;
                    if (op.kind == 1 && v % 3 == 0) {
                        throw new IllegalArgumentException("map" + i);
                    }
                    if (op.kind == 2 && v % 5 == 0) {
                        throw new AssertionError("map" + i);
                    }
                    return mapped(v, i);
                });
                case 't' -> t = Async.then(t, v -> {
                    calls[i]++;
                    return switch (op.kind) {
                        case 0 -> Async.ready(mapped(v, i + 1));
                        case 1 -> gate(gates, mapped(v, i + 1), null);
                        case 2 -> gate(gates, null, new IllegalStateException("then" + i));
                        case 3 -> throw new IllegalArgumentException("thenfn" + i);
                        case 4 -> null;
                        default -> Async.failed(new UnsupportedOperationException("failed" + i));
                    };
                });
                default -> t = Async.recover(t, e -> {
                    calls[i]++;
                    return switch (op.kind) {
                        case 0 -> Math.floorMod(e.getMessage().hashCode() + i, MOD);
                        case 1 -> throw new IllegalStateException("rec" + i + "<" + e.getMessage() + ">");
                        default -> throw sneaky(e);
                    };
                });
            }
            if (n == prePollAt) {
                // polled before being wrapped; a prefix that completed cannot be polled again
                try {
                    if (!t.poll(cx).isPending()) {
                        return null;
                    }
                } catch (Throwable e) {
                    return null;
                }
            }
        }
        return t;
    }

    private static Gate gate(List<Gate> gates, Integer value, RuntimeException error) {
        Gate g = new Gate(value, error);
        gates.add(g);
        return g;
    }

    /**
     * Random chains of maps, thens and recovers, short (polled nested) and long (flattened), whose
     * functions sometimes throw (exceptions and errors), whose thens make tasks that are ready,
     * pending for a while or failing, give what a stage-by-stage interpreter gives; no function
     * runs twice, no task is polled after it completed, and a cancel while pending reaches the
     * awaited task once and nothing else.
     */
    @Test
    void randomChainsComputeWhatTheStagesSayFlattenedOrNot() {
        Random rnd = new Random(34);
        int flattenedCases = 0;
        int prePolled = 0;
        for (int c = 0; c < 6000; c++) {
            int len = rnd.nextInt(4) == 0 ? 1 + rnd.nextInt(64) : 65 + rnd.nextInt(200);
            if (len > 64) {
                flattenedCases++;
            }
            List<Op> ops = new ArrayList<>();
            for (int i = 0; i < len; i++) {
                int r = rnd.nextInt(10);
                char type = r < 5 ? 'm' : r < 8 ? 't' : 'r';
                int kind = switch (type) {
                    case 'm' -> rnd.nextInt(6) < 4 ? 0 : 1 + rnd.nextInt(2);
                    case 't' -> rnd.nextInt(10) < 6 ? rnd.nextInt(2) : 2 + rnd.nextInt(4);
                    default -> rnd.nextInt(3);
                };
                ops.add(new Op(type, i, kind));
            }
            int srcKind = rnd.nextInt(4);
            int src = rnd.nextInt(MOD);
            int prePollAt = rnd.nextInt(2) == 0 ? rnd.nextInt(len + 10) : -1;
            String cancelMode = rnd.nextInt(5) == 0 ? (rnd.nextBoolean() ? "cancel" : "cancelUnlessDone") : null;
            int cancelAt = rnd.nextInt(4);

            List<Gate> gates = new ArrayList<>();
            int[] calls = new int[len];
            AsyncCombinatorTest.HandContext cx = new AsyncCombinatorTest.HandContext();
            AsyncTask<Integer> chain = build(srcKind, src, ops, gates, calls, prePollAt, cx);
            if (chain == null) {
                continue;                      // the prefix polled early completed
            }
            prePolled += prePollAt >= 0 && prePollAt < len ? 1 : 0;
            String where = "case " + c + " len " + len + " prePoll " + prePollAt + " src " + srcKind + ":" + src + " ops " + ops;
            Object expected = interpret(srcKind, src, ops);
            Object actual = null;
            boolean cancelled = false;
            for (int polls = 0; ; polls++) {
                assertThat(polls).as(where).isLessThan(10_000);
                Poll<Integer> p;
                try {
                    p = chain.poll(cx);
                } catch (Throwable e) {
                    actual = describe(e);
                    break;
                }
                if (!p.isPending()) {
                    actual = p.value();
                    break;
                }
                List<Gate> waiting = gates.stream().filter(g -> !g.fired && g.polls > 0).toList();
                assertThat(waiting).as(where + ": pending on one gate").hasSize(1);
                Gate g = waiting.get(0);
                if (cancelMode != null && polls == cancelAt) {
                    if (cancelMode.equals("cancel")) {
                        Async.cancel(chain);
                    } else {
                        assertThat(((Cancellable) chain).cancelUnlessDone()).as(where).isTrue();
                    }
                    for (Gate o : gates) {
                        assertThat(o.cancels).as(where + ": cancels of gate " + gates.indexOf(o))
                                .isEqualTo(o == g ? 1 : 0);
                    }
                    cancelled = true;
                    break;
                }
                int wakes = cx.wakes.get();
                g.fire();
                assertThat(cx.wakes.get()).as(where + ": the gate woke the chain's waker").isEqualTo(wakes + 1);
            }
            for (int i = 0; i < len; i++) {
                assertThat(calls[i]).as(where + ": calls of stage " + i).isLessThanOrEqualTo(1);
            }
            for (Gate g : gates) {
                assertThat(g.pollsAfterDone).as(where + ": polls after completion").isZero();
            }
            if (!cancelled) {
                assertThat(actual).as(where).isEqualTo(expected);
            }
        }
        assertThat(flattenedCases).isGreaterThan(1000);
        assertThat(prePolled).isGreaterThan(500);
    }

    // ------------------------------------------------------------------ cancellation

    private static AsyncTask<Integer> maps(AsyncTask<Integer> t, int n) {
        for (int i = 0; i < n; i++) {
            t = Async.map(t, x -> x + 1);
        }
        return t;
    }

    /** Nested (10) and flattened (200) chains over an acquire give the permit back when cancelled. */
    @Test
    void cancellingAChainAwaitingAnAcquireGivesThePermitBackNestedOrFlattened() {
        for (int depth : new int[] {10, 200}) {
            for (boolean unlessDone : new boolean[] {false, true}) {
                AsyncSemaphore sem = new AsyncSemaphore(0);
                AsyncTask<Integer> chain = maps(Async.map(sem.acquire(), x -> 0), depth);
                AsyncCombinatorTest.HandContext cx = new AsyncCombinatorTest.HandContext();
                assertThat(chain.poll(cx).isPending()).isTrue();
                sem.release();                                 // granted to the waiting acquire
                if (unlessDone) {
                    ((Cancellable) chain).cancelUnlessDone();
                } else {
                    Async.cancel(chain);
                }
                assertThat(sem.availablePermits()).as("depth %d unlessDone %s", depth, unlessDone).isEqualTo(1);
            }
        }
    }

    /** A chain cancelled while it awaits a receive that a then made mid-chain leaves the value in the channel. */
    @Test
    void cancellingWhileAwaitingAThensSecondTaskUndoesTheReceive() {
        for (int depth : new int[] {5, 100}) {
            AsyncChannel<Integer> ch = new AsyncChannel<>(4);
            AsyncTask<Integer> mid = Async.then(maps(Async.ready(0), depth), x -> ch.receive());
            AsyncTask<Integer> chain = maps(mid, depth);
            AsyncCombinatorTest.HandContext cx = new AsyncCombinatorTest.HandContext();
            assertThat(chain.poll(cx).isPending()).isTrue();
            Async.cancel(chain);
            AsyncCombinatorTest.HandContext other = new AsyncCombinatorTest.HandContext();
            AsyncTask<Void> send = ch.send(7);
            assertThat(send.poll(other).isReady()).isTrue();
            AsyncTask<Integer> r = ch.receive();
            assertThat(r.poll(other).value()).as("depth %d", depth).isEqualTo(7);
        }
    }

    /**
     * timeout's give-up reaches through a flattened chain to the awaited gate as through a nested
     * one (timeout cancels twice, withdraw then cancel: a cancel is idempotent).
     */
    @Test
    void aTimeoutGivesUpOnAFlattenedChainAsOnANestedOne() {
        int[] cancels = new int[2];
        int[] depths = {10, 300};
        for (int k = 0; k < 2; k++) {
            int depth = depths[k];
            Gate g = new Gate(1, null);
            AsyncTask<Integer> chain = maps(Async.then(maps(Async.ready(0), depth), x -> g), depth);
            AsyncTask<Integer> bounded = Async.timeout(chain, Duration.ZERO);
            assertThatThrownBy(() -> bounded.poll(new AsyncCombinatorTest.HandContext()))
                    .isInstanceOf(CompletionException.class)
                    .hasCauseInstanceOf(TimeoutException.class);
            assertThat(g.cancels).as("depth %d", depth).isPositive();
            cancels[k] = g.cancels;
        }
        assertThat(cancels[1]).isEqualTo(cancels[0]);
    }

    // ------------------------------------------------------------------ polled before wrapped

    /** A map polled (pending), then wrapped in 100 more, completes once with every stage applied once. */
    @Test
    void aStagePolledBeforeBeingWrappedStillCompletesOnce() {
        Gate g = new Gate(1, null);
        int[] calls = new int[1];
        AsyncTask<Integer> inner = Async.map(g, x -> {
            calls[0]++;
            return x * 10;
        });
        AsyncCombinatorTest.HandContext cx = new AsyncCombinatorTest.HandContext();
        assertThat(inner.poll(cx).isPending()).isTrue();
        AsyncTask<Integer> outer = maps(inner, 100);
        assertThat(outer.poll(cx).isPending()).isTrue();
        g.fire();
        assertThat(outer.poll(cx).value()).isEqualTo(110);
        assertThat(calls[0]).isEqualTo(1);
        assertThat(g.pollsAfterDone).isZero();
    }

    // ------------------------------------------------------------------ then's tail

    /**
     * A then whose function returns a then (async recursion) hands back the innermost task's own
     * Poll, cancels it once and reports cancelUnlessDone as it does.
     */
    @Test
    void aThenOfThensPassesTheInnermostPollAndCancelThrough() {
        Gate[] last = new Gate[1];
        List<Function<Integer, AsyncTask<Integer>>> turn = new ArrayList<>();
        turn.add(i -> i == 50
                ? (last[0] = new Gate(i, null))
                : Async.then(Async.ready(i + 1), turn.get(0)));
        AsyncTask<Integer> t = turn.get(0).apply(0);
        AsyncCombinatorTest.HandContext cx = new AsyncCombinatorTest.HandContext();
        assertThat(t.poll(cx).isPending()).isTrue();
        assertThat(t.poll(cx).isPending()).isTrue();
        assertThat(((Cancellable) t).cancelUnlessDone()).isTrue();
        assertThat(last[0].cancels).isEqualTo(1);
    }

    // ------------------------------------------------------------------ what a recover catches

    /**
     * A recover over a hand-written task whose poll returns null (instead of a Poll): a flattened
     * chain's recover catches the NullPointerException of that poll, so a nested one must too;
     * before, the nested recover passed the null on and the stage above it failed, past the
     * recover (and with recover directly above recover, the null went on out of the chain).
     */
    @Test
    void aRecoverCatchesANullPollOfItsTaskNestedAsFlattened() {
        AsyncTask<Integer> nullPoller = cx -> null;
        List<String> outcomes = new ArrayList<>();
        for (int depth : new int[] {100, 0, 3}) {
            AsyncTask<Integer> chain = maps(Async.recover(nullPoller, e -> -1), depth);
            outcomes.add("maps " + depth + ": " + outcome(chain));
        }
        for (int depth : new int[] {100, 1, 3}) {
            AsyncTask<Integer> chain = Async.recover(nullPoller, e -> -1);
            for (int i = 0; i < depth; i++) {
                chain = Async.recover(chain, e -> -2);
            }
            outcomes.add("recovers " + depth + ": " + outcome(chain));
        }
        assertThat(outcomes).containsExactly(
                "maps 100: 99", "maps 0: -1", "maps 3: 2",
                "recovers 100: -1", "recovers 1: -1", "recovers 3: -1");
    }

    private static String outcome(AsyncTask<Integer> t) {
        try {
            Poll<Integer> p = t.poll(new AsyncCombinatorTest.HandContext());
            return p == null ? "null Poll" : String.valueOf(p.value());
        } catch (Throwable e) {
            return e.getClass().getSimpleName();
        }
    }

    /**
     * A then whose function returns that same then (a naive retry: "on failure, run me again")
     * recursed until StackOverflowError failed it; tail() followed then.second = then round and
     * round and hung the polling thread, the task never completing.
     */
    @Test
    void aThenThatReturnsItselfFailsInsteadOfHangingItsWorker() throws Exception {
        List<AsyncTask<Integer>> self = new ArrayList<>();
        self.add(Async.then(Async.ready(1), x -> self.get(0)));
        assertThat(pollOnItsOwnThread(self.get(0))).isInstanceOf(StackOverflowError.class);
    }

    /**
     * Two thens whose functions return each other: the second one polled to its end fails with
     * StackOverflowError (it awaits itself), and its second is left pointing at itself; a later
     * poll of the first then followed that link in tail() round and round, for good, where it
     * must fail the same way and free the polling thread.
     */
    @Test
    void aRingOfThensFailsEveryPollerInsteadOfHangingOne() throws Exception {
        AsyncPromise<Integer> p1 = new AsyncPromise<>();
        AsyncPromise<Integer> p2 = new AsyncPromise<>();
        List<AsyncTask<Integer>> ring = new ArrayList<>();
        ring.add(Async.then(p1, x -> ring.get(1)));
        ring.add(Async.then(p2, x -> ring.get(0)));
        AsyncCombinatorTest.HandContext cx = new AsyncCombinatorTest.HandContext();
        assertThat(ring.get(0).poll(cx).isPending()).isTrue();
        p1.complete(1);
        assertThat(ring.get(0).poll(cx).isPending()).as("now awaiting the second then's promise").isTrue();
        p2.complete(2);
        assertThat(pollOnItsOwnThread(ring.get(1))).as("the second then awaits itself")
                .isInstanceOf(StackOverflowError.class);
        assertThat(pollOnItsOwnThread(ring.get(0))).as("the first then, through the second")
                .isInstanceOf(StackOverflowError.class);
    }

    /** What a poll of {@code t} on a thread of its own threw; fails if it neither returns nor throws. */
    private static Throwable pollOnItsOwnThread(AsyncTask<Integer> t) throws InterruptedException {
        Throwable[] failure = new Throwable[1];
        Thread poller = new Thread(() -> {
            try {
                t.poll(new AsyncCombinatorTest.HandContext());
            } catch (Throwable e) {
                failure[0] = e;
            }
        }, "ring-poller");
        poller.setDaemon(true);                // if it spins, it must not keep the test JVM alive
        poller.start();
        poller.join(10_000);
        assertThat(poller.isAlive()).as("the poll returned or threw").isFalse();
        return failure[0];
    }

    /**
     * On the runtime: a 300-stage chain whose every tenth stage is a then awaiting a receive,
     * woken by sends from a thread outside, takes each value once and in order; a second one,
     * cancelled through its handle while it awaits a receive made mid-chain, leaves the value
     * sent afterwards in the channel.
     */
    @Test
    void aFlattenedChainOnTheRuntimeIsWokenByEachReceiveAndCancelledThroughItsHandle() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
            AsyncChannel<Integer> ch = new AsyncChannel<>(1);
            AsyncTask<Integer> chain = Async.ready(0);
            for (int i = 1; i <= 300; i++) {
                chain = i % 10 == 0
                        ? Async.then(chain, acc -> Async.map(ch.receive(), v -> acc * 31 + v))
                        : Async.map(chain, acc -> acc + 1);
            }
            JoinHandle<Integer> h = rt.spawn(chain);
            int expected = 0;
            for (int i = 1; i <= 300; i++) {
                expected = i % 10 == 0 ? expected * 31 + i : expected + 1;
            }
            for (int i = 10; i <= 300; i += 10) {
                rt.spawn(ch.send(i)).get(10, SECONDS);
            }
            assertThat(h.get(10, SECONDS)).isEqualTo(expected);

            AsyncChannel<Integer> ch2 = new AsyncChannel<>(1);
            CountDownLatch awaiting = new CountDownLatch(1);
            JoinHandle<Integer> cancelled = rt.spawn(maps(Async.then(maps(Async.ready(0), 100), x -> {
                awaiting.countDown();
                return ch2.receive();
            }), 100));
            assertThat(awaiting.await(10, SECONDS)).isTrue();
            cancelled.cancel(false);
            rt.spawn(ch2.send(5)).get(10, SECONDS);
            assertThat(rt.spawn(ch2.receive()).get(10, SECONDS)).isEqualTo(5);
        }
    }
}
