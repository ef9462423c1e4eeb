/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Third review of the synchronisation and composition primitives (channel, semaphore, promise,
 * {@code all}, {@code select}, {@code timeout}). The review found no defect in them; these pin
 * contracts that no earlier test checked in this exact form, where a value, a permit or a wake
 * would be lost silently if the mechanism regressed: a duplicated handle in {@code all} (the
 * handle fast path counts each child's one wake), a losing receive of a {@code select} that had
 * been handed a value, a give-up of {@code timeout} over a queued acquire, an acquire granted
 * but not yet polled when its {@code all} fails, and a value given back after the close.
 *
 * <p>One defect, in the blocking gets: a worker blocked in a promise's {@code get()} was not
 * counted as blocked, so a peer blocked in a {@code get} of the task that completes the promise
 * never started helping, and both waited for good
 * ({@link #aWorkerBlockedInAPromiseGetLetsAPeersBlockedGetRunTheTaskThatCompletesIt}); so with
 * a worker blocked in the get of another runtime's task
 * ({@link #aWorkerBlockedInAnotherRuntimesGetCountsAsBlocked}).
 */
class AsyncThirdReviewRegressionTest {

    /** A context whose waker counts its wakes; unlimited budget (the combinator tests'). */
    private static final class Hand extends AsyncCombinatorTest.HandContext {
    }

    /**
     * {@code all} counts each handle child by the one wake its handle gives it; a promise listed
     * twice is two children, each registered and woken once, so both slots get the value and the
     * parent is woken once, by the last of the two.
     */
    @Test
    void allOverTheSamePromiseTwiceGetsItsValueInBothSlots() {
        AsyncPromise<String> p = new AsyncPromise<>();
        Hand cx = new Hand();
        AsyncTask<List<String>> all = Async.all(List.of(p, p));
        assertThat(all.poll(cx).isPending()).isTrue();
        assertThat(p.complete("v")).isTrue();
        assertThat(cx.wakes.get()).as("one wake, by the last handle child counted").isEqualTo(1);
        Poll<List<String>> done = all.poll(cx);
        assertThat(done.isReady()).isTrue();
        assertThat(done.value()).containsExactly("v", "v");
    }

    /**
     * Both receives of a {@code select} were handed a value before its next poll: the lower index
     * wins, and the loser, cancelled, gives its value back to the channel rather than dropping it.
     */
    @Test
    void aSelectWhoseLosingReceiveWasHandedAValueGivesItBack() {
        AsyncChannel<Integer> ch = new AsyncChannel<>(1);
        Hand cx = new Hand();
        AsyncTask<Async.Selected<Integer>> select = Async.select(List.of(ch.receive(), ch.receive()));
        assertThat(select.poll(cx).isPending()).isTrue();
        assertThat(ch.send(1).poll(cx).isReady()).isTrue();   // handed to the first receive
        assertThat(ch.send(2).poll(cx).isReady()).isTrue();   // handed to the second
        Poll<Async.Selected<Integer>> won = select.poll(cx);
        assertThat(won.isReady()).isTrue();
        assertThat(won.value().index()).isZero();
        assertThat(won.value().value()).isEqualTo(1);
        assertThat(ch.size()).as("the loser's value is back in the channel").isEqualTo(1);
        assertThat(ch.receive().poll(cx).value()).isEqualTo(2);
    }

    /**
     * A {@code timeout} that gives up on a queued acquire withdraws it: the next release frees
     * its permit instead of granting it to an acquire nobody will poll again.
     */
    @Test
    void aTimeoutThatGivesUpOnAQueuedAcquireLeavesNoWaiterBehind() {
        AsyncSemaphore sem = new AsyncSemaphore(0);
        Hand cx = new Hand();
        AsyncTask<Void> timed = Async.timeout(sem.acquire(), Duration.ZERO);
        assertThatThrownBy(() -> timed.poll(cx))
                .isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(TimeoutException.class);
        sem.release();
        assertThat(sem.availablePermits()).isEqualTo(1);
        assertThat(sem.tryAcquire()).as("no acquire left queued ahead of a newcomer").isTrue();
    }

    /**
     * An acquire granted a permit but not yet polled when a sibling of its {@code all} fails is
     * cancelled with the rest, and gives the permit back: it is not held by a task that will
     * never release it.
     */
    @Test
    void anAllThatFailsGivesBackAPermitGrantedToAnUnpolledAcquire() {
        AsyncSemaphore sem = new AsyncSemaphore(0);
        AsyncPromise<Void> sibling = new AsyncPromise<>();
        Hand cx = new Hand();
        AsyncTask<List<Void>> all = Async.all(List.of(sem.acquire(), sibling));
        assertThat(all.poll(cx).isPending()).isTrue();
        sem.release();                                          // granted to the queued acquire
        assertThat(sem.availablePermits()).isZero();
        sibling.completeExceptionally(new IllegalStateException("sibling failed"));
        assertThatThrownBy(() -> all.poll(cx))
                .isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(IllegalStateException.class);
        assertThat(sem.availablePermits()).as("the granted permit is free again").isEqualTo(1);
    }

    /**
     * A value handed to a receive that is cancelled after the close, with nobody else waiting,
     * stays receivable: the next receive gets it, and only the one after that is told the
     * channel is closed and empty.
     */
    @Test
    void aValueGivenBackAfterTheCloseIsReceivedBeforeTheChannelReportsClosed() {
        AsyncChannel<Integer> ch = new AsyncChannel<>(1);
        Hand cx = new Hand();
        AsyncTask<Integer> r = ch.receive();
        assertThat(r.poll(cx).isPending()).isTrue();
        assertThat(ch.send(7).poll(cx).isReady()).isTrue();   // handed to r, not yet returned
        ch.close();
        Async.cancel(r);
        assertThat(ch.size()).isEqualTo(1);
        assertThat(ch.receive().poll(cx).value()).isEqualTo(7);
        assertThatThrownBy(() -> ch.receive().poll(cx)).isInstanceOf(ChannelClosedException.class);
    }

    /** Where the task that completes the promise is spawned from. */
    enum Spawner {
        /** The task blocked in the promise's get, just before it blocks: its LIFO slot or deque. */
        PROMISE_WAITER,
        /** The task blocked in the get of that task's handle: its own LIFO slot or deque. */
        HANDLE_WAITER,
        /** A thread outside the runtime, once both workers hold a task: the injector. */
        OUTSIDE
    }

    static Stream<Arguments> policiesAndSpawners() {
        return Arrays.stream(AsyncPolicy.values())
                .flatMap(p -> Arrays.stream(Spawner.values()).map(s -> Arguments.of(p, s)));
    }

    /**
     * Two workers: task A blocks in {@code p.get()} of a promise, task B in {@code c.get()} of a
     * task c whose body completes {@code p}; both untimed, as code ported from
     * {@code CompletableFuture.get} on a {@code ForkJoinPool} does (there the pool compensates
     * for the blocked workers, and such a program ends). Nothing but this runtime can run c, and
     * both its workers wait. Before the fix A's worker was not counted as blocked (a promise get
     * did not count), so B's worker never helped and both waited for good, wherever c sat (A's
     * LIFO slot or deque, B's, or the injector): the gets below timed out. The test then
     * completes {@code p} itself, which frees A's worker and, through it, B.
     */
    @ParameterizedTest
    @MethodSource("policiesAndSpawners")
    void aWorkerBlockedInAPromiseGetLetsAPeersBlockedGetRunTheTaskThatCompletesIt(
            AsyncPolicy policy, Spawner spawner) throws Exception {
        AsyncRuntime rt = AsyncRuntime.builder().workers(2).policy(policy).build();
        AsyncPromise<String> p = new AsyncPromise<>();
        CompletableFuture<JoinHandle<String>> cHandle = new CompletableFuture<>();
        CyclicBarrier together = new CyclicBarrier(2);      // one task per worker
        CountDownLatch bothHeld = new CountDownLatch(2);
        Runnable spawnC = () -> cHandle.complete(rt.spawn(cx -> {
            p.complete("from c");
            return Poll.ready("c done");
        }));
        JoinHandle<String> a = rt.spawn(cx -> {
            try {
                together.await(10, TimeUnit.SECONDS);
                bothHeld.countDown();
                if (spawner == Spawner.PROMISE_WAITER) {
                    spawnC.run();
                }
                return Poll.ready(p.get());
            } catch (Exception e) {
                throw Async.unchecked(e);
            }
        });
        JoinHandle<String> b = rt.spawn(cx -> {
            try {
                together.await(10, TimeUnit.SECONDS);
                bothHeld.countDown();
                if (spawner == Spawner.HANDLE_WAITER) {
                    spawnC.run();
                }
                return Poll.ready(cHandle.get(10, TimeUnit.SECONDS).get());
            } catch (Exception e) {
                throw Async.unchecked(e);
            }
        });
        try {
            if (spawner == Spawner.OUTSIDE) {
                assertThat(bothHeld.await(10, TimeUnit.SECONDS)).isTrue();
                spawnC.run();
            }
            assertThat(a.get(10, TimeUnit.SECONDS)).as("A, blocked in the promise's get").isEqualTo("from c");
            assertThat(b.get(10, TimeUnit.SECONDS)).as("B, blocked in c's get").isEqualTo("c done");
        } finally {
            p.complete("released by the test");             // frees A's worker, then B, if they hang
            Thread closer = new Thread(rt::shutdown, "release-" + rt);
            closer.setDaemon(true);
            closer.start();
            closer.join(TimeUnit.SECONDS.toMillis(10));
        }
        assertThat(rt.isTerminated()).isTrue();
        assertThat(rt.blockedInGet.get()).isZero();
    }

    /**
     * The same with A blocked in the get of another runtime's task (which awaits the promise):
     * that get does not help either (the other runtime's workers run that task), but its worker
     * runs nothing meanwhile, so it counts as blocked and B's worker helps run c.
     */
    @Test
    void aWorkerBlockedInAnotherRuntimesGetCountsAsBlocked() throws Exception {
        AsyncRuntime rt = AsyncRuntime.builder().workers(2).build();
        AsyncRuntime other = AsyncRuntime.builder().workers(1).build();
        AsyncPromise<String> p = new AsyncPromise<>();
        JoinHandle<String> elsewhere = other.spawn(Async.map(p, v -> "elsewhere " + v));
        CyclicBarrier together = new CyclicBarrier(2);
        JoinHandle<String> a = rt.spawn(cx -> {
            try {
                together.await(10, TimeUnit.SECONDS);
                return Poll.ready(elsewhere.get());
            } catch (Exception e) {
                throw Async.unchecked(e);
            }
        });
        JoinHandle<String> b = rt.spawn(cx -> {
            try {
                together.await(10, TimeUnit.SECONDS);
                JoinHandle<String> c = rt.spawn(c2 -> {
                    p.complete("from c");
                    return Poll.ready("c done");
                });
                return Poll.ready(c.get());
            } catch (Exception e) {
                throw Async.unchecked(e);
            }
        });
        try {
            assertThat(a.get(10, TimeUnit.SECONDS)).isEqualTo("elsewhere from c");
            assertThat(b.get(10, TimeUnit.SECONDS)).isEqualTo("c done");
        } finally {
            p.complete("released by the test");
            Thread closer = new Thread(() -> {
                rt.shutdown();
                other.shutdown();
            }, "release-" + rt);
            closer.setDaemon(true);
            closer.start();
            closer.join(TimeUnit.SECONDS.toMillis(10));
        }
        assertThat(rt.isTerminated()).isTrue();
        assertThat(other.isTerminated()).isTrue();
    }
}
