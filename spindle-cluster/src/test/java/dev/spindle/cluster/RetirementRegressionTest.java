/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static dev.spindle.cluster.HandDriven.reply;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Defects found in the session-26 review of retirement: a worker that retires while the workers
 * that should copy its values are lost, join or rejoin. Driven by hand: the test plays every
 * worker through a {@link RecordingTransport}. Each test failed on the code before its fix
 * (docs/measurements/2026-11-29-s26/cluster-review-before-after.txt).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RetirementRegressionTest {

    private static long replicates(RecordingTransport t, int worker, String key) {
        return t.sentToWorkers().stream()
                .filter(x -> x.worker() == worker && x.message() instanceof Message.Replicate r && r.key().equals(key))
                .count();
    }

    /** Computes {@code a} on worker 0 alone, then starts retiring worker 0; returns its completion. */
    private static CompletableFuture<Void> aOnWorker0ThenRetire0(GraphScheduler s, RecordingTransport t) {
        s.submit(List.of(TaskSpec.builder("a", args -> 1).restrictions(Restrictions.strict(Set.of(0))).build()));
        Message.Compute a = (Message.Compute) t.sentToWorkers().get(0).message();
        reply(s, new Message.TaskFinished(0, "a", a.attempt(), 1, 4, 1000));
        return s.retire(0);
    }

    /**
     * The copy of a retiring worker's only value was asked of worker 1, which was lost before it
     * answered and then rejoined under its id. The retirement took the rejoined worker for the one
     * it had asked and waited for ever for a copy nobody was making.
     */
    @Test
    void aCopyAskedOfAWorkerThatWasLostAndRejoinedIsAskedOfItsNewIncarnation() {
        RecordingTransport t = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).build(), t);
        try {
            CompletableFuture<Void> gone = aOnWorker0ThenRetire0(s, t);
            assertThat(replicates(t, 1, "a")).as("worker 1 asked for a copy of a").isEqualTo(1);
            reply(s, new Message.WorkerLost(1));             // before its copy landed
            s.join(1, 1);                                    // a fresh process under id 1, holding nothing
            reply(s, new Message.MemoryReport(1, 0, 0, false));   // any later event
            assertThat(replicates(t, 1, "a")).as("the rejoined worker 1 asked for a copy of a").isEqualTo(2);
            reply(s, new Message.DataAdded(1, "a", 4));
            assertThat(gone).as("worker 0 retired once its value has a copy").succeedsWithin(Duration.ofSeconds(30));
        } finally {
            s.close();
        }
    }

    /**
     * Worker 0 retires while its only peer is lost, so its value has nowhere to go; a new worker
     * joins. Nothing but a later worker message advanced the retirement, so with nothing else
     * happening the new worker was never asked for the copy and the retirement never ended.
     */
    @Test
    void aWorkerJoiningWhileARetirementWaitsForAPeerIsAskedForTheCopyAtOnce() {
        RecordingTransport t = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).build(), t);
        try {
            CompletableFuture<Void> gone = aOnWorker0ThenRetire0(s, t);
            reply(s, new Message.WorkerLost(1));
            s.join(2, 1);
            s.stealEvents();                                 // a barrier: the join has been handled
            assertThat(replicates(t, 2, "a")).as("the joining worker 2 asked for a copy of a").isEqualTo(1);
            reply(s, new Message.DataAdded(2, "a", 4));
            assertThat(gone).as("worker 0 retired once its value has a copy").succeedsWithin(Duration.ofSeconds(30));
        } finally {
            s.close();
        }
    }

    /**
     * A retirement moves a queued task off the worker with a steal request; when the task finished
     * before the reply came, the reply was counted (and logged) as a stale steal, though no steal
     * had been requested: the stats had more stale steals than steals.
     */
    @Test
    void aRetirementMoveOvertakenByTheTasksEndIsNotCountedAsAStaleSteal() {
        RecordingTransport t = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).build(), t);
        try {
            s.submit(List.of(TaskSpec.builder("b", args -> 1).restrictions(Restrictions.loose(Set.of(0))).build()));
            Message.Compute b = (Message.Compute) t.sentToWorkers().get(0).message();
            assertThat(t.sentToWorkers().get(0).worker()).isZero();
            s.retire(0);
            Message.StealRequest move = t.sentToWorkers().stream()
                    .filter(x -> x.message() instanceof Message.StealRequest).map(x -> (Message.StealRequest) x.message())
                    .findFirst().orElseThrow();
            // b had started: it finishes there, and the reply to the move comes after
            reply(s, new Message.TaskFinished(0, "b", b.attempt(), 1, 4, 1000));
            reply(s, new Message.StealResponse(0, move.stealId(), "b", b.attempt(), false));
            ClusterStats stats = s.stats();
            assertThat(stats.stealsStale()).as("stale steals of %d requested (log: %s)", stats.stealsRequested(),
                    s.stealEvents()).isZero();
            assertThat(s.stealEvents()).isEmpty();
        } finally {
            s.close();
        }
    }

    /**
     * A task only the retiring worker may run stays there (nowhere else may run it); when it erred
     * with a retry left, the retry found no worker "alive and not retiring" and the task failed
     * for good with that error instead of its own, its retry never run.
     */
    @Test
    void aTaskOnlyItsRetiringWorkerMayRunGetsItsRetryThere() {
        RecordingTransport t = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).build(), t);   // retries(1)
        try {
            CompletableFuture<Object> f = s.submit(List.of(TaskSpec.builder("s", args -> 1)
                    .restrictions(Restrictions.strict(Set.of(0))).build())).get(0);
            Message.Compute first = (Message.Compute) t.sentToWorkers().get(0).message();
            s.retire(0);
            reply(s, new Message.TaskErred(0, "s", first.attempt(), new IllegalArgumentException("flaky"), 1000));
            List<Message.Compute> runs = t.sentToWorkers().stream()
                    .filter(x -> x.worker() == 0 && x.message() instanceof Message.Compute c && c.key().equals("s"))
                    .map(x -> (Message.Compute) x.message()).toList();
            assertThat(runs).as("s retried on worker 0 (its future: %s)", f).hasSize(2);
            reply(s, new Message.TaskFinished(0, "s", runs.get(1).attempt(), 1, 4, 1000));
            assertThat(f).succeedsWithin(Duration.ofSeconds(30)).isEqualTo(1);
        } finally {
            s.close();
        }
    }

    /**
     * Worker 0 retires while it runs a task only it may run, and the only other worker is lost:
     * the lost worker's task had no active worker left and failed ("no allowed worker is alive
     * and not retiring"), although worker 0 was alive and could run it before it leaves.
     */
    @Test
    void aTaskWithNoActiveWorkerLeftRunsOnAWorkerThatIsRetiringInsteadOfFailing() {
        RecordingTransport t = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).build(), t);
        try {
            s.submit(List.of(TaskSpec.builder("stay", args -> 0).restrictions(Restrictions.strict(Set.of(0))).build()));
            CompletableFuture<Object> b = s.submit(List.of(TaskSpec.builder("b", args -> 2)
                    .restrictions(Restrictions.strict(Set.of(1))).build())).get(0);
            s.submit(List.of(TaskSpec.builder("c", args -> 3).restrictions(Restrictions.loose(Set.of(1))).build()));
            CompletableFuture<Void> gone = s.retire(0);
            reply(s, new Message.WorkerLost(1));
            List<Message.Compute> onZero = t.sentToWorkers().stream()
                    .filter(x -> x.worker() == 0 && x.message() instanceof Message.Compute m && m.key().equals("c"))
                    .map(x -> (Message.Compute) x.message()).toList();
            assertThat(onZero).as("c, whose worker was lost, sent to the retiring worker 0 (stats: %s)", s.stats())
                    .hasSize(1);
            // completed by the scheduler's notifier thread, after the event: waited for, not sampled
            assertThat(b).as("b may run on worker 1 only, which is gone").failsWithin(Duration.ofSeconds(30));
            reply(s, new Message.TaskFinished(0, "c", onZero.get(0).attempt(), 3, 4, 1000));
            Message.Compute stay = (Message.Compute) t.sentToWorkers().get(0).message();
            reply(s, new Message.TaskFinished(0, "stay", stay.attempt(), 0, 4, 1000));
            s.releaseFuture("c");
            s.releaseFuture("stay");
            assertThat(gone).as("worker 0 retires once its tasks are done and its values released")
                    .succeedsWithin(Duration.ofSeconds(30));
        } finally {
            s.close();
        }
    }
}
