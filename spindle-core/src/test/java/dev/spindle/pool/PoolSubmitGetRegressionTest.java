/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A task that submits another to its own pool and waits for it with {@code get}, the most common
 * form of waiting inside a pool. On a work-sharing pool the inner task went into the waiting
 * worker's slot, which no other worker takes, and the plain {@code FutureTask}'s {@code get}
 * parked where the pool could not see it: it never returned, however many workers idled. A
 * pinned pool's tasks stay on their worker by design (documented), so it is not among these.
 */
class PoolSubmitGetRegressionTest {

    @ParameterizedTest
    @EnumSource(value = PoolKind.class, names = {"STEALING", "SHARING", "PRIORITY"})
    void aTaskWaitsForATaskItSubmittedWithATimedGet(PoolKind kind) throws Exception {
        PoolCore pool = kind.create(2);
        try {
            Future<Integer> outer = pool.submit(() -> pool.submit(() -> 41).get(10, TimeUnit.SECONDS) + 1);
            assertThat(outer.get(30, TimeUnit.SECONDS)).isEqualTo(42);
        } finally {
            pool.shutdownNow();                // interrupts a worker stuck in the inner get
        }
    }

    @ParameterizedTest
    @EnumSource(value = PoolKind.class, names = {"STEALING", "SHARING", "PRIORITY"})
    void aTaskWaitsForATaskItSubmittedWithAnUntimedGet(PoolKind kind) throws Exception {
        PoolCore pool = kind.create(2);
        try {
            Future<Integer> outer = pool.submit(() -> pool.submit(() -> 41).get() + 1);
            assertThat(outer.get(30, TimeUnit.SECONDS)).isEqualTo(42);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Every link waits for the next: as deep as the workers go, each inner task still runs. */
    @Test
    void aChainOfNestedGetsOnAWorkSharingPoolCompletes() throws Exception {
        WorkSharingPool pool = WorkSharingPool.builder().workers(4).build();
        try {
            Future<Integer> top = pool.submit(() -> nested(pool, 3));
            assertThat(top.get(30, TimeUnit.SECONDS)).isEqualTo(3);
        } finally {
            pool.shutdownNow();
        }
    }

    private static int nested(WorkSharingPool pool, int depth) throws Exception {
        if (depth == 0) {
            return 0;
        }
        return pool.submit(() -> nested(pool, depth - 1)).get(10, TimeUnit.SECONDS) + 1;
    }

    /** Through a union whose member is a work-sharing pool: the union's futures wait the same way. */
    @Test
    void aTaskOfAUnionWaitsForATaskItSubmittedThroughTheUnion() throws Exception {
        WorkSharingPool member = WorkSharingPool.builder().workers(2).build();
        SchedulerUnion union = SchedulerUnion.of(member);
        try {
            Future<Integer> outer = union.submit(() -> union.submit(() -> 41).get(10, TimeUnit.SECONDS) + 1);
            assertThat(outer.get(30, TimeUnit.SECONDS)).isEqualTo(42);
        } finally {
            member.shutdownNow();
        }
    }

    /** A done future's get is FutureTask's: no blocking section, the value at once. */
    @Test
    void aDoneFutureIsReadFromAWorkerAsItIs() throws Exception {
        WorkSharingPool pool = WorkSharingPool.builder().workers(1).build();
        try {
            Future<Integer> done = pool.submit(() -> 7);
            assertThat(done.get(10, TimeUnit.SECONDS)).isEqualTo(7);
            assertThat(pool.submit(() -> done.get() + done.get(1, TimeUnit.SECONDS)).get(10, TimeUnit.SECONDS))
                    .isEqualTo(14);
        } finally {
            pool.shutdownNow();
        }
    }
}
