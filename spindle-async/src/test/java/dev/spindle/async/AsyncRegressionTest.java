/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.async.AsyncCombinatorTest.HandContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Defects found by review (session 25), each test failing before its fix: a waker that throws
 * (breaking its contract) made a receive lose the value it took, a send that delivered report
 * failure, {@code close()} skip the other waiters and {@code release()} throw after granting; and
 * a timer entry almost 2^63 ns ahead sorted before an entry already due, hiding it.
 */
class AsyncRegressionTest {

    /** A context whose waker breaks its contract by throwing. */
    static final class ThrowingContext extends HandContext {
        @Override
        public void wake() {
            super.wake();
            throw new IllegalStateException("a waker that throws");
        }
    }

    /** Receives what the channel holds now, by hand. */
    private static List<Integer> drain(AsyncChannel<Integer> ch) {
        List<Integer> got = new ArrayList<>();
        HandContext cx = new HandContext();
        for (;;) {
            Poll<Integer> p = ch.receive().poll(cx);
            if (p.isPending()) {
                return got;
            }
            got.add(p.value());
        }
    }

    // ----------------------------------------------------------------- channel: foreign wakers

    /**
     * A receive that makes room for a waiting sender wakes that sender after the unlock; if the
     * sender's waker throws, the throw replaces the receive's return: the value taken from the
     * buffer is in nobody's hands (not returned, not in the channel). U1 broken by another
     * task's waker.
     */
    @Test
    void aReceiveKeepsItsValueWhenTheSenderItMadeRoomForHasAThrowingWaker() {
        AsyncChannel<Integer> ch = new AsyncChannel<>(1);
        HandContext cx = new HandContext();
        assertThat(ch.send(1).poll(cx).isReady()).isTrue();
        AsyncTask<Void> waitingSend = ch.send(2);
        assertThat(waitingSend.poll(new ThrowingContext()).isPending()).isTrue();

        List<Integer> received = new ArrayList<>();
        try {
            Poll<Integer> p = ch.receive().poll(cx);
            received.add(p.value());
        } catch (RuntimeException e) {
            // the receive failed: the value it took must then still be in the channel
        }
        received.addAll(drain(ch));
        assertThat(received).as("every accepted send received exactly once").containsExactly(1, 2);
    }

    /**
     * A send handed to a waiting receive wakes the receive after the unlock; a throwing waker
     * of the receive makes the send's poll throw though the value was delivered: a sender that
     * retries on failure sends it twice.
     */
    @Test
    void aSendThatHandedItsValueOverReportsSuccessEvenIfTheReceiversWakerThrows() {
        AsyncChannel<Integer> ch = new AsyncChannel<>(1);
        AsyncTask<Integer> waitingReceive = ch.receive();
        assertThat(waitingReceive.poll(new ThrowingContext()).isPending()).isTrue();
        Throwable thrown = null;
        boolean ready = false;
        try {
            ready = ch.send(7).poll(new HandContext()).isReady();
        } catch (RuntimeException e) {
            thrown = e;
        }
        assertThat(waitingReceive.poll(new HandContext()).value()).isEqualTo(7); // delivered
        assertThat(thrown).as("the send's poll after delivering its value").isNull();
        assertThat(ready).isTrue();
    }

    /** close() stops at the first throwing waker: the waiters after it are never woken. */
    @Test
    void closeWakesEveryWaiterEvenIfOneWakerThrows() {
        AsyncChannel<Integer> ch = new AsyncChannel<>(1);
        ThrowingContext bad = new ThrowingContext();
        HandContext good = new HandContext();
        assertThat(ch.receive().poll(bad).isPending()).isTrue();
        assertThat(ch.receive().poll(good).isPending()).isTrue();
        try {
            ch.close();
        } catch (RuntimeException e) {
            // reported or not, the other waiters must be woken
        }
        assertThat(good.wakes.get()).as("wakes of the second waiting receive").isEqualTo(1);
    }

    /** release() grants the permit, then the granted acquire's throwing waker fails the releaser. */
    @Test
    void releaseDoesNotThrowWhenTheGrantedAcquiresWakerThrows() {
        AsyncSemaphore sem = new AsyncSemaphore(0);
        AsyncTask<Void> acq = sem.acquire();
        assertThat(acq.poll(new ThrowingContext()).isPending()).isTrue();
        Throwable thrown = null;
        try {
            sem.release();
        } catch (RuntimeException e) {
            thrown = e;
        }
        assertThat(acq.poll(new HandContext()).isReady()).isTrue();
        assertThat(thrown).as("release() after granting the permit").isNull();
    }

    // ----------------------------------------------------------------- timers: huge durations

    /**
     * An entry whose deadline lies almost 2^63 ns ahead (what {@code sleep} or {@code timeout}
     * with {@code Duration.ofNanos(Long.MAX_VALUE)} computes: toNanos() does not overflow, so
     * Async's 73-year clamp does not apply) compares as earlier than an entry that
     * is already due, by the overflow of {@code deadline - o.deadline}; it sifts above it and the
     * due entry is never fired while the huge one stays in the heap.
     */
    @Test
    void aHugeDeadlineDoesNotHideAnEntryThatIsAlreadyDue() {
        Timers timers = new Timers(() -> { });          // a driven runtime's heap: no thread
        AtomicInteger dueFired = new AtomicInteger();
        long now = System.nanoTime();
        timers.add(now - 1_000_000, dueFired::incrementAndGet);   // due 1 ms ago, not fired yet
        AtomicInteger foreverFired = new AtomicInteger();
        long forever = System.nanoTime() + Duration.ofNanos(Long.MAX_VALUE).toNanos(); // as Async.sleep
        timers.add(forever, foreverFired::incrementAndGet);
        timers.fireDue();
        assertThat(dueFired.get()).as("the entry due 1 ms ago").isEqualTo(1);
        assertThat(foreverFired.get()).isZero();
    }

    /** End to end on a driven runtime: an overdue 1 ms sleep never ends once a "forever" sleep is scheduled. */
    @Test
    void anOverdueSleepEndsBesideAForeverSleep() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).driveIo(List.of()).build()) {
            JoinHandle<Void> task = rt.spawn(new AsyncTask<Void>() {
                AsyncTask<Void> shortSleep;
                AsyncTask<Void> longSleep;

                @Override
                public Poll<Void> poll(Context cx) {
                    if (shortSleep == null) {
                        shortSleep = Async.sleep(Duration.ofMillis(1));
                        assertThat(shortSleep.poll(cx).isPending()).isTrue();
                        long until = System.nanoTime() + 5_000_000;
                        while (System.nanoTime() - until < 0) {
                            Thread.onSpinWait();           // the 1 ms entry is overdue now
                        }
                        longSleep = Async.sleep(Duration.ofNanos(Long.MAX_VALUE));
                        assertThat(longSleep.poll(cx).isPending()).isTrue();
                        return Poll.pending();
                    }
                    return shortSleep.poll(cx);
                }
            });
            assertThat(task.toCompletableFuture().handle((v, e) -> "done")
                    .get(5, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo("done");
        }
    }
}
