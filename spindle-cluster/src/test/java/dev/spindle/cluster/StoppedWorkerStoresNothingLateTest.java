/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.testkit.Await;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker's task end ({@code ClusterWorker.run}) and fetch completion ({@code fetchFrom}) look at
 * whether the worker is alive and then store a value. A thread that passed that look just before
 * the worker stopped stores after the stop cleared the store, and a gone worker, which its
 * {@link LocalCluster} keeps while its id is not reused, would keep that value for good. The store
 * refuses writes once cleared ({@link DataStore#clear}). The window is held open here by the
 * value's own measurement, which both paths make between the look and the store: a {@link Sized}
 * value whose {@code sizeInBytes} waits for the test to stop the worker.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StoppedWorkerStoresNothingLateTest {

    /** Holds the thread that measures it until {@code go} opens: the window between the look and the store. */
    record Gated(CountDownLatch measuring, CountDownLatch go, AtomicReference<Thread> on) implements Sized {
        Gated() {
            this(new CountDownLatch(1), new CountDownLatch(1), new AtomicReference<>());
        }

        @Override
        public long sizeInBytes() {
            on.set(Thread.currentThread());
            measuring.countDown();
            Await.ignoringInterrupts(go);         // deaf to the stop's interrupt, as most user code is
            return 64;
        }
    }

    @Test
    void aTaskResultMeasuredAsItsWorkerStopsIsNotStoredAfterTheStop() throws Exception {
        RecordingTransport transport = new RecordingTransport();
        ClusterWorker worker = new ClusterWorker(0, 1, transport);
        Gated value = new Gated();
        worker.receive(new Message.Compute("x", 1, args -> value, List.of(), Map.of(), 0));
        assertThat(value.measuring().await(10, TimeUnit.SECONDS)).as("the result is being measured").isTrue();

        worker.kill();                        // the task has passed its look at alive
        value.go().countDown();
        transport.awaitFinished("x");         // sent after the store: the store has been tried

        assertThat(worker.store().contains("x")).as("the stopped worker's store holds the late result").isFalse();
        assertThat(worker.retainedForTests().get("stored")).isZero();
    }

    @Test
    void aFetchedCopyMeasuredAsItsWorkerStopsIsNotStoredAfterTheStop() throws Exception {
        CompletableFuture<Object> inFlight = new CompletableFuture<>();
        RecordingTransport transport = new RecordingTransport() {
            @Override
            public CompletableFuture<Object> fetch(String key, int holder, int requester) {
                return inFlight;
            }
        };
        ClusterWorker worker = new ClusterWorker(1, 1, transport);
        worker.receive(new Message.Compute("d", 1, args -> args.get(0), List.of("p"), Map.of("p", List.of(0)), 0));
        Gated value = new Gated();
        Thread completing = new Thread(() -> inFlight.complete(value), "fetch-completion");
        completing.start();                   // the completion runs on this thread, as on a transport's
        assertThat(value.measuring().await(10, TimeUnit.SECONDS)).as("the copy is being measured").isTrue();

        worker.kill();                        // the completion has passed its look at alive
        value.go().countDown();
        completing.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(completing.isAlive()).as("the completion ended").isFalse();

        assertThat(worker.store().contains("p")).as("the stopped worker's store holds the late copy").isFalse();
        assertThat(worker.retainedForTests().get("stored")).isZero();
    }

    /**
     * The refused store loses nothing anyone waits for: the scheduler handles the worker's loss,
     * and the task whose result was dropped runs again on the other worker, whose result the
     * caller gets. (The stopped worker's report of the first run is not delivered, since the
     * in-process transport drops what a gone worker sends; between JVMs a report that arrives
     * before the loss is taken, and the loss then uncounts the copy.)
     */
    @Test
    void theTaskWhoseResultWasRefusedRunsAgainElsewhereAndItsCallerGetsTheValue() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(2).threadsPerWorker(1).latency(Duration.ZERO)
                .stealing(false).balanceInterval(Duration.ZERO).build()) {
            Gated first = new Gated();
            AtomicInteger runs = new AtomicInteger();
            TaskFunction<Object> task = args -> runs.incrementAndGet() == 1 ? first : "computed again";
            ClusterFuture<Object> f = cluster.client().submit(TaskSpec.builder("x", task)
                    .restrictions(Restrictions.loose(Set.of(1))).build());
            assertThat(first.measuring().await(10, TimeUnit.SECONDS)).isTrue();

            cluster.killWorker(1);            // returns once the scheduler has handled the loss
            first.go().countDown();
            Thread held = first.on().get();
            held.join(TimeUnit.SECONDS.toMillis(30));   // the stopped pool's thread ends after the task's end
            assertThat(held.isAlive()).as("the held task's thread ended").isFalse();

            assertThat(f.get(30, TimeUnit.SECONDS)).isEqualTo("computed again");
            assertThat(runs.get()).as("runs of x").isEqualTo(2);
            assertThat(cluster.workerRetainedForTests(1).get("stored")).as("values kept by the gone worker").isZero();
        }
    }
}
