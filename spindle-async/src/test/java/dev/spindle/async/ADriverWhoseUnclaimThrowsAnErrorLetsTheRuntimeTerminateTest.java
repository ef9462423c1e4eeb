/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A runtime gives its drivers back once its workers have exited, as the last step of its
 * termination. A driver whose {@code unclaim()} threw an {@link Error} (a driver's defect, or a
 * reactor's release of its closed sockets that found no memory for its ready keys) went out of
 * that step, which went on past a {@link RuntimeException} only: the drivers after it were
 * never given back (no runtime could drive them again), the runtime never read as terminated,
 * and a {@code close()} waited for good for a termination that had stopped half-way (when the
 * last worker to exit ran the step, and died of the error) or threw the error (when the closing
 * thread ran it, after which a {@code shutdown()} from any other thread waited for good).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ADriverWhoseUnclaimThrowsAnErrorLetsTheRuntimeTerminateTest {

    /** A driver with no events: its select waits for a wake-up (sticky) or its timeout. */
    static final class Driver implements IoDriver {
        final AtomicBoolean claimed = new AtomicBoolean();
        private final Error unclaimError;
        private final Semaphore woken = new Semaphore(0);

        Driver(Error unclaimError) {
            this.unclaimError = unclaimError;
        }

        @Override
        public void claim() {
            claimed.set(true);
        }

        @Override
        public void unclaim() {
            if (unclaimError != null) {
                throw unclaimError;
            }
            claimed.set(false);
        }

        @Override
        public int select(long timeoutNanos) {
            try {
                if (timeoutNanos < 0) {
                    woken.acquire();
                } else if (timeoutNanos > 0) {
                    woken.tryAcquire(timeoutNanos, TimeUnit.NANOSECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            woken.drainPermits();
            return 0;
        }

        @Override
        public void dispatch() {
        }

        @Override
        public void wakeup() {
            woken.release();
        }
    }

    @Test
    void theOtherDriversAreGivenBackTheRuntimeTerminatesAndTheErrorIsReported() throws Exception {
        AssertionError injected = new AssertionError("unclaim failed (injected)");
        Driver failing = new Driver(injected);
        Driver other = new Driver(null);
        AsyncRuntime rt = AsyncRuntime.builder().workers(2).driveIo(List.of(failing, other)).build();
        assertThat(rt.spawn(cx -> Poll.ready(7)).get(30, TimeUnit.SECONDS)).isEqualTo(7);

        // the termination's last step runs on the closing thread or on the last worker to
        // exit, whichever completes the handles: both report to the default handler here
        Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
        ConcurrentLinkedQueue<Throwable> reported = new ConcurrentLinkedQueue<>();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> reported.add(e));
        try {
            // on a thread of its own: a close that waits for good must not hold up the test JVM
            Thread closer = new Thread(() -> {
                try {
                    rt.close();
                } catch (Throwable e) {
                    thrown.set(e);
                }
            }, "closer");
            closer.setDaemon(true);
            closer.start();
            closer.join(TimeUnit.SECONDS.toMillis(10));   // a hang guard only: it returns at once
            assertThat(closer.isAlive()).as("close() still waiting for the termination").isFalse();
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(before);
        }

        assertThat(thrown.get()).as("what close() threw").isNull();
        assertThat(reported).as("reported to the uncaught-exception handler").containsExactly(injected);
        assertThat(rt.isTerminated()).isTrue();
        assertThat(other.claimed).as("the driver after the failing one was given back").isFalse();
    }
}
