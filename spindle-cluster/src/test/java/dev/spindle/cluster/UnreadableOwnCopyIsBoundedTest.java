/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static dev.spindle.cluster.HandDriven.reply;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker whose own copy of an input cannot be read, every time (its spill disk fails every read:
 * {@link DataStore#get} drops the copy and throws {@link DataStore.Lost}). Each report
 * ({@link Message.DataMissing} naming the reporting worker as the holder) had the input computed
 * again, on that same worker, where it spilled and could not be read again: the producer ran for
 * good and the dependent's future never completed. Those failures count against the dependent's
 * retries as failed fetches from another live holder do ({@link TaskState#fetchFailures}).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class UnreadableOwnCopyIsBoundedTest {

    /** Far more rounds than any bound allows: the loop, unbounded, goes on through all of them. */
    private static final int ROUNDS = 50;
    private static final long MB = 1 << 20;

    @Test
    void aDependentWhoseOwnCopyOfItsInputIsNeverReadableErrsAfterItsRetries() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        int retries = 2;
        GraphScheduler s = new GraphScheduler(HandDriven.settings(1).retries(retries).build(), wire);
        try {
            List<CompletableFuture<Object>> fs = s.submit(List.of(
                    TaskSpec.builder("p", args -> 1).build(),
                    TaskSpec.builder("d", args -> 2).dependsOn("p").build()));
            int producerRuns = 0;
            for (int round = 0; round < ROUNDS && state(s, "d") != TaskState.State.ERRED; round++) {
                producerRuns++;
                reply(s, new Message.TaskFinished(0, "p", wire.lastCompute("p").attempt(), 1, 8, 1000));
                Message.Compute d = wire.lastCompute("d");
                assertThat(d.dependencies()).containsExactly("p");
                reply(s, new Message.DataMissing(0, "d", d.attempt(), "p", 0));   // its own copy, unreadable
            }

            assertThat(state(s, "d")).as("d, whose input is never readable, after %d rounds", ROUNDS)
                    .isEqualTo(TaskState.State.ERRED);
            assertThat(producerRuns).as("runs of p").isEqualTo(retries + 1);
            assertThatThrownBy(() -> fs.get(1).get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .rootCause().isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("'d'").hasMessageContaining("'p'").hasMessageContaining("worker 0")
                    .hasMessageContaining("own copy").hasMessageContaining((retries + 1) + " times");
            assertThat(fs.get(0).get(10, TimeUnit.SECONDS)).as("p itself, computed fine").isEqualTo(1);
            s.checkCountsForTests();
        } finally {
            s.close();
        }
    }

    /** Up to the retries, an unreadable own copy is still computed again, and the dependent runs once it reads. */
    @Test
    void anOwnCopyLostWithinTheRetriesIsStillComputedAgain() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        int retries = 2;
        GraphScheduler s = new GraphScheduler(HandDriven.settings(1).retries(retries).build(), wire);
        try {
            List<CompletableFuture<Object>> fs = s.submit(List.of(
                    TaskSpec.builder("p", args -> 1).build(),
                    TaskSpec.builder("d", args -> 2).dependsOn("p").build()));
            for (int failure = 0; failure < retries; failure++) {
                reply(s, new Message.TaskFinished(0, "p", wire.lastCompute("p").attempt(), 1, 8, 1000));
                reply(s, new Message.DataMissing(0, "d", wire.lastCompute("d").attempt(), "p", 0));
            }
            reply(s, new Message.TaskFinished(0, "p", wire.lastCompute("p").attempt(), 1, 8, 1000));
            reply(s, new Message.TaskFinished(0, "d", wire.lastCompute("d").attempt(), 2, 8, 1000));
            assertThat(fs.get(1).get(10, TimeUnit.SECONDS)).isEqualTo(2);
            s.checkCountsForTests();
        } finally {
            s.close();
        }
    }

    /**
     * A real worker on the in-process transport whose spill disk fails every read: p's result, over
     * the spill target by itself, goes to disk as it is stored, and d, on the same worker, cannot
     * read it back. Unbounded, p ran again and again and d never ended.
     */
    @Test
    void aRealWorkerWhoseSpillDiskFailsEveryReadGivesUpOnTheInputAfterTheRetries() throws Exception {
        LocalTransport local = new LocalTransport(100e6, TimeUnit.MILLISECONDS.toNanos(1));
        int retries = 2;
        ClusterWorker worker = new ClusterWorker(0, 1, local, 2 * MB);
        worker.store().openWith(file -> {
            throw new IOException("Input/output error");
        });
        List<ClusterWorker> workers = List.of(worker);
        GraphScheduler s = new GraphScheduler(CoordinatorSettings.builder().workers(1).threadsPerWorker(1)
                .stealing(false).balanceInterval(Duration.ZERO).retries(retries).build(), local);
        workers.forEach(w -> w.serves(s));
        local.connect(workers, s::receive);
        AtomicInteger producerRuns = new AtomicInteger();
        try {
            List<CompletableFuture<Object>> fs = s.submit(List.of(
                    TaskSpec.builder("p", args -> {
                        producerRuns.incrementAndGet();
                        return new byte[(int) (3 * MB / 2)];   // a JDK class: spilled without a read back
                    }).build(),
                    TaskSpec.builder("d", args -> ((byte[]) args.get(0)).length).dependsOn("p").build()));

            assertThatThrownBy(() -> fs.get(1).get(20, TimeUnit.SECONDS))
                    .as(() -> "d's outcome, p having run " + producerRuns.get() + " times")
                    .isInstanceOf(ExecutionException.class)
                    .rootCause().isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("'p' on worker 0, whose own copy could not be read");
            assertThat(producerRuns.get()).as("runs of p").isEqualTo(retries + 1);
        } finally {
            s.close();
            workers.forEach(ClusterWorker::shutdown);
            local.close();
        }
    }

    private static TaskState.State state(GraphScheduler s, String key) {
        return s.inspectTasks((tasks, ws) -> tasks.get(key).state);
    }
}
