/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static dev.spindle.cluster.HandDriven.reply;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A task cancelled ({@link ClusterFuture#cancel}) after it was sent to its worker, and that no
 * pending task needs, is asked back from that worker by the steal protocol's request (the one a
 * withdrawal or a retirement's move sends): given up unstarted, it is forgotten as one cancelled
 * before it was sent (no longer processing there, its inputs released, no record kept, a late
 * report of its attempt ignored); started, it runs to its end and its value is released then.
 * Before, nothing reached the worker: the task ran there for nobody. Driven by hand.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CancelReachesTheWorkerTest {

    /** What {@link ClusterFuture#cancel} does with the scheduler's future and the scheduler. */
    private static void cancel(GraphScheduler s, CompletableFuture<Object> f, String key) {
        assertThat(f.completeExceptionally(new CancellationException())).isTrue();
        s.releaseFuture(key, true);
        s.taskRecords();                      // a barrier
    }

    private static List<Message.StealRequest> stealRequests(RecordingTransport wire, int worker, String key) {
        return wire.sentToWorkers().stream()
                .filter(m -> m.worker() == worker && m.message() instanceof Message.StealRequest r && r.key().equals(key))
                .map(m -> (Message.StealRequest) m.message()).toList();
    }

    private static int processing(GraphScheduler s) {
        return s.inspect((ws, d) -> ws.stream().mapToInt(w -> w.processing.size()).sum());
    }

    /** 'in' on worker 0, finished and released by the client; 't', needing it, sent to worker 0. */
    private static List<CompletableFuture<Object>> inAndT(GraphScheduler s, RecordingTransport wire) throws Exception {
        List<CompletableFuture<Object>> fs = s.submit(List.of(
                TaskSpec.builder("in", args -> 1).build(),
                TaskSpec.builder("t", args -> 2).dependsOn("in").build()));
        s.releaseFuture("in");                // only 't' needs it now
        reply(s, new Message.TaskFinished(0, "in", wire.lastCompute("in").attempt(), 1, 8, 1000));
        assertThat(wire.workerOfLastCompute("t")).as("'t' sent to worker 0").isEqualTo(0);
        return fs;
    }

    @Test
    void aCancelledTaskItsWorkerGivesUpUnstartedIsForgotten() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(1).forgetReleased(true).build(), wire);
        try {
            List<CompletableFuture<Object>> fs = inAndT(s, wire);
            long attempt = wire.lastCompute("t").attempt();

            cancel(s, fs.get(1), "t");
            List<Message.StealRequest> asked = stealRequests(wire, 0, "t");
            assertThat(asked).as("worker 0 asked to give 't' up").hasSize(1);
            assertThat(asked.get(0).attempt()).isEqualTo(attempt);
            assertThat(processing(s)).as("'t' processing until its worker answers").isEqualTo(1);

            reply(s, new Message.StealResponse(0, asked.get(0).stealId(), "t", attempt, true));
            assertThat(processing(s)).as("'t' given up: processing nowhere").isZero();
            assertThat(wire.releasedOn(0, "in")).as("'in', needed by nobody now, released on its holder").isTrue();
            assertThat(s.retainedForTests()).containsEntry("tasks", 0).containsEntry("holds", 0)
                    .containsEntry("inFlight", 0);
            assertThat(s.stats().stealsRequested()).as("not a steal").isZero();
            assertThat(s.stats().tasksCancelled()).as("'t', forgotten unstarted").isEqualTo(1);
            assertThat(s.stats().tasksReleased()).as("'in' alone had a result to free").isEqualTo(1);

            // a report of the given-up attempt (a worker's word, or a hostile peer's) brings nothing back
            reply(s, new Message.TaskFinished(0, "t", attempt, 2, 8, 1000));
            assertThat(s.stats().tasksInMemory()).isZero();
            assertThat(s.retainedForTests()).containsEntry("tasks", 0).containsEntry("holds", 0);
            assertThat(wire.releasedOn(0, "t")).as("the copy it reports, dropped").isTrue();
            assertThat(wire.lastCompute("t").attempt()).as("never sent again").isEqualTo(attempt);
        } finally {
            s.close();
        }
    }

    @Test
    void aCancelledTaskThatStartedRunsToItsEndAndItsValueIsReleased() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(1).build(), wire);
        try {
            List<CompletableFuture<Object>> fs = inAndT(s, wire);
            long attempt = wire.lastCompute("t").attempt();

            cancel(s, fs.get(1), "t");
            List<Message.StealRequest> asked = stealRequests(wire, 0, "t");
            assertThat(asked).hasSize(1);
            reply(s, new Message.StealResponse(0, asked.get(0).stealId(), "t", attempt, false));   // started
            assertThat(processing(s)).as("'t' runs on").isEqualTo(1);
            assertThat(s.stats().stealsRejected()).as("not a steal").isZero();

            s.releaseFuture("nothing");       // another event: 't' is not asked again
            s.taskRecords();
            assertThat(stealRequests(wire, 0, "t")).hasSize(1);

            reply(s, new Message.TaskFinished(0, "t", attempt, 2, 8, 1000));
            assertThat(processing(s)).isZero();
            assertThat(s.stats().tasksInMemory()).as("its value is not kept").isZero();
            assertThat(wire.releasedOn(0, "t")).as("released on its worker").isTrue();
            assertThat(wire.releasedOn(0, "in")).isTrue();
            assertThat(s.retainedForTests()).containsEntry("holds", 0);
            assertThat(s.stats().tasksCancelled()).as("'t' ran").isZero();
            assertThat(s.stats().tasksReleased()).as("'in' and 't'").isEqualTo(2);
        } finally {
            s.close();
        }
    }

    @Test
    void aCancelledTaskAPendingTaskNeedsIsNotAskedBackAndRuns() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(1).build(), wire);
        try {
            List<CompletableFuture<Object>> fs = s.submit(List.of(
                    TaskSpec.builder("t", args -> 1).build(),
                    TaskSpec.builder("u", args -> 2).dependsOn("t").build()));
            long attempt = wire.lastCompute("t").attempt();
            cancel(s, fs.get(0), "t");
            assertThat(stealRequests(wire, 0, "t")).as("'u' needs 't'").isEmpty();

            reply(s, new Message.TaskFinished(0, "t", attempt, 1, 8, 1000));
            assertThat(wire.lastCompute("u")).as("'u' runs on 't'").isNotNull();
            assertThat(s.stats().tasksCancelled()).isZero();
        } finally {
            s.close();
        }
    }

    /**
     * Needed when cancelled, a task is asked back once its last pending dependent goes: that
     * dependent was cancelled too while it waited for it.
     */
    @Test
    void aCancelledTaskWhoseLastDependentIsCancelledIsAskedBack() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(1).forgetReleased(true).build(), wire);
        try {
            List<CompletableFuture<Object>> fs = s.submit(List.of(
                    TaskSpec.builder("t", args -> 1).build(),
                    TaskSpec.builder("u", args -> 2).dependsOn("t").build()));
            long attempt = wire.lastCompute("t").attempt();
            cancel(s, fs.get(0), "t");
            assertThat(stealRequests(wire, 0, "t")).isEmpty();

            cancel(s, fs.get(1), "u");        // 'u' waits for 't': forgotten, and 't' is needed by nobody
            List<Message.StealRequest> asked = stealRequests(wire, 0, "t");
            assertThat(asked).as("worker 0 asked to give 't' up").hasSize(1);
            reply(s, new Message.StealResponse(0, asked.get(0).stealId(), "t", attempt, true));
            assertThat(processing(s)).isZero();
            assertThat(s.retainedForTests()).containsEntry("tasks", 0).containsEntry("inFlight", 0);
            assertThat(s.stats().tasksCancelled()).as("'u' and 't'").isEqualTo(2);
        } finally {
            s.close();
        }
    }

    /** A worker lost while it is asked: the task comes back unstarted and is forgotten, not placed again. */
    @Test
    void aCancelledTaskWhoseWorkerIsLostWhileAskedIsForgotten() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).forgetReleased(true).build(), wire);
        try {
            List<CompletableFuture<Object>> fs = s.submit(List.of(
                    TaskSpec.builder("t", args -> 1).restrictions(Restrictions.loose(Set.of(1))).build()));
            assertThat(wire.workerOfLastCompute("t")).isEqualTo(1);
            cancel(s, fs.get(0), "t");
            assertThat(stealRequests(wire, 1, "t")).hasSize(1);
            reply(s, new Message.WorkerLost(1));
            assertThat(wire.workerOfLastCompute("t")).as("not placed on worker 0").isEqualTo(1);
            assertThat(s.retainedForTests()).containsEntry("tasks", 0).containsEntry("inFlight", 0)
                    .containsEntry("processing", 0);
            assertThat(s.stats().tasksCancelled()).isEqualTo(1);
        } finally {
            s.close();
        }
    }
}
