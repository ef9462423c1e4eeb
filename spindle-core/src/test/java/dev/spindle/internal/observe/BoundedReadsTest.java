/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.internal.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.testkit.Await;
import dev.spindle.testkit.Unprintable;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The bounded, single-flight read the console and the Micrometer binders share: a stuck read is
 * waited for once, then answered "stuck" at once while it runs, never read beside; the read after
 * it returns is fresh; what a read throws is its outcome. The waits asserted are lower bounds
 * only (a timed wait never ends early); "at once" is shown by a call that an interrupt would
 * have ended had it blocked.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BoundedReadsTest {

    /** The wait of the tests that let a read get stuck past it: long enough for a fresh read. */
    private static final long WAIT = TimeUnit.SECONDS.toNanos(1);
    /** The wait of the tests that release a read before its deadline: only a hang would reach it. */
    private static final long LONG_WAIT = TimeUnit.SECONDS.toNanos(50);

    /** A read that counts its calls and, while {@code blocking}, waits for {@link #release}, whatever interrupts. */
    private static final class Gate implements Callable<String> {
        final AtomicInteger calls = new AtomicInteger();
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicReference<Thread> thread = new AtomicReference<>();
        volatile boolean blocking = true;

        @Override
        public String call() {
            int n = calls.incrementAndGet();
            thread.set(Thread.currentThread());
            entered.countDown();
            if (blocking) {
                Await.ignoringInterrupts(release);   // as a cluster's wait for its scheduler does
            }
            return "read " + n;
        }
    }

    private BoundedReads reads;
    private Gate gate;

    @AfterEach
    void releaseAndShutDown() {
        if (gate != null) {
            gate.release.countDown();
        }
        if (reads != null) {
            reads.shutdownNow();
        }
    }

    @Test
    void aStuckReadIsWaitedForOnceThenAnsweredAtOnceAndNeverReadBesideUntilItReturns() throws Exception {
        reads = new BoundedReads("test-reader", WAIT);
        gate = new Gate();
        BoundedReads.Slot<String> slot = new BoundedReads.Slot<>();

        long before = System.nanoTime();
        BoundedReads.Outcome<String> first = reads.read(slot, gate);
        long waited = System.nanoTime() - before;
        assertThat(first.stuck()).as("a read that has not returned by its deadline").isTrue();
        assertThat(first.newlyStuck()).isTrue();
        assertThat(first.answersAgain()).isFalse();
        assertThat(first.value()).isNull();
        assertThat(first.thrown()).isNull();
        assertThat(waited).as("the first call waits until the read's deadline").isGreaterThanOrEqualTo(WAIT);
        assertThat(first.stuckNanos()).isGreaterThanOrEqualTo(WAIT);

        // a call that blocked would throw InterruptedException at once: this one must not block
        Thread.currentThread().interrupt();
        BoundedReads.Outcome<String> second;
        try {
            second = reads.read(slot, gate);
        } finally {
            assertThat(Thread.interrupted()).as("the interrupt, untouched by a call that did not wait").isTrue();
        }
        assertThat(second.stuck()).as("a call past the deadline, the read still running").isTrue();
        assertThat(second.newlyStuck()).as("told once per episode").isFalse();
        assertThat(second.answersAgain()).isFalse();
        assertThat(reads.read(slot, gate).stuck()).isTrue();
        assertThat(gate.calls).as("reads started while one is stuck").hasValue(1);
        assertThat(reads.threads()).as("reader threads while one read is stuck").containsExactly(gate.thread.get());
        Thread reader = gate.thread.get();
        assertThat(reader.getName()).startsWith("test-reader-");
        assertThat(reader.isDaemon()).isTrue();

        gate.blocking = false;
        gate.release.countDown();
        BoundedReads.Outcome<String> after = reads.read(slot, gate);
        while (after.stuck()) {              // until the stuck read has returned: bounded by the class timeout
            Thread.sleep(5);
            after = reads.read(slot, gate);
        }
        assertThat(after.value()).as("a fresh read, the stuck one's late result dropped").isEqualTo("read 2");
        assertThat(after.answersAgain()).isTrue();
        assertThat(after.newlyStuck()).isFalse();
        BoundedReads.Outcome<String> next = reads.read(slot, gate);
        assertThat(next.value()).as("each call reads afresh").isEqualTo("read 3");
        assertThat(next.answersAgain()).isFalse();
        assertThat(gate.calls).hasValue(3);
    }

    @Test
    void aCallThatFindsTheReadRunningWaitsForThatOneAndSharesItsOutcome() throws Exception {
        reads = new BoundedReads("test-reader", LONG_WAIT);
        gate = new Gate();
        BoundedReads.Slot<String> slot = new BoundedReads.Slot<>();
        AtomicReference<BoundedReads.Outcome<String>> a = new AtomicReference<>();
        AtomicReference<BoundedReads.Outcome<String>> b = new AtomicReference<>();
        Thread callerA = new Thread(() -> a.set(readOrNull(slot)));
        callerA.start();
        assertThat(gate.entered.await(30, TimeUnit.SECONDS)).as("the read started").isTrue();
        Thread callerB = new Thread(() -> b.set(readOrNull(slot)));
        callerB.start();
        Await.until("the second caller waits", () -> callerB.getState() == Thread.State.TIMED_WAITING);
        gate.release.countDown();
        callerA.join();
        callerB.join();
        assertThat(gate.calls).as("reads started for two callers of one slot").hasValue(1);
        assertThat(a.get().value()).isEqualTo("read 1");
        assertThat(b.get().value()).as("the second caller's outcome").isEqualTo("read 1");
        assertThat(b.get().stuck()).isFalse();
    }

    @Test
    void anInterruptedCallLeavesItsReadInFlight() throws Exception {
        reads = new BoundedReads("test-reader", LONG_WAIT);
        gate = new Gate();
        BoundedReads.Slot<String> slot = new BoundedReads.Slot<>();
        AtomicReference<Throwable> interrupted = new AtomicReference<>();
        Thread caller = new Thread(() -> {
            try {
                reads.read(slot, gate);
            } catch (Throwable e) {
                interrupted.set(e);
            }
        });
        caller.start();
        assertThat(gate.entered.await(30, TimeUnit.SECONDS)).isTrue();
        Await.until("the caller waits", () -> caller.getState() == Thread.State.TIMED_WAITING);
        caller.interrupt();
        caller.join();
        assertThat(interrupted.get()).isInstanceOf(InterruptedException.class);

        AtomicReference<BoundedReads.Outcome<String>> later = new AtomicReference<>();
        Thread next = new Thread(() -> later.set(readOrNull(slot)));
        next.start();
        Await.until("the next caller waits", () -> next.getState() == Thread.State.TIMED_WAITING);
        gate.release.countDown();
        next.join();
        assertThat(gate.calls).as("reads started: the interrupted one was still in flight").hasValue(1);
        assertThat(later.get().value()).isEqualTo("read 1");
    }

    @Test
    void whatAReadThrowsIsItsOutcomeWhateverItIs() throws Exception {
        reads = new BoundedReads("test-reader", LONG_WAIT);
        BoundedReads.Slot<String> slot = new BoundedReads.Slot<>();
        for (Throwable thrown : List.of(new IllegalStateException("closed"), new AssertionError("an Error"),
                new IOException("checked, declared by no signature"), new Unprintable())) {
            BoundedReads.Outcome<String> outcome = reads.read(slot, () -> {
                if (thrown instanceof Exception e) {
                    throw e;
                }
                throw (Error) thrown;
            });
            assertThat(outcome.thrown()).as("the outcome of a read that threw " + thrown.getClass().getName())
                    .isSameAs(thrown);
            assertThat(outcome.stuck()).isFalse();
            assertThat(outcome.value()).isNull();
        }
        assertThat(reads.read(slot, () -> "fine").value()).as("a read after those").isEqualTo("fine");
    }

    @Test
    void shutdownNowRefusesNewReadsAndNamesTheThreadsStillReading() throws Exception {
        reads = new BoundedReads("test-reader", TimeUnit.MILLISECONDS.toNanos(100));
        gate = new Gate();
        assertThat(reads.read(new BoundedReads.Slot<>(), gate).stuck()).isTrue();
        reads.shutdownNow();
        assertThatThrownBy(() -> reads.read(new BoundedReads.Slot<>(), () -> "late"))
                .isInstanceOf(RejectedExecutionException.class);
        assertThat(reads.threads()).as("a read that ignores the interrupt keeps its thread")
                .containsExactly(gate.thread.get());
        gate.release.countDown();
        Await.until("the reader thread ends once its read returns", () -> reads.threads().isEmpty());
    }

    @Test
    void badArguments() {
        assertThatThrownBy(() -> new BoundedReads(null, 1)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("threadPrefix");
        assertThatThrownBy(() -> new BoundedReads("x", 0)).isInstanceOf(IllegalArgumentException.class);
        reads = new BoundedReads("test-reader", 1);
        assertThatThrownBy(() -> reads.read(new BoundedReads.Slot<>(), null)).isInstanceOf(NullPointerException.class);
    }

    private BoundedReads.Outcome<String> readOrNull(BoundedReads.Slot<String> slot) {
        try {
            return reads.read(slot, gate);
        } catch (InterruptedException e) {
            return null;
        }
    }
}
