/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.testkit.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A stopped worker lets go of its per-task structures (its jobs, fetches and queue) while a pool
 * thread may still be running one of its tasks: the stop interrupts it but does not wait for it.
 * That thread, ending its task after the stop, reads those structures again; they must be
 * published to it safely (a queue read half-built through a data race can fail inside the pool
 * thread), and nothing it does then may throw there or keep the task's result from the caller,
 * who gets it from the worker the scheduler places the task on next. A task here ignores the
 * interruption and is held by a latch until {@link LocalCluster#killWorker} has returned, with
 * more tasks queued behind it on the same one-thread worker.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TaskEndingAsItsWorkerStopsTest {

    @Test
    void aTaskEndingAfterItsWorkerStoppedThrowsNothingThereAndItsResultArrives() throws Exception {
        List<String> stray = new CopyOnWriteArrayList<>();
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        // the worker's pool hands a ticket's throwable to its thread's handler, which ends here
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> stray.add(t.getName() + ": " + e));
        // no balance rounds: the tasks placed on worker 1 stay there until it stops
        try (LocalCluster cluster = LocalCluster.builder().workers(2).threadsPerWorker(1).latency(Duration.ZERO)
                .stealing(false).build()) {
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch stopped = new CountDownLatch(1);
            AtomicInteger runs = new AtomicInteger();
            AtomicReference<Thread> heldOn = new AtomicReference<>();
            TaskFunction<Integer> held = args -> {
                if (runs.incrementAndGet() == 1) {
                    heldOn.set(Thread.currentThread());
                    started.countDown();
                    Await.ignoringInterrupts(stopped);
                }
                return 42;
            };
            ClusterFuture<Integer> f = cluster.client().submit(TaskSpec.builder("held", held)
                    .restrictions(Restrictions.loose(Set.of(1))).build());
            assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
            // queued behind it on worker 1's one thread: READY jobs and their tickets when it stops
            List<ClusterFuture<Integer>> queued = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                int v = i;
                queued.add(cluster.client().submit(TaskSpec.builder("queued-" + i, (TaskFunction<Integer>) args -> v)
                        .restrictions(Restrictions.loose(Set.of(1))).build()));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (cluster.workerRetainedForTests(1).get("ready") < queued.size() && System.nanoTime() - deadline < 0) {
                Thread.sleep(5);              // polled: the queue fills as the transport delivers, no event to await
            }
            assertThat(cluster.workerRetainedForTests(1).get("ready")).as("queued on worker 1").isEqualTo(queued.size());

            cluster.killWorker(1);            // stop() has returned; the held task still runs
            stopped.countDown();
            Thread thread = heldOn.get();
            thread.join(TimeUnit.SECONDS.toMillis(30));   // the stopped pool's thread ends after the task's end
            assertThat(thread.isAlive()).as("the held task's thread ended").isFalse();

            assertThat(stray).as("nothing thrown on the stopped worker's thread").isEmpty();
            assertThat(f.get(30, TimeUnit.SECONDS)).isEqualTo(42);
            for (int i = 0; i < queued.size(); i++) {
                assertThat(queued.get(i).get(30, TimeUnit.SECONDS)).isEqualTo(i);
            }
            assertThat(runs.get()).as("run again elsewhere, its first run's result not reported").isEqualTo(2);
            Map<String, Integer> left = cluster.workerRetainedForTests(1);
            assertThat(left.get("jobs") + left.get("ready") + left.get("fetching") + left.get("departures"))
                    .as("the stopped worker's structures, after its task ended").isZero();
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(previous);
        }
    }
}
