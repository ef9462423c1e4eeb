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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A task waiting for a worker to join (CoordinatorSettings.noWorkerTimeout) keeps its inputs: its
 * end, run on the worker that joins or failed when its wait is over, may release them on a worker
 * stalled on memory, as the end of a running task may. Nothing counted it as progress, so the
 * tasks queued on that worker were failed at once as ones nothing could ever start, although the
 * waiting task's end unstalls the worker; when it failed at once, before it could wait, they ran.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StalledWorkerWaitsForTheEndOfAWaitForAWorkerTest {

    private static final long MB = 1_000_000;
    private static final long LIMIT = 10 * MB;

    /** v on worker 0, 'uses-v' waiting for worker 1 (lost), worker 0 stalled, 'pinned' queued there. */
    private static List<CompletableFuture<Object>> stalledWhileUsesVWaits(GraphScheduler s, RecordingTransport wire,
            boolean releaseV) throws Exception {
        CompletableFuture<Object> v = s.submit(List.of(TaskSpec.builder("v", args -> 1)
                .restrictions(Restrictions.strict(Set.of(0))).build())).get(0);
        reply(s, new Message.TaskFinished(0, "v", wire.lastCompute("v").attempt(), 1, 4, 1000));
        assertThat(v.get(10, TimeUnit.SECONDS)).isEqualTo(1);
        reply(s, new Message.WorkerLost(1));
        CompletableFuture<Object> usesV = s.submit(List.of(TaskSpec.builder("uses-v", args -> 2).dependsOn("v")
                .restrictions(Restrictions.strict(Set.of(1))).build())).get(0);
        if (releaseV) {
            s.releaseFuture("v");             // only 'uses-v' needs v: its end frees worker 0
        }
        reply(s, new Message.MemoryStall(0, true, 0, 9 * MB, LIMIT));
        CompletableFuture<Object> pinned = s.submit(List.of(TaskSpec.builder("pinned", args -> 3)
                .restrictions(Restrictions.strict(Set.of(0))).build())).get(0);
        s.stealEvents();
        return List.of(usesV, pinned);
    }

    @Test
    void aTaskQueuedOnTheStalledWorkerRunsOnceTheWaitingTaskRunsOnTheWorkerThatJoins() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).retries(0)
                .noWorkerTimeout(Duration.ofMinutes(10)).build(), wire);
        try {
            List<CompletableFuture<Object>> fs = stalledWhileUsesVWaits(s, wire, true);
            assertThat(withdrawals(wire, "pinned")).as("withdrawals of 'pinned' while 'uses-v', which holds"
                    + " v on worker 0, waits for a worker").isZero();
            assertThat(fs.get(1)).isNotDone();

            s.join(1, 1);
            assertThat(wire.workerOfLastCompute("uses-v")).isEqualTo(1);
            reply(s, new Message.TaskFinished(1, "uses-v", wire.lastCompute("uses-v").attempt(), 2, 4, 1000));
            assertThat(fs.get(0).get(10, TimeUnit.SECONDS)).isEqualTo(2);
            assertThat(wire.sentToWorkers()).as("v released on worker 0, which unstalls")
                    .anyMatch(m -> m.worker() == 0 && m.message() instanceof Message.ReleaseKey r && r.key().equals("v"));
            reply(s, new Message.TaskFinished(0, "pinned", wire.lastCompute("pinned").attempt(), 3, 4, 1000));
            assertThat(fs.get(1).get(10, TimeUnit.SECONDS)).isEqualTo(3);
        } finally {
            s.close();
        }
    }

    @Test
    void aTaskQueuedOnTheStalledWorkerIsWithdrawnOnceAWaitThatFreesNothingEnds() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).retries(0)
                .noWorkerTimeout(Duration.ofMillis(300)).build(), wire);
        try {
            // the client keeps v: the end of 'uses-v''s wait releases nothing, and nothing else can
            List<CompletableFuture<Object>> fs = stalledWhileUsesVWaits(s, wire, false);
            assertThat(fs.get(0)).failsWithin(Duration.ofSeconds(10));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (withdrawals(wire, "pinned") == 0 && System.nanoTime() - deadline < 0) {
                Thread.sleep(10);             // no event comes: the end of the wait itself looks at the stall
            }
            assertThat(withdrawals(wire, "pinned")).as("withdrawals of 'pinned' once nothing can make progress")
                    .isEqualTo(1);
            Message.StealRequest w = wire.sentToWorkers().stream().map(RecordingTransport.Sent::message)
                    .filter(m -> m instanceof Message.StealRequest r && r.key().equals("pinned"))
                    .map(Message.StealRequest.class::cast).findFirst().orElseThrow();
            reply(s, new Message.StealResponse(0, w.stealId(), "pinned", w.attempt(), true));
            assertThat(fs.get(1)).failsWithin(Duration.ofSeconds(10))
                    .withThrowableOfType(ExecutionException.class).havingRootCause()
                    .isInstanceOf(IllegalStateException.class).withMessageContaining("cannot spill");
        } finally {
            s.close();
        }
    }

    private static long withdrawals(RecordingTransport wire, String key) {
        return wire.sentToWorkers().stream().map(RecordingTransport.Sent::message)
                .filter(m -> m instanceof Message.StealRequest r && r.key().equals(key) && r.stealId() < 0).count();
    }
}
