/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A task of cluster A that waits for a future of cluster B runs no task of A in the meantime, not
 * even A's task of the awaited key. The wait looked the key up on the waiting thread's worker, A's,
 * and ran A's ready job of that key inline, under the waiting task: a task the waiting one does not
 * wait for, which might wait for it (and then never see it finish). On the code before the fix A's
 * task {@code k} ran on the waiting task's thread; now it waits for a thread of its own.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ForeignFutureWaitTest {

    private static LocalCluster cluster() {
        return LocalCluster.builder().workers(1).threadsPerWorker(1).latency(Duration.ZERO).bandwidth(1e12)
                .stealing(false).balanceInterval(Duration.ZERO).build();
    }

    /** Waits in timed parks, which the worker's pool takes for work: it starts no spare thread for them. */
    private static void parkUntil(AtomicBoolean flag) {
        while (!flag.get()) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    @Test
    void aTaskWaitingForAnotherClustersFutureDoesNotRunItsOwnClustersTaskOfTheSameKey() throws Exception {
        try (LocalCluster a = cluster(); LocalCluster b = cluster()) {
            CountDownLatch bGo = new CountDownLatch(1);
            ClusterFuture<String> bk = b.client().submit("k", args -> {
                bGo.await();
                return "b's k";
            });

            AtomicReference<Thread> outerThread = new AtomicReference<>();
            AtomicBoolean queued = new AtomicBoolean();
            ClusterFuture<String> outer = a.client().submit("outer", args -> {
                outerThread.set(Thread.currentThread());
                parkUntil(queued);                    // until A's h and k are queued behind it
                return bk.get(60, TimeUnit.SECONDS);
            });
            while (outerThread.get() == null) {
                Thread.sleep(1);
            }
            // h first: the spare thread the wait below brings takes it, and keeps it until hGo
            AtomicBoolean hGo = new AtomicBoolean();
            ClusterFuture<Integer> h = a.client().submit(TaskSpec.<Integer>builder("h", args -> {
                parkUntil(hGo);
                return 1;
            }).priority(10).build());
            AtomicReference<Thread> kThread = new AtomicReference<>();
            ClusterFuture<String> k = a.client().submit("k", args -> {
                kThread.set(Thread.currentThread());
                return "a's k";
            });
            while (a.retainedForTests().get("w0.jobs") != 3) {   // outer, h and k on A's only worker
                Thread.sleep(1);
            }
            queued.set(true);                         // outer now waits for B's k

            try {
                k.get(2, TimeUnit.SECONDS);           // before the fix: run at once, inline under outer
            } catch (TimeoutException expected) {
                // queued behind h, as it should be
            }
            hGo.set(true);
            assertThat(h.get(30, TimeUnit.SECONDS)).isEqualTo(1);
            assertThat(k.get(30, TimeUnit.SECONDS)).isEqualTo("a's k");
            assertThat(kThread.get()).as("the thread that ran A's k").isNotSameAs(outerThread.get());

            bGo.countDown();
            assertThat(outer.get(30, TimeUnit.SECONDS)).isEqualTo("b's k");
        }
    }
}
