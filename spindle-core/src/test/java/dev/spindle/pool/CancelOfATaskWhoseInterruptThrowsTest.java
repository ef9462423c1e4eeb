/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.spindle.Task;
import java.io.IOException;
import java.nio.channels.spi.AbstractInterruptibleChannel;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code cancel(true)} of a running task interrupts its runner; interrupting a thread blocked in
 * an interruptible channel closes the channel on the cancelling thread, and a channel whose
 * close throws makes {@code Thread.interrupt()} throw. The cancel then skipped releasing the
 * task's waiters: the task read as cancelled, yet a {@code get} that waited before the cancel
 * waited for good, and a {@code toCompletableFuture()} view taken before it never completed.
 * ({@link java.util.concurrent.FutureTask} releases its waiters whatever the interrupt throws.)
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CancelOfATaskWhoseInterruptThrowsTest {

    /** A channel whose close fails; {@link #block} waits inside it as an I/O operation would. */
    private static final class FailingChannel extends AbstractInterruptibleChannel {
        void block(CountDownLatch entered, CountDownLatch release) {
            begin();
            try {
                entered.countDown();
                // Waits out the interrupt until the test releases it, so that it is still blocked in
                // the channel when the cancel's interrupt looks for the blocker: from JDK 21 on,
                // Thread.interrupt wakes the thread before it looks, and a task that left the
                // channel at once was sometimes gone by then (nothing closed, nothing thrown).
                for (boolean waiting = true; waiting; ) {
                    try {
                        release.await(60, TimeUnit.SECONDS);   // timed: the pool starts no spare
                        waiting = false;
                    } catch (InterruptedException e) {
                        // the cancel's interrupt: wait for the release all the same
                    }
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

    /** Before: the view and the waiting get never completed (the view's wait timed out). */
    @Test
    void theWaitersOfTheCancelledTaskAreReleased() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).build();
        try {
            FailingChannel channel = new FailingChannel();
            CountDownLatch entered = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            Task<Object> task = pool.spawn(() -> {
                channel.block(entered, release);
                return "ran";
            });
            assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<Object> view = task.toCompletableFuture();
            CompletableFuture<Throwable> getter = new CompletableFuture<>();
            Thread waiter = new Thread(() -> getter.complete(catchThrowable(task::get)), "waiting-get");
            waiter.setDaemon(true);
            waiter.start();
            ForkTask<?> fork = (ForkTask<?>) task;
            while (fork.waiterCount() < 2) {       // the view's node and the get's
                Thread.sleep(1);
            }

            Throwable thrown = catchThrowable(() -> task.cancel(true));
            release.countDown();
            assertThat(thrown).as("the interrupt's failure reaches the canceller, as FutureTask's does")
                    .hasMessage("close failed");
            assertThat(task.isCancelled()).isTrue();
            assertThat(view).as("the view taken before the cancel").failsWithin(Duration.ofSeconds(10))
                    .withThrowableOfType(CancellationException.class);
            assertThat(getter).as("the get that waited before the cancel").succeedsWithin(Duration.ofSeconds(10))
                    .isInstanceOf(CancellationException.class);
        } finally {
            pool.shutdownNow();
        }
    }
}
