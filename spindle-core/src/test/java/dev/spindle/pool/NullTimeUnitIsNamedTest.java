/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every timed method of the pools refuses a {@code null} unit with a
 * {@link NullPointerException} whose message is the parameter's name, called from outside the
 * pool and from one of its workers. Before, most said so only through the JDK's helpful
 * NullPointerException message ("Cannot invoke ... because "unit" is null", absent with
 * {@code -XX:-ShowCodeDetailsInExceptionMessages} or from code compiled without local names), and
 * some, handed to {@code AbstractExecutorService}, said nothing at all.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NullTimeUnitIsNamedTest {

    static Stream<Named<Supplier<ExecutorService>>> pools() {
        return Stream.of(
                Named.of("work-stealing", () -> WorkStealingPool.builder().workers(2).build()),
                Named.of("work-sharing", () -> WorkSharingPool.builder().workers(2).build()),
                Named.of("priority", () -> PriorityPool.builder().workers(2).build()),
                Named.of("pinned", () -> PinnedPool.builder().workers(2).build()),
                Named.of("union", () -> SchedulerUnion.owning(WorkStealingPool.builder().workers(2).build(),
                        WorkSharingPool.builder().workers(1).build())));
    }

    /** The timed calls, each with a null unit. */
    private static List<Named<ThrowingCallable>> calls(ExecutorService pool) {
        List<Callable<String>> tasks = List.of(() -> "a", () -> "b");
        List<Named<ThrowingCallable>> calls = new ArrayList<>();
        calls.add(Named.of("invokeAll", () -> pool.invokeAll(tasks, 1, null)));
        calls.add(Named.of("invokeAny", () -> pool.invokeAny(tasks, 1, null)));
        calls.add(Named.of("awaitTermination", () -> pool.awaitTermination(1, null)));
        calls.add(Named.of("a submitted task's get", () -> pool.submit(() -> "c").get(1, null)));
        return calls;
    }

    private static void assertEachNamesTheUnit(ExecutorService pool, String from) {
        for (Named<ThrowingCallable> call : calls(pool)) {
            assertThatThrownBy(call.getPayload()).as(call.getName() + " from " + from)
                    .isInstanceOf(NullPointerException.class).hasMessage("unit");
        }
    }

    @ParameterizedTest
    @MethodSource("pools")
    void fromOutsideThePool(Supplier<ExecutorService> kind) {
        ExecutorService pool = kind.get();
        try {
            assertEachNamesTheUnit(pool, "outside");
        } finally {
            pool.shutdownNow();
        }
    }

    @ParameterizedTest
    @MethodSource("pools")
    void fromOneOfItsWorkers(Supplier<ExecutorService> kind) throws Exception {
        ExecutorService pool = kind.get();
        try {
            pool.submit(() -> {
                assertEachNamesTheUnit(pool, "a worker");
                return null;
            }).get(30, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
    }

    @org.junit.jupiter.api.Test
    void aComputeTasksTimedGet() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).build()) {
            ComputeTask<Integer> task = new ComputeTask<>() {
                @Override
                protected Integer compute() {
                    return 1;
                }
            };
            pool.spawn(task);
            assertThat(task.join()).isEqualTo(1);
            assertThatThrownBy(() -> task.get(1, null)).isInstanceOf(NullPointerException.class).hasMessage("unit");
        }
    }
}
