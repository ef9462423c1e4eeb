/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Task;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The parent links that helping joins rely on name only true ancestors, even though a worker
 * does not record every task it runs inline (see {@code Worker.runTask}).
 */
class RecordedAncestryTest {

    @Test
    void aTaskRunInlineByAJoinerThatDidNotSpawnItIsRecorded() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(0).build()) {
            AtomicReference<ForkTask<?>> joinerRef = new AtomicReference<>();
            AtomicReference<ForkTask<?>> strangerRef = new AtomicReference<>();
            AtomicReference<Boolean> childLooksLikeJoiners = new AtomicReference<>();
            AtomicReference<Boolean> childKnowsItsParent = new AtomicReference<>();
            CountDownLatch strangerSpawned = new CountDownLatch(1);

            // The joiner runs on the only worker and joins a task it did not spawn; that task
            // is still unstarted in the injector, so the joiner runs it inline. No spare worker:
            // with the joiner blocked in the latch, the starvation watch could start one that
            // ran the stranger before strangerRef was set (a failure seen under load).
            Task<Integer> joiner = pool.spawn(() -> {
                LifecycleTest.await(strangerSpawned);
                return strangerRef.get().join() instanceof Integer i ? i : -1;
            });
            joinerRef.set((ForkTask<?>) joiner);
            Task<Integer> stranger = pool.spawn(() -> {
                Task<Integer> child = pool.spawn(() -> 7);
                childLooksLikeJoiners.set(ForkTask.descendsFrom((Runnable) child, joinerRef.get()));
                childKnowsItsParent.set(ForkTask.descendsFrom((Runnable) child, strangerRef.get()));
                return child.join();
            });
            strangerRef.set((ForkTask<?>) stranger);
            strangerSpawned.countDown();

            assertThat(joiner.get(20, TimeUnit.SECONDS)).isEqualTo(7);
            // Were the stranger run unrecorded, its child would name the joiner as parent, and
            // a worker waiting for the joiner could run the child on top of its own frame.
            assertThat(childLooksLikeJoiners.get()).isFalse();
            assertThat(childKnowsItsParent.get()).isTrue();
        }
    }

    @Test
    void childrenOfAnUnrecordedInlineChildNameATrueAncestor() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(0).build()) {
            AtomicReference<ForkTask<?>> rootRef = new AtomicReference<>();
            AtomicReference<ForkTask<?>> childRef = new AtomicReference<>();
            AtomicReference<Boolean> grandchildUnderRoot = new AtomicReference<>();
            CountDownLatch rootKnown = new CountDownLatch(1);
            Task<Integer> root = pool.spawn(() -> {
                LifecycleTest.await(rootKnown);
                Task<Integer> child = pool.spawn(() -> {
                    Task<Integer> grandchild = pool.spawn(() -> 2);
                    grandchildUnderRoot.set(ForkTask.descendsFrom((Runnable) grandchild, rootRef.get()));
                    return grandchild.join() + 1;
                });
                childRef.set((ForkTask<?>) child);
                return child.join() + 1;
            });
            rootRef.set((ForkTask<?>) root);
            rootKnown.countDown();
            assertThat(root.get(20, TimeUnit.SECONDS)).isEqualTo(4);
            assertThat(grandchildUnderRoot.get()).isTrue();
        }
    }
}
