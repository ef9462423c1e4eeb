/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static dev.spindle.cluster.HandDriven.reply;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker whose fetch of an input from another worker fails every time while both stay alive (a
 * network split between the two that both still reach the coordinator, a value whose serialisation
 * always fails on its holder, a fetch service shut down there). Each report took the holder's copy
 * for gone and had the producer computed again, on the same holder, with no limit: the producer ran
 * for good and the dependent's future never completed. Now those failures count against the
 * dependent's retries, and once over them it errs naming the input, the workers and the count.
 * p may run only on worker 0, d only on worker 1, and no fetch from worker 0 to worker 1 succeeds:
 * played by hand, and with real workers on the in-process transport.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FetchFailingFromALiveHolderIsBoundedTest {

    /** Far more rounds than any bound allows: the loop, unbounded, goes on through all of them. */
    private static final int ROUNDS = 50;

    @Test
    void aDependentWhoseInputNeverArrivesFromALiveHolderErrsAfterItsRetries() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        int retries = 2;
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).retries(retries).build(), wire);
        try {
            List<CompletableFuture<Object>> fs = s.submit(List.of(
                    TaskSpec.builder("p", args -> 1).restrictions(Restrictions.strict(Set.of(0))).build(),
                    TaskSpec.builder("d", args -> 2).dependsOn("p").restrictions(Restrictions.strict(Set.of(1)))
                            .build()));
            int producerRuns = 0;
            for (int round = 0; round < ROUNDS && state(s, "d") != TaskState.State.ERRED; round++) {
                Message.Compute p = wire.lastCompute("p");
                assertThat(wire.workerOfLastCompute("p")).isEqualTo(0);
                producerRuns++;
                reply(s, new Message.TaskFinished(0, "p", p.attempt(), 1, 8, 1000));
                Message.Compute d = wire.lastCompute("d");
                assertThat(wire.workerOfLastCompute("d")).isEqualTo(1);
                assertThat(d.holders()).as("d's assignment names worker 0 as p's holder")
                        .containsEntry("p", List.of(0));
                reply(s, new Message.DataMissing(1, "d", d.attempt(), "p", 0));
            }

            assertThat(state(s, "d")).as("d, whose input never arrives, after %d rounds", ROUNDS)
                    .isEqualTo(TaskState.State.ERRED);
            assertThat(producerRuns).as("runs of p").isEqualTo(retries + 1);
            assertThatThrownBy(() -> fs.get(1).get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .rootCause().isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("'d'").hasMessageContaining("'p'").hasMessageContaining("worker 0")
                    .hasMessageContaining("worker 1").hasMessageContaining((retries + 1) + " times");
            assertThat(fs.get(0).get(10, TimeUnit.SECONDS)).as("p itself, computed fine").isEqualTo(1);
            s.checkCountsForTests();
        } finally {
            s.close();
        }
    }

    /**
     * Up to the retries, a copy reported missing is still computed again (its holder may well
     * have dropped it), and a fetch that then succeeds runs the dependent.
     */
    @Test
    void aLostCopyIsStillComputedAgainWithinTheRetries() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        int retries = 2;
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).retries(retries).build(), wire);
        try {
            List<CompletableFuture<Object>> fs = s.submit(List.of(
                    TaskSpec.builder("p", args -> 1).restrictions(Restrictions.strict(Set.of(0))).build(),
                    TaskSpec.builder("d", args -> 2).dependsOn("p").restrictions(Restrictions.strict(Set.of(1)))
                            .build()));
            for (int failure = 0; failure < retries; failure++) {
                reply(s, new Message.TaskFinished(0, "p", wire.lastCompute("p").attempt(), 1, 8, 1000));
                reply(s, new Message.DataMissing(1, "d", wire.lastCompute("d").attempt(), "p", 0));
            }
            reply(s, new Message.TaskFinished(0, "p", wire.lastCompute("p").attempt(), 1, 8, 1000));
            reply(s, new Message.DataAdded(1, "p", 8));
            reply(s, new Message.TaskFinished(1, "d", wire.lastCompute("d").attempt(), 2, 8, 1000));
            assertThat(fs.get(1).get(10, TimeUnit.SECONDS)).isEqualTo(2);
            s.checkCountsForTests();
        } finally {
            s.close();
        }
    }

    /**
     * The same split with real workers: the in-process transport, but every fetch worker 1 makes
     * from worker 0 fails at once. Unbounded, p ran thousands of times a second and d never ended.
     */
    @Test
    void realWorkersSplitApartGiveUpOnTheInputAfterTheRetries() throws Exception {
        LocalTransport local = new LocalTransport(100e6, TimeUnit.MILLISECONDS.toNanos(1));
        Transport split = new Split(local);
        int retries = 2;
        List<ClusterWorker> workers = List.of(new ClusterWorker(0, 1, split), new ClusterWorker(1, 1, split));
        GraphScheduler s = new GraphScheduler(CoordinatorSettings.builder().workers(2).threadsPerWorker(1)
                .stealing(false).balanceInterval(Duration.ZERO).retries(retries).build(), split);
        workers.forEach(w -> w.serves(s));
        local.connect(workers, s::receive);
        AtomicInteger producerRuns = new AtomicInteger();
        try {
            List<CompletableFuture<Object>> fs = s.submit(List.of(
                    TaskSpec.builder("p", args -> producerRuns.incrementAndGet())
                            .restrictions(Restrictions.strict(Set.of(0))).build(),
                    TaskSpec.builder("d", args -> args.get(0)).dependsOn("p")
                            .restrictions(Restrictions.strict(Set.of(1))).build()));

            assertThatThrownBy(() -> fs.get(1).get(20, TimeUnit.SECONDS))
                    .as(() -> "d's outcome, p having run " + producerRuns.get() + " times")
                    .isInstanceOf(ExecutionException.class)
                    .rootCause().isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("'p' from worker 0 on worker 1");
            assertThat(producerRuns.get()).as("runs of p").isEqualTo(retries + 1);
        } finally {
            s.close();
            workers.forEach(ClusterWorker::shutdown);
            local.close();
        }
    }

    /** The in-process transport, but worker 1 can fetch nothing from worker 0 (both stay alive). */
    private record Split(LocalTransport local) implements Transport {
        @Override
        public void toWorker(int worker, Message.ToWorker message) {
            local.toWorker(worker, message);
        }

        @Override
        public void toScheduler(Message.ToScheduler message) {
            local.toScheduler(message);
        }

        @Override
        public CompletableFuture<Object> fetch(String key, int holder, int requester) {
            return holder == 0 && requester == 1
                    ? CompletableFuture.failedFuture(new IllegalStateException("worker 0 is out of reach"))
                    : local.fetch(key, holder, requester);
        }

        @Override
        public void flush() {
            local.flush();
        }

        @Override
        public void workerLost(int worker) {
            local.workerLost(worker);
        }

        @Override
        public void retired(int worker) {
            local.retired(worker);
        }

        @Override
        public long bytesTransferred() {
            return local.bytesTransferred();
        }

        @Override
        public void close() {
            local.close();
        }
    }

    private static TaskState.State state(GraphScheduler s, String key) {
        return s.inspectTasks((tasks, ws) -> tasks.get(key).state);
    }
}
