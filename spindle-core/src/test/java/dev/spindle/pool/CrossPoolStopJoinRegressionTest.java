/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Task;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker of a pool that {@code shutdownNow} stopped, joining a task of another pool that goes
 * on running: the stop concerns the joiner's pool only, and must not reach the other pool's task.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CrossPoolStopJoinRegressionTest {

    /** Awaits {@code latch} ignoring interrupts (shutdownNow's among them), then restores them. */
    private static void awaitIgnoringInterrupts(CountDownLatch latch) {
        boolean interrupted = false;
        for (;;) {
            try {
                if (latch.await(30, TimeUnit.SECONDS)) {
                    break;
                }
                throw new IllegalStateException("never released");
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * After shutdownNow of pool P, a worker of P joining a task of pool Q that had not started
     * (queued in Q behind Q's busy worker) ran it inline, on P's thread with P's shutdownNow
     * interrupt pending: the task of Q, which nobody stopped or cancelled, was interrupted by
     * the stop of P and failed with InterruptedException for every observer. Q runs its own
     * task; P's join waits for it (or, holding unstarted tasks, gives up), but leaves it to Q.
     */
    @Test
    void aStoppedPoolsJoinDoesNotRunAnotherPoolsTaskWithItsInterrupt() throws Exception {
        WorkStealingPool p = WorkStealingPool.builder().workers(1).name("stopped-joiner").build();
        WorkStealingPool q = WorkStealingPool.builder().workers(1).maxSpareWorkers(0).name("running-other").build();
        try {
            CountDownLatch qBusy = new CountDownLatch(1);
            CountDownLatch releaseQ = new CountDownLatch(1);
            q.execute(() -> {
                qBusy.countDown();
                awaitIgnoringInterrupts(releaseQ);   // timed: no spare, nothing else runs in q
            });
            assertThat(qBusy.await(30, TimeUnit.SECONDS)).isTrue();
            AtomicReference<String> ranOn = new AtomicReference<>();
            AtomicReference<Boolean> sawInterrupt = new AtomicReference<>();
            Task<Integer> other = q.spawn(() -> {
                ranOn.set(Thread.currentThread().getName());
                try {
                    Thread.sleep(200);         // shutdownNow's interrupt, if run on p's worker
                } catch (InterruptedException e) {
                    sawInterrupt.set(true);
                    throw e;
                }
                sawInterrupt.set(false);
                return 42;
            });
            AtomicReference<Worker> joiner = new AtomicReference<>();
            CompletableFuture<Object> joined = new CompletableFuture<>();
            p.execute(() -> {
                joiner.set(p.currentWorker());
                try {
                    joined.complete(other.join());
                } catch (Throwable e) {
                    joined.complete(e);
                }
            });
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (joiner.get() == null || joiner.get().joiningHint() != other) {
                assertThat(System.nanoTime() - end).as("the join began waiting").isNegative();
                Thread.sleep(1);
            }
            Thread.sleep(20);                  // well into its wait
            p.shutdownNow();
            releaseQ.countDown();
            Object result = joined.get(30, TimeUnit.SECONDS);
            assertThat(other.toCompletableFuture().handle((v, e) -> v != null ? v : e).get(30, TimeUnit.SECONDS))
                    .as("the other pool's task, run on %s (the join got %s; interrupted: %s)",
                            ranOn.get(), result, sawInterrupt.get())
                    .isEqualTo(42);
            assertThat(ranOn.get()).as("the thread that ran the other pool's task").startsWith("running-other");
            assertThat(p.awaitTermination(30, TimeUnit.SECONDS)).as("the stopped pool terminated").isTrue();
        } finally {
            p.shutdownNow();
            q.shutdownNow();
        }
        assertThat(q.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    }
}
