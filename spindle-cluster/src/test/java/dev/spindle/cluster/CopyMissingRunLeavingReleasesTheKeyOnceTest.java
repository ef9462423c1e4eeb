/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static dev.spindle.cluster.HandDriven.reply;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A lost result computed again on a worker that had reported its own copy of the key missing
 * ({@link TaskState#copyMissingOn}): when that run failed, or a retried submitter's resubmission
 * replaced its record, the worker was told to drop the key twice, once as the run left it without
 * storing its value and once for the failure (or the replacement). Harmless to the worker, but each
 * release is counted ({@link Message.Compute#releases}) and the scheduler's bookkeeping said two
 * where one was meant. One now. Driven by hand (the resubmission from a real worker's task).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CopyMissingRunLeavingReleasesTheKeyOnceTest {

    @Test
    void aFailingRunWhereItsOwnCopyWasReportedMissingReleasesTheKeyOnce() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).build(), wire);
        try {
            HandDriven.RecomputedOnItsFetcher lost = HandDriven.recomputedOnItsFetcher(s, wire);
            Message.Compute t = wire.lastCompute("t");
            // worker 1, which computes d again, could not read the copy it fetched before the loss
            reply(s, new Message.DataMissing(1, "t", t.attempt(), "d", 1));
            assertThat(copyMissingOn(s, "d")).isEqualTo(1);
            int sent = wire.sentToWorkers().size();

            reply(s, new Message.TaskErred(1, "d", lost.again().attempt(), new IllegalStateException("boom"), 1000));

            assertThat(releases(wire, sent, 1, "d")).as("the releases of d sent to worker 1 for the failure")
                    .isEqualTo(1);
            List<Integer> holders = s.inspectTasks((tasks, ws) -> new ArrayList<>(tasks.get("d").holders));
            assertThat(holders).isEmpty();
            s.checkCountsForTests();
        } finally {
            s.close();
        }
    }

    @Test
    void aRunReplacedByAResubmissionWhereItsOwnCopyWasReportedMissingReleasesTheKeyOnce() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(3).build(), wire);
        // worker 2 is a real one, which runs p: each run of p submits k
        ClusterWorker runner = new ClusterWorker(2, 1, wire);
        AtomicReference<GraphScheduler> scheduler = new AtomicReference<>(s);
        try {
            s.submit(List.of(TaskSpec.builder("p", args -> {
                scheduler.get().submit(List.of(TaskSpec.builder("k", a -> 1)
                        .restrictions(Restrictions.loose(Set.of(0, 1))).build()));
                return "p";
            }).restrictions(Restrictions.strict(Set.of(2))).build()));
            Message.Compute first = wire.lastCompute("p");
            runner.receive(first);
            wire.awaitFinished("p", first.attempt());   // not delivered: its first attempt fails below
            int kOn = wire.workerOfLastCompute("k");
            int other = 1 - kOn;
            reply(s, new Message.TaskFinished(kOn, "k", wire.lastCompute("k").attempt(), 1, 8, 1000));

            // k computed again on the worker that fetched it before the loss, which then reports
            // that copy missing (lost as it served a fetch) while k runs there
            s.submit(List.of(
                    TaskSpec.builder("t", args -> 2).dependsOn("k").restrictions(Restrictions.strict(Set.of(other)))
                            .build(),
                    TaskSpec.builder("u", args -> 3).dependsOn("k").restrictions(Restrictions.loose(Set.of(kOn)))
                            .build()));
            Message.Compute t = wire.lastCompute("t");
            reply(s, new Message.WorkerLost(kOn));
            assertThat(wire.workerOfLastCompute("k")).as("k computed again").isEqualTo(other);
            reply(s, new Message.DataMissing(other, "k", 0, "k", other));
            assertThat(copyMissingOn(s, "k")).isEqualTo(other);

            // no pending task needs k any more: t ends, u is cancelled
            reply(s, new Message.TaskFinished(other, "t", t.attempt(), 2, 8, 1000));
            s.releaseFuture("u", true);

            // p's first attempt fails; its retry submits k again, which replaces the record
            int toRunner = wire.sentToWorkers().size();
            reply(s, new Message.TaskErred(2, "p", first.attempt(), new IllegalStateException("boom"), 1000));
            Message.Compute retry = wire.lastCompute("p");
            assertThat(retry.attempt()).isGreaterThan(first.attempt());
            long record = recordOf(s, "k");
            int sent = wire.sentToWorkers().size();
            for (RecordingTransport.Sent m : wire.sentToWorkers().subList(toRunner, sent)) {
                if (m.worker() == 2) {
                    runner.receive(m.message());   // the release of p's failed attempt, then the retry
                }
            }
            wire.awaitFinished("p", retry.attempt());
            s.taskRecords();                  // a barrier

            assertThat(recordOf(s, "k")).as("k's record, replaced by the resubmission").isGreaterThan(record);
            assertThat(releases(wire, sent, other, "k"))
                    .as("the releases of k sent to worker %d, whose run of k the resubmission abandons", other)
                    .isEqualTo(1);
            s.checkCountsForTests();
        } finally {
            runner.shutdown();
            s.close();
        }
    }

    private static int copyMissingOn(GraphScheduler s, String key) {
        return s.inspectTasks((tasks, ws) -> tasks.get(key).copyMissingOn);
    }

    private static long recordOf(GraphScheduler s, String key) {
        return s.inspectTasks((tasks, ws) -> tasks.get(key).record);
    }

    private static long releases(RecordingTransport wire, int from, int worker, String key) {
        List<RecordingTransport.Sent> after = wire.sentToWorkers().subList(from, wire.sentToWorkers().size());
        return after.stream().filter(m -> m.worker() == worker && m.message() instanceof Message.ReleaseKey r
                && r.key().equals(key)).count();
    }
}
