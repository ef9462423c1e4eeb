/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.nio.channels.spi.AbstractInterruptibleChannel;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code shutdownNow} interrupts the running tasks after it has drained the queues. Interrupting
 * a thread blocked in an interruptible channel closes the channel on the interrupting thread,
 * and a channel whose close throws makes {@code Thread.interrupt()} throw: that escaped
 * {@code shutdownNow}, so the drained tasks were neither returned nor run (a future of
 * {@code submit} among them never completed) and the workers after it were not interrupted.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ShutdownNowOfAWorkerWhoseInterruptThrowsTest {

    /** A channel whose close fails; {@link #block} waits inside it as an I/O operation would. */
    private static final class FailingChannel extends AbstractInterruptibleChannel {
        void block(CountDownLatch entered, CountDownLatch release, CountDownLatch interrupted) {
            begin();
            try {
                entered.countDown();
                // Waits out the interrupt until the test releases it, so that it is still blocked in
                // the channel when shutdownNow's interrupt looks for the blocker: from JDK 21 on,
                // Thread.interrupt wakes the thread before it looks, and a task that left the
                // channel at once was sometimes gone by then (nothing closed, nothing to report).
                boolean wasInterrupted = false;
                for (boolean waiting = true; waiting; ) {
                    try {
                        release.await(60, TimeUnit.SECONDS);   // timed: the pool starts no spare
                        waiting = false;
                    } catch (InterruptedException e) {
                        wasInterrupted = true;
                    }
                }
                if (wasInterrupted || Thread.interrupted()) {
                    interrupted.countDown();
                }
            } finally {
                try {
                    end(false);
                } catch (IOException ignored) {
                    // closed by the interrupt: expected
                }
            }
        }

        @Override
        protected void implCloseChannel() {
            throw new IllegalStateException("close failed");
        }
    }

    /** Before: shutdownNow threw the channel's IllegalStateException, and the submitted task was lost. */
    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void theDrainedTasksAreReturnedAndTheFailureReported(PoolKind kind) throws Exception {
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        PoolCore pool = kind.build(kind.builder().workers(1).uncaughtExceptionHandler((t, e) -> reported.add(e)));
        try {
            FailingChannel channel = new FailingChannel();
            CountDownLatch entered = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch interrupted = new CountDownLatch(1);
            pool.execute(() -> channel.block(entered, release, interrupted));
            assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
            Future<?> queued = pool.submit(() -> { });   // behind the blocked task, on the only worker

            AtomicReference<List<Runnable>> notStarted = new AtomicReference<>();
            Throwable thrown = catchThrowable(() -> notStarted.set(pool.shutdownNow()));
            assertThat(thrown).as("what shutdownNow threw").isNull();
            assertThat(notStarted.get()).as("the tasks shutdownNow returned").containsExactly((Runnable) queued);
            release.countDown();
            assertThat(interrupted.await(30, TimeUnit.SECONDS)).as("the blocked task was interrupted").isTrue();
            assertThat(reported).as("the failed close, told to the handler")
                    .anySatisfy(e -> assertThat(e).hasMessage("close failed"));
            assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            pool.shutdownNow();
        }
    }
}
