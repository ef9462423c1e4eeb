/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.spindle.queue.ForkStack;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The public API's contract on bad arguments and after shutdown: a bad argument fails at the
 * call with an exception naming it, and a stopped pool refuses work on every path.
 */
class PublicApiContractRegressionTest {

    static Stream<Supplier<ExecutorService>> pools() {
        return Stream.of(
                () -> WorkStealingPool.builder().workers(2).build(),
                () -> WorkSharingPool.builder().workers(2).build(),
                () -> PriorityPool.builder().workers(2).build(),
                () -> PinnedPool.builder().workers(2).build(),
                () -> SchedulerUnion.owning(WorkSharingPool.builder().workers(2).build()));
    }

    private static List<Callable<Integer>> withNull() {
        List<Callable<Integer>> tasks = new ArrayList<>();
        tasks.add(() -> 1);
        tasks.add(null);
        return tasks;
    }

    /**
     * invokeAll and invokeAny called from outside a pool threw AbstractExecutorService's bare
     * exceptions (an NPE and an IAE with no message), and invokeAny of [task, null] on most pools
     * returned the first task's result instead of refusing the null.
     */
    @ParameterizedTest
    @MethodSource("pools")
    void invokeAllAndInvokeAnyNameTheBadArgument(Supplier<ExecutorService> kind) {
        ExecutorService pool = kind.get();
        try {
            assertThatThrownBy(() -> pool.invokeAll(withNull()))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("tasks");
            assertThatThrownBy(() -> pool.invokeAll(withNull(), 5, SECONDS))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("tasks");
            assertThatThrownBy(() -> pool.invokeAny(withNull()))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("tasks");
            assertThatThrownBy(() -> pool.invokeAny(withNull(), 5, SECONDS))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("tasks");
            assertThatThrownBy(() -> pool.invokeAny(null))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("tasks");
            assertThatThrownBy(() -> pool.invokeAny(List.<Callable<Integer>>of()))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tasks");
            assertThatThrownBy(() -> pool.invokeAny(List.<Callable<Integer>>of(), 5, SECONDS))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tasks");
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * A PinnedPool runs the tasks of an invokeAll or invokeAny called on one of its workers on
     * that worker itself. After shutdownNow it still ran them (when the caller's interrupt had
     * been consumed), where every other submission from a worker is rejected once the pool stops.
     */
    @Test
    void pinnedPoolInvokeFromWorkerAfterShutdownNowIsRejected() throws Exception {
        PinnedPool pool = PinnedPool.builder().workers(1).build();
        AtomicInteger ran = new AtomicInteger();
        Callable<Integer> task = () -> {
            ran.incrementAndGet();
            return 1;
        };
        CompletableFuture<List<Object>> outcome = new CompletableFuture<>();
        pool.execute(() -> {
            pool.shutdownNow();
            Thread.interrupted();              // the task handled the interrupt shutdownNow sent
            List<Object> seen = new ArrayList<>();
            try {
                seen.add(pool.invokeAll(List.of(task)));
            } catch (Throwable t) {
                seen.add(t);
            }
            try {
                seen.add(pool.invokeAny(List.of(task)));
            } catch (Throwable t) {
                seen.add(t);
            }
            outcome.complete(seen);
        });
        List<Object> seen = outcome.get(30, SECONDS);
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        assertThat(ran).as("tasks run by a stopped pool").hasValue(0);
        assertThat(seen).allSatisfy(o -> assertThat(o).isInstanceOf(RejectedExecutionException.class));
    }

    private static final class Seven extends ComputeTask<Integer> {
        @Override
        protected Integer compute() {
            return 7;
        }
    }

    /**
     * spawn(ComputeTask) on a shut-down pool threw RejectedExecutionException but left the task
     * marked as forked: its join() then waited for ever (a task never started must throw
     * IllegalStateException instead), and spawning it on another pool threw "a task can be
     * forked once".
     */
    @Test
    void computeTaskRefusedByAShutDownPoolCanBeSpawnedElsewhere() {
        WorkStealingPool closed = WorkStealingPool.builder().workers(1).build();
        closed.shutdown();
        WorkStealingPool open = WorkStealingPool.builder().workers(1).build();
        try {
            Seven task = new Seven();
            assertThatThrownBy(() -> closed.spawn(task)).isInstanceOf(RejectedExecutionException.class);
            assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
                assertThatThrownBy(task::join).isInstanceOf(IllegalStateException.class);
                assertThat(open.spawn(task).join()).isEqualTo(7);
            });
        } finally {
            open.shutdownNow();
        }
    }

    /** The same as above for fork() on a worker of a pool that shutdownNow stopped meanwhile. */
    @Test
    void computeTaskForkRefusedByAStoppedPoolIsNotLeftForked() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).build();
        Seven task = new Seven();
        CompletableFuture<Throwable> forked = new CompletableFuture<>();
        pool.execute(() -> {
            pool.shutdownNow();
            try {
                task.fork();
                forked.complete(null);
            } catch (Throwable t) {
                forked.complete(t);
            }
        });
        assertThat(forked.get(30, SECONDS)).isInstanceOf(RejectedExecutionException.class);
        assertThat(pool.awaitTermination(30, SECONDS)).isTrue();
        WorkStealingPool other = WorkStealingPool.builder().workers(1).build();
        try {
            assertTimeoutPreemptively(Duration.ofSeconds(30),
                    () -> assertThat(other.spawn(task).join()).isEqualTo(7));
        } finally {
            other.shutdownNow();
        }
    }

    /**
     * ForkStack answers null for "empty", yet push(null) was accepted: a pop then reported the
     * stack empty while the element pushed before the null was still held.
     */
    @Test
    void forkStackRefusesNull() {
        ForkStack<String> stack = new ForkStack<>(4, s -> true);
        stack.push("a");
        assertThatThrownBy(() -> stack.push(null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("element");
        assertThat(stack.pop()).isEqualTo("a");
        assertThat(stack.pop()).isNull();
    }
}
