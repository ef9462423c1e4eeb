/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A task that waits for another ({@link ClusterFuture#get()} inside a task) on a worker paused
 * over its memory limit with values that cannot spill. The waiting task counted as running, so
 * the worker never reported the stall: the scheduler neither took the awaited task back nor failed
 * it, and the waiting task, and its caller, waited for good. On the code before the fix the
 * caller's wait timed out after 30 s; now the awaited task fails naming the memory, as a task
 * queued on a stalled worker with nothing running does, and the waiting task fails with it.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class WaitingTaskMemoryStallTest {

    private static final int MB = 1_000_000;

    /** A value that knows its size but cannot be written, so it can never spill. */
    record Unspillable(long sizeInBytes) implements Sized {
    }

    @Test
    void aTaskWaitingForATaskItsPausedWorkerCannotStartLetsTheWorkerReportTheStall() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(1).threadsPerWorker(1).latency(Duration.ZERO)
                .bandwidth(1e12).stealing(false).balanceInterval(Duration.ZERO).retries(0)
                .memoryLimitPerWorker(10L * MB).build()) {
            Client client = cluster.client();
            List<ClusterFuture<Unspillable>> pinned = new CopyOnWriteArrayList<>();   // held: their values stay
            ClusterFuture<Integer> outer = client.submit("outer", args -> {
                for (int i = 0; i < 9; i++) {         // 9 MB that cannot spill: over the 8 MB pause fraction
                    ClusterFuture<Unspillable> f = client.submit("pinned-" + i, a -> new Unspillable(MB));
                    f.get();
                    pinned.add(f);
                }
                return client.submit("inner", a -> 42).get();   // queued behind the pause of its only worker
            });

            assertThatThrownBy(() -> outer.get(30, TimeUnit.SECONDS))
                    .as("'outer', waiting for 'inner', which its paused worker cannot start (stats: %s)",
                            cluster.stats())
                    .isInstanceOf(ExecutionException.class)
                    .hasStackTraceContaining("task 'inner' cannot start")
                    .hasStackTraceContaining("cannot spill");
            assertThat(pinned).hasSize(9);
        }
    }
}
