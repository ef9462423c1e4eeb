/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regression tests from the review (session 27) of the semantics of {@link PriorityPool},
 * {@link PinnedPool}, {@link SchedulerUnion} and {@link WorkStealingPool#parallelFor}: only
 * {@code parallelFor} had a defect a test proves (how it reports failures). Each test's Javadoc
 * says what it saw before the fix.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PoolSemanticsRegressionTest {

    /** {@code t} and every throwable suppressed in it, however deep. */
    private static List<Throwable> withSuppressed(Throwable t) {
        List<Throwable> out = new ArrayList<>();
        out.add(t);
        for (Throwable s : t.getSuppressed()) {
            out.addAll(withSuppressed(s));
        }
        return out;
    }

    /**
     * A body that fails with a {@link CompletionException} of its own (a {@code join()} of a
     * failed step inside the body, say) is a failure like any other: {@code parallelFor} from
     * outside the pool must rethrow it as it is. Before, it took the body's exception for the
     * wrapper of its own join and threw the cause instead ({@code IllegalStateException: a
     * failed step}), while the same loop called from a worker threw the body's exception.
     */
    @Test
    void parallelForFromOutsideRethrowsABodysOwnCompletionException() {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).build()) {
            CompletionException thrown = new CompletionException(new IllegalStateException("a failed step"));
            Throwable caught = catchThrowable(() -> pool.parallelFor(0, 1, i -> {
                throw thrown;
            }));
            assertThat(caught).as("what parallelFor threw").isSameAs(thrown);
        }
    }

    /** A body that fails with a new {@link CompletionException} at every 50th index, recording each. */
    private static IntConsumer failingEvery50th(Set<Throwable> thrown) {
        return i -> {
            if (i % 50 == 0) {
                CompletionException e = new CompletionException(new IllegalStateException("index " + i));
                thrown.add(e);
                throw e;
            }
        };
    }

    /**
     * {@code parallelFor} promises the first failure with the others suppressed. With bodies
     * failing with {@link CompletionException}s, called from outside the pool, it threw the
     * cause of the first one and nothing else: before, one worker, 11 failures thrown, none of
     * them reported (only {@code IllegalStateException: index 0}, with nothing suppressed).
     */
    @Test
    void parallelForFromOutsideReportsEveryFailureWhenBodiesThrowCompletionExceptions() {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).build()) {
            Set<Throwable> thrown = ConcurrentHashMap.newKeySet();
            Throwable caught = catchThrowable(() -> pool.parallelFor(0, 10_000, failingEvery50th(thrown)));
            assertThat(thrown).as("failures thrown (the loop ran as several ranges)").hasSizeGreaterThan(1);
            assertThat(withSuppressed(caught)).as("what parallelFor threw, with what is suppressed in it")
                    .containsExactlyInAnyOrderElementsOf(thrown);
        }
    }

    /**
     * As above, called from a worker: a range unwrapped each failed fork's
     * {@link CompletionException} to its cause, dropping it and the failures of that fork's own
     * forks suppressed in it. Before: one worker, 11 failures thrown, 3 reported.
     */
    @Test
    void parallelForFromAWorkerReportsEveryFailureWhenBodiesThrowCompletionExceptions() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).build()) {
            Set<Throwable> thrown = ConcurrentHashMap.newKeySet();
            Throwable caught = pool.submit(() -> catchThrowable(() -> pool.parallelFor(0, 10_000,
                    failingEvery50th(thrown)))).get(30, TimeUnit.SECONDS);
            assertThat(thrown).as("failures thrown (the loop ran as several ranges)").hasSizeGreaterThan(1);
            assertThat(withSuppressed(caught)).as("what parallelFor threw, with what is suppressed in it")
                    .containsExactlyInAnyOrderElementsOf(thrown);
        }
    }
}
