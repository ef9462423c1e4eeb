/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Removing a timer entry (a cancel, or a firing) halves the heap's array once it is
 * three-quarters empty, a copy that needs memory. An {@link OutOfMemoryError} from that copy
 * went out of {@code Entry.cancel()}, which a cancel must not throw: a timeout whose task had
 * just completed threw it instead of returning the outcome, so an acquire under it had taken its
 * permit for a task that failed, a permit nobody would ever release (a send under it was
 * delivered and reported failed); and a timeout that was cancelled threw before withdrawing its
 * task, whose receive went on waiting in its channel for a value nobody would get. Giving the
 * array back can wait: the removal must not fail for it.
 *
 * <p>The copy fails through the seam {@code Timers.beforeShrink}, which throws what a full heap
 * throws there, and counts that it did: the test's precondition, checked, so that it cannot pass
 * with a copy that never failed (a child JVM whose full heap still had room for the smaller
 * array passed so). The timer is a runtime's own ({@link AsyncRuntime.Builder#driveIo} with no
 * driver), its entries the test's alone, which the whole scenario schedules from one poll on
 * that runtime's only worker.
 */
@Timeout(120)
class TimerCancelOutOfMemoryKeepsTheOutcomeTest {

    /** Sleeps whose entries make the timer's heap grow to 256 slots. */
    private static final int SLEEPS = 200;

    @Test
    void aTimeoutWhoseTimerRemovalRunsOutOfMemoryStillReturnsTheAcquiredPermit() throws Exception {
        try (AsyncRuntime runtime = AsyncRuntime.builder().workers(1).driveIo(List.of()).build()) {
            Timers timers = runtime.timers;
            assertThat(timers).as("the runtime's own timer").isNotNull().isNotSameAs(Timers.SHARED);
            AtomicInteger failedCopies = new AtomicInteger();
            String outcome = runtime.spawn(cx -> Poll.ready(scenario(timers, failedCopies)))
                    .get(60, TimeUnit.SECONDS);
            assertThat(failedCopies).as("copies of the timer's array that failed for want of memory").hasValue(1);
            // "lost: ... OutOfMemoryError ..." before: the acquire's permit with it
            assertThat(outcome).isEqualTo("ok: free permits 1");
        }
    }

    /**
     * A timeout over an acquire, granted, polled with the timer heap about to shrink and the
     * shrink's copy failing. Runs on the runtime's worker, so its timers are the runtime's.
     */
    private static String scenario(Timers timers, AtomicInteger failedCopies) {
        FullHeapChild.HandContext cx = new FullHeapChild.HandContext();
        AsyncSemaphore sem = new AsyncSemaphore(0);
        List<AsyncTask<Void>> sleeps = new ArrayList<>();
        try {
            for (int i = 0; i < SLEEPS; i++) {
                AsyncTask<Void> s = Async.sleep(Duration.ofHours(1));
                s.poll(cx);
                sleeps.add(s);
            }
            AsyncTask<Void> bounded = Async.timeout(sem.acquire(), Duration.ofHours(1));
            if (!bounded.poll(cx).isPending()) {
                return "setup: the acquire did not wait";
            }
            if (timers.capacity() != 256 || timers.size() != SLEEPS + 1) {
                return "setup: " + timers.size() + " entries in " + timers.capacity() + " slots";
            }
            // down to a quarter of the 256 slots: the next removal halves the array
            while (timers.size() > 64) {
                Async.cancel(sleeps.remove(sleeps.size() - 1));
            }
            sem.release();                     // granted: the timeout's next poll takes it
            Poll<Void> p;
            Timers.beforeShrink = t -> {
                if (t == timers) {
                    failedCopies.incrementAndGet();
                    throw new OutOfMemoryError("Java heap space (test: no room for the timer's smaller array)");
                }
            };
            try {
                p = bounded.poll(cx);
            } catch (OutOfMemoryError e) {
                return "lost: the timeout's poll threw " + e + " after its acquire took the permit; free permits "
                        + sem.availablePermits();
            } finally {
                Timers.beforeShrink = null;
            }
            if (!p.isReady()) {
                return "setup: the timeout is still pending";
            }
            sem.release();                     // the permit the timeout returned, given back
            return "ok: free permits " + sem.availablePermits();
        } finally {
            for (AsyncTask<Void> s : sleeps) {
                Async.cancel(s);
            }
        }
    }
}
