/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker paused over its memory limit with values that cannot spill reports its stall while its
 * one started task waits for a task on another worker (a waiting task does not count as running,
 * see {@link ClusterWorker#helpUntil}). When the awaited task ends, the waiting task resumes, and
 * its end may release the values that keep its worker paused. But that end was also the end of the
 * last task making progress elsewhere, and the scheduler, still holding the stall report made while
 * the task waited, took back at once the task queued on the paused worker and failed it as one
 * nothing could ever start. On the code before the fix {@code queued} failed ("cannot start")
 * while {@code waiter} was still running; now it runs once {@code waiter} releases the values.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class WaitingTaskResumeStallTest {

    private static final int MB = 1_000_000;

    /** A value that knows its size but cannot be written, so it can never spill. */
    record Unspillable(long sizeInBytes) implements Sized {
    }

    private static <T> TaskSpec<T> on(int worker, String key, TaskFunction<T> function) {
        return TaskSpec.builder(key, function).restrictions(Restrictions.strict(Set.of(worker))).build();
    }

    @Test
    void aTaskQueuedOnAStalledWorkerIsNotFailedWhileItsWaitingTaskResumes() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(2).threadsPerWorker(1).latency(Duration.ZERO)
                .bandwidth(1e12).stealing(false).balanceInterval(Duration.ZERO).retries(0)
                .memoryLimitPerWorker(10L * MB).build()) {
            Client client = cluster.client();
            CountDownLatch pinnedDone = new CountDownLatch(1);
            CountDownLatch elsewhereGo = new CountDownLatch(1);
            AtomicReference<ClusterFuture<String>> queuedRef = new AtomicReference<>();

            ClusterFuture<String> waiter = client.submit(on(0, "waiter", args -> {
                List<ClusterFuture<Unspillable>> pinned = new ArrayList<>();
                for (int i = 0; i < 9; i++) {         // 9 MB that cannot spill: over the 8 MB pause fraction
                    ClusterFuture<Unspillable> f = client.submit(on(0, "pinned-" + i, a -> new Unspillable(MB)));
                    f.get(30, TimeUnit.SECONDS);
                    pinned.add(f);
                }
                ClusterFuture<String> elsewhere = client.submit(on(1, "elsewhere", a -> {
                    elsewhereGo.await();
                    return "elsewhere's value";
                }));
                pinnedDone.countDown();
                String value = elsewhere.get(30, TimeUnit.SECONDS);   // waits, uncounted: worker 0 stalls
                // resumed: it works on a while with the value before it frees its worker's memory;
                // a task of its worker failed meanwhile is one the scheduler gave up on too early
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
                while (!queuedRef.get().isDone() && System.nanoTime() - until < 0) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
                }
                pinned.forEach(ClusterFuture::release);
                return value;
            }));

            assertThat(pinnedDone.await(30, TimeUnit.SECONDS)).as("worker 0 filled").isTrue();
            queuedRef.set(client.submit(on(0, "queued", a -> "queued's value")));   // behind worker 0's pause
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (cluster.retainedForTests().get("stalled") != 1) {
                assertThat(System.nanoTime() - deadline).as("worker 0 reported its stall").isNegative();
                Thread.sleep(5);
            }

            elsewhereGo.countDown();                  // the last task making progress elsewhere ends
            assertThat(waiter.get(30, TimeUnit.SECONDS)).isEqualTo("elsewhere's value");
            assertThat(queuedRef.get().get(30, TimeUnit.SECONDS))
                    .as("the task queued on worker 0, which the waiting task's end unpaused")
                    .isEqualTo("queued's value");
        }
    }
}
