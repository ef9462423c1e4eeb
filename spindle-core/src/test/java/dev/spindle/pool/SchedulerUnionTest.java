/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.Hints;
import dev.spindle.Scheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SchedulerUnionTest {

    /** No spares: a task queued behind a waiting one stays queued (see StarvationWatch). */
    private static WorkStealingPool pool(String name) {
        return WorkStealingPool.builder().workers(1).maxSpareWorkers(0).name(name).build();
    }

    private static String threadOf(Scheduler s, Hints h) throws Exception {
        CompletableFuture<String> f = new CompletableFuture<>();
        s.execute(() -> f.complete(Thread.currentThread().getName()), h);
        return f.get(10, TimeUnit.SECONDS);
    }

    @Test
    void routesEachTaskToTheMemberNamedByItsSchedulerIndex() throws Exception {
        try (SchedulerUnion union = SchedulerUnion.owning(pool("alpha"), pool("beta"), pool("gamma"))) {
            for (int round = 0; round < 20; round++) {
                assertThat(threadOf(union, Hints.DEFAULT)).startsWith("alpha-");
                assertThat(threadOf(union, Hints.DEFAULT.withSchedulerIndex(1))).startsWith("beta-");
                assertThat(threadOf(union, Hints.ofPriority(5).withSchedulerIndex(2))).startsWith("gamma-");
            }
            CompletableFuture<String> plain = new CompletableFuture<>();
            union.execute(() -> plain.complete(Thread.currentThread().getName()));
            assertThat(plain.get(10, TimeUnit.SECONDS)).startsWith("alpha-");
            assertThat(union.routedCounts()).containsExactly(21L, 20L, 20L);
        }
    }

    @Test
    void passesHintsOnUnchanged() {
        List<Hints> seen = new ArrayList<>();
        Scheduler recorder = new Scheduler() {
            @Override
            public void execute(Runnable task) {
                seen.add(null);
            }

            @Override
            public void execute(Runnable task, Hints hints) {
                seen.add(hints);
            }
        };
        SchedulerUnion union = SchedulerUnion.of(Runnable::run, recorder);
        Hints h = Hints.ofPriority(-3).withSchedulerIndex(1).withWorkerIndex(4);
        union.execute(() -> { }, h);
        assertThat(seen).containsExactly(h);
    }

    @Test
    void anIndexOutOfRangeIsRejectedWithoutRunningTheTask() {
        List<String> ran = new ArrayList<>();
        SchedulerUnion union = SchedulerUnion.of(Runnable::run, Runnable::run);
        assertThatThrownBy(() -> union.execute(() -> ran.add("x"), Hints.DEFAULT.withSchedulerIndex(2)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("schedulerIndex 2")
                .hasMessageContaining("2 members");
        assertThat(ran).isEmpty();
        assertThat(union.routedCounts()).containsExactly(0L, 0L);
    }

    @Test
    void badConstructionAndArgumentsAreNamed() {
        assertThatThrownBy(SchedulerUnion::of).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one member");
        assertThatThrownBy(() -> SchedulerUnion.of(Runnable::run, null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("null");
        SchedulerUnion union = SchedulerUnion.of(Runnable::run);
        assertThatThrownBy(() -> union.execute(null, Hints.DEFAULT))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("task");
        assertThatThrownBy(() -> union.execute(() -> { }, null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("hints");
        assertThatThrownBy(() -> union.member(1)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void aBorrowingUnionLeavesItsMembersRunning() throws Exception {
        WorkStealingPool a = pool("a");
        WorkStealingPool b = pool("b");
        try {
            SchedulerUnion union = SchedulerUnion.of(a, b);
            assertThat(union.ownsMembers()).isFalse();
            union.close();
            assertThat(union.isShutdown()).isTrue();
            assertThatThrownBy(() -> union.execute(() -> { }))
                    .isInstanceOf(RejectedExecutionException.class);
            assertThat(union.shutdownNow()).isEmpty();
            assertThat(a.isShutdown()).isFalse();
            assertThat(threadOf(b, Hints.DEFAULT)).startsWith("b-");
            assertThat(union.isTerminated()).isFalse();      // its members still run
            a.close();
            b.close();
            assertThat(union.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            assertThat(union.isTerminated()).isTrue();
        } finally {
            a.shutdownNow();
            b.shutdownNow();
        }
    }

    @Test
    void anOwningUnionShutsDownAndClosesItsMembers() throws Exception {
        WorkStealingPool a = pool("a");
        WorkStealingPool b = pool("b");
        SchedulerUnion union = SchedulerUnion.owning(a, b);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch ran = new CountDownLatch(1);
        union.execute(() -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, Hints.DEFAULT.withSchedulerIndex(1));
        union.execute(ran::countDown, Hints.DEFAULT.withSchedulerIndex(1));  // queued behind
        union.shutdown();
        assertThat(a.isShutdown()).isTrue();
        assertThat(b.isShutdown()).isTrue();
        assertThat(union.isTerminated()).isFalse();
        release.countDown();
        union.close();
        assertThat(ran.getCount()).isZero();
        assertThat(a.isTerminated()).isTrue();
        assertThat(b.isTerminated()).isTrue();
        assertThat(union.isTerminated()).isTrue();
    }

    @Test
    void shutdownNowOfAnOwningUnionReturnsTheMembersQueuedTasks() throws Exception {
        WorkStealingPool a = pool("a");
        SchedulerUnion union = SchedulerUnion.owning(a);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        union.execute(() -> {
            started.countDown();
            try {
                never.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        started.await();
        Runnable queued = () -> { };
        union.execute(queued);
        assertThat(union.shutdownNow()).containsExactly(queued);
        assertThat(union.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void theBuilderKeepsTheOrderOfMembersAndTheOwnership() throws Exception {
        WorkStealingPool a = pool("first");
        WorkStealingPool b = pool("second");
        SchedulerUnion union = SchedulerUnion.builder().add(a).add(b).owning(true).build();
        assertThat(union.size()).isEqualTo(2);
        assertThat(union.member(0)).isSameAs(a);
        assertThat(threadOf(union, Hints.DEFAULT.withSchedulerIndex(1))).startsWith("second-");
        assertThat(union.ownsMembers()).isTrue();
        union.close();
        assertThat(a.isTerminated()).isTrue();
        assertThat(b.isTerminated()).isTrue();
        assertThatThrownBy(() -> SchedulerUnion.builder().build()).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SchedulerUnion.builder().add(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("member");
        assertThat(SchedulerUnion.builder().add(Runnable::run).build().ownsMembers()).isFalse();
    }
}
