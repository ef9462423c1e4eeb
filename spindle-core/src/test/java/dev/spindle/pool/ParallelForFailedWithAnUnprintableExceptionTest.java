/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.testkit.UnprintableChecked;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A {@code parallelFor} whose body throws a checked exception (sneakily: an {@code IntConsumer}
 * declares none, but code compiled elsewhere may throw one) whose {@code toString()} throws must
 * still throw the {@link CompletionException} that carries it: the wrapper's cause constructor
 * printed the exception, and its {@code toString()} failure was thrown instead, so the caller
 * never learned how the loop failed.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ParallelForFailedWithAnUnprintableExceptionTest {

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> void sneakyThrow(Throwable t) throws E {
        throw (E) t;
    }

    @Test
    void aLoopWhoseBodyFailedUnprintablyThrowsTheCompletionExceptionCarryingIt() {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).build()) {
            assertThatThrownBy(() -> pool.parallelFor(0, 8, i -> {
                if (i == 3) {
                    sneakyThrow(new UnprintableChecked());
                }
            })).isInstanceOf(CompletionException.class).hasCauseInstanceOf(UnprintableChecked.class);
        }
    }
}
