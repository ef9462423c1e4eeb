/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code shutdown()} writes the run state and then closes the submit gate. A worker that parks
 * between the two reads the pool as shut down and checks for quiet; the check looked only at the
 * submitters in flight, not at whether intake was closed, so with every worker parked and nothing
 * queued it terminated the pool while the gate still admitted submissions. A task submitted from
 * outside a moment later was accepted ({@code execute} returned normally) into a pool whose
 * workers were exiting: it never ran, and {@code awaitTermination} answered {@code true}.
 *
 * <p>The test puts the pool in the state {@code shutdown()} leaves between its two writes (run
 * state written, gate open) and makes the parking worker's check itself, on the test thread, once
 * every worker is parked: deterministic, where the real window is a few instructions wide.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SubmissionInShutdownsGapRunsTest {

    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void aTaskAcceptedBeforeIntakeClosesRunsThoughAWorkerCheckedForQuietMeanwhile(PoolKind kind) throws Exception {
        PoolCore pool = kind.build(kind.builder().workers(1).name(kind + "-gap"));
        try {
            awaitQuiet(pool);
            pool.runState = PoolCore.SHUTDOWN; // shutdown()'s first write; its gate is still open
            pool.tryTerminate();               // what a worker parking now does (AbstractPool.idle)

            CountDownLatch ran = new CountDownLatch(1);
            boolean accepted;
            try {
                pool.execute(ran::countDown);
                accepted = true;
            } catch (RejectedExecutionException refused) {
                accepted = false;              // refused is fine: the caller knows
            }
            pool.shutdown();
            assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).as("terminated").isTrue();
            if (accepted) {
                assertThat(ran.getCount()).as("the accepted task ran before the pool terminated").isZero();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Waits until the pool's quiet check would find every worker parked (a condition, polled). */
    private static void awaitQuiet(PoolCore pool) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!pool.idleControl().underLock(parked -> parked == pool.liveWorkers())) {
            assertThat(System.nanoTime() - deadline).as("every worker parked within 20 s").isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }
}
