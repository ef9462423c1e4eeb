/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.AbstractCollection;
import java.util.Collections;
import java.util.Iterator;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code invokeAny} called on a worker of a sharing, priority or pinned pool (or of a
 * work-stealing pool without spares) with a collection
 * that was not empty when checked but iterated no task (another thread emptied it meanwhile)
 * ended with {@code throw null}: a {@link NullPointerException} without a message. It says what
 * is wrong, as an empty collection does.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InvokeAnyOfACollectionThatIteratesNothingTest {

    /** Says it holds one task; its iterator, as after a concurrent clear, yields none. */
    static final class EmptiedWhileRead extends AbstractCollection<Callable<String>> {
        @Override
        public Iterator<Callable<String>> iterator() {
            return Collections.emptyIterator();
        }

        @Override
        public int size() {
            return 1;
        }
    }

    @ParameterizedTest
    @EnumSource(value = PoolKind.class, names = {"SHARING", "PRIORITY", "PINNED"})
    void invokeAnyOnAWorkerSaysTheCollectionIteratedNoTask(PoolKind kind) throws Exception {
        try (AbstractPool pool = (AbstractPool) kind.build(kind.builder().workers(1))) {
            CompletableFuture<Throwable> thrown = new CompletableFuture<>();
            pool.execute(() -> {
                try {
                    pool.invokeAny(new EmptiedWhileRead());
                    thrown.complete(null);
                } catch (Throwable t) {
                    thrown.complete(t);
                }
            });
            Throwable t = thrown.get(20, TimeUnit.SECONDS);
            assertThat(t).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("invokeAny");
        }
    }

    /**
     * A work-stealing pool without spares runs invokeAny's tasks on the calling worker too
     * ({@code invokeAnyHere}), and threw the same bare {@link NullPointerException} ("Cannot throw
     * exception because failure is null"), timed or not.
     */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
    void invokeAnyOnAWorkerOfAWorkStealingPoolWithoutSparesSaysTheCollectionIteratedNoTask(boolean timed)
            throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(0).build()) {
            CompletableFuture<Throwable> thrown = new CompletableFuture<>();
            pool.execute(() -> {
                try {
                    if (timed) {
                        pool.invokeAny(new EmptiedWhileRead(), 10, TimeUnit.SECONDS);
                    } else {
                        pool.invokeAny(new EmptiedWhileRead());
                    }
                    thrown.complete(null);
                } catch (Throwable t) {
                    thrown.complete(t);
                }
            });
            Throwable t = thrown.get(20, TimeUnit.SECONDS);
            assertThat(t).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("invokeAny");
        }
    }
}
