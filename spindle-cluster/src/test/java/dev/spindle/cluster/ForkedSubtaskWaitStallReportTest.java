/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.pool.ComputeTask;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A fork/join subtask of a running task, stolen by another thread of its worker's pool, that waits
 * for a future of its cluster. The worker's pool threads kept the worker they last ran a task for
 * ({@code ClusterWorker.CURRENT}) for good, so the subtask's wait was taken for a waiting task's
 * and uncounted although that thread's run was never counted: the count of running tasks dropped
 * to zero while the task that forked it still ran, the worker, paused over its memory limit with
 * values that cannot spill, reported a stall, and the scheduler failed the awaited task as one
 * nothing could start. Whether it did depended on whether the stealing thread had run a task
 * before. Now a thread counts as a worker's only while it runs one of its tasks: the subtask's wait
 * is a plain one, the running task keeps the worker from reporting a stall, and the awaited task
 * runs once the running one frees memory. On the code before the fix {@code inner} failed with
 * "cannot start".
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ForkedSubtaskWaitStallReportTest {

    private static final int MB = 1_000_000;

    /** A value that knows its size but cannot be written, so it can never spill. */
    record Unspillable(long sizeInBytes) implements Sized {
    }

    /** Submits {@code inner} and waits for it, on whichever pool thread runs it. */
    static final class WaitForInner extends ComputeTask<Integer> {
        private final Client client;
        private final CountDownLatch started;
        private final CountDownLatch done;

        WaitForInner(Client client, CountDownLatch started, CountDownLatch done) {
            this.client = client;
            this.started = started;
            this.done = done;
        }

        @Override
        protected Integer compute() throws Exception {
            started.countDown();
            try {
                return client.submit("inner", a -> 42).get();   // queued behind the pause of its only worker
            } finally {
                done.countDown();
            }
        }
    }

    @Test
    void aForkedSubtaskWaitingOnAnotherPoolThreadLeavesItsTaskCountedAsRunning() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(1).threadsPerWorker(2).latency(Duration.ZERO)
                .bandwidth(1e12).stealing(false).balanceInterval(Duration.ZERO).retries(0)
                .memoryLimitPerWorker(10L * MB).build()) {
            Client client = cluster.client();
            List<ClusterFuture<Unspillable>> pinned = new CopyOnWriteArrayList<>();
            CountDownLatch outerRuns = new CountDownLatch(1);
            CountDownLatch go = new CountDownLatch(1);
            ClusterFuture<Integer> outer = client.submit("outer", args -> {
                outerRuns.countDown();
                if (!go.await(30, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("not told to go");
                }
                CountDownLatch started = new CountDownLatch(1);
                CountDownLatch done = new CountDownLatch(1);
                WaitForInner sub = new WaitForInner(client, started, done);
                sub.fork();                   // taken by the worker's other thread, which ran the pinned tasks
                if (!started.await(30, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the subtask was not taken by the other thread");
                }
                // this task runs on meanwhile (counted); then it frees the memory 'inner' waits for
                done.await(5, TimeUnit.SECONDS);
                pinned.forEach(ClusterFuture::release);
                return sub.join();
            });
            assertThat(outerRuns.await(30, TimeUnit.SECONDS)).as("'outer' started").isTrue();
            // run by the worker's other thread, while 'outer' holds the first one: 9 MB that cannot
            // spill, over the 8 MB pause fraction
            for (int i = 0; i < 9; i++) {
                ClusterFuture<Unspillable> f = client.submit("pinned-" + i, a -> new Unspillable(MB));
                f.get(30, TimeUnit.SECONDS);
                pinned.add(f);
            }
            go.countDown();

            assertThat(outer.get(60, TimeUnit.SECONDS))
                    .as("'outer', whose subtask waits for 'inner' (stats: %s)", cluster.stats())
                    .isEqualTo(42);
        }
    }
}
