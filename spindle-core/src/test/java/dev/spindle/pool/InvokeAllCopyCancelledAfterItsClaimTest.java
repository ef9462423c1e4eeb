/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code stats().completed()} counts the tasks whose bodies ran to their end. {@code invokeAll}
 * called on a worker of a work-sharing, priority or pinned pool queues a copy of each task
 * ({@link AbstractPool.Invoked}) that a peer may claim and run; the peer checked that the task's
 * future was not done, then ran it, and counted it. {@code invokeAll} cancels the futures not
 * done when its timeout passes or it is interrupted: a cancel landing between the check and the
 * run left the run doing nothing, and the peer counted a task that never ran.
 *
 * <p>The cancel is made to land there through the copy's seam ({@link AbstractPool.Invoked#claimed}),
 * on a copy the pool's worker takes from its queue; a second copy, not cancelled, runs and counts
 * once, so that the count is seen to work.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InvokeAllCopyCancelledAfterItsClaimTest {

    @ParameterizedTest
    @EnumSource(value = PoolKind.class, names = {"SHARING", "PRIORITY", "PINNED"})
    void aCopyWhoseFutureIsCancelledAfterItsClaimIsNotCounted(PoolKind kind) throws Exception {
        PoolCore pool = kind.create(1);
        AtomicInteger ran = new AtomicInteger();
        CompensatingExecutorService.CompensatingFuture<Integer> cancelled =
                new CompensatingExecutorService.CompensatingFuture<>(() -> ran.incrementAndGet());
        CompensatingExecutorService.CompensatingFuture<Integer> kept =
                new CompensatingExecutorService.CompensatingFuture<>(() -> ran.incrementAndGet());
        pool.execute(new AbstractPool.Invoked(cancelled) {
            @Override
            void claimed() {
                cancelled.cancel(true);        // invokeAll's cancel, after the check, before the run
            }
        });
        pool.execute(new AbstractPool.Invoked(kept));
        pool.shutdown();
        assertThat(pool.awaitTermination(20, TimeUnit.SECONDS)).isTrue();

        assertThat(cancelled.isCancelled()).isTrue();
        assertThat(kept.get()).isEqualTo(1);
        assertThat(ran.get()).as("only the copy not cancelled ran its task").isEqualTo(1);
        assertThat(pool.stats().completed())
                .as("%s: completed counts the task that ran, not the one cancelled before it could", kind)
                .isEqualTo(ran.get());
    }
}
