/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Before: the timed {@code get} of a future that {@code submit} returned on a work-sharing,
 * priority or pinned pool (or a union whose member 0 is one) threw a
 * {@link NullPointerException} without a message for a {@code null} unit ({@link
 * java.util.concurrent.FutureTask}'s), where a work-stealing pool's future, and every method of
 * the pools, names what is null ("expected a message containing "unit", but it was null").
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TimedGetWithANullUnitTest {

    static Stream<Named<Supplier<ExecutorService>>> pools() {
        return Stream.of(
                Named.of("work-stealing", () -> WorkStealingPool.builder().workers(1).build()),
                Named.of("work-sharing", () -> WorkSharingPool.builder().workers(1).build()),
                Named.of("priority", () -> PriorityPool.builder().workers(1).build()),
                Named.of("pinned", () -> PinnedPool.builder().workers(1).build()),
                Named.of("union", () -> SchedulerUnion.owning(WorkSharingPool.builder().workers(1).build())));
    }

    @ParameterizedTest
    @MethodSource("pools")
    void aTimedGetWithANullUnitNamesIt(Supplier<ExecutorService> kind) throws Exception {
        ExecutorService pool = kind.get();
        CountDownLatch release = new CountDownLatch(1);
        try {
            Future<String> done = pool.submit(() -> "done");
            done.get();
            Future<String> waiting = pool.submit(() -> {
                release.await(20, TimeUnit.SECONDS);
                return "waited";
            });
            assertThatThrownBy(() -> done.get(1, null)).as("a completed future's")
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("unit");
            assertThatThrownBy(() -> waiting.get(1, null)).as("a running future's")
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("unit");
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
    }
}
