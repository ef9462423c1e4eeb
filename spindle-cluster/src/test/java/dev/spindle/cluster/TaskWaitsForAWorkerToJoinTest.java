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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A task ready to run that no live worker may run (its strict restrictions name only gone
 * workers, or no worker is alive) waits for one to join, up to
 * {@link CoordinatorSettings#noWorkerTimeout()}, as Dask keeps it in its {@code no-worker} state:
 * a worker restarted under its id, or the only worker of a cluster coming back, then runs it. It
 * failed at once with "no allowed worker is alive" before, so a worker's restart failed every task
 * only it could run. Driven by hand, but for the last case.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TaskWaitsForAWorkerToJoinTest {

    private static final Duration LONG_WAIT = Duration.ofSeconds(50);

    private static GraphScheduler scheduler(int workers, Duration wait, RecordingTransport wire) {
        return new GraphScheduler(HandDriven.settings(workers).noWorkerTimeout(wait).build(), wire);
    }

    @Test
    void aTaskRestrictedToALostWorkerRunsOnceItRejoins() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = scheduler(2, LONG_WAIT, wire);
        try {
            reply(s, new Message.WorkerLost(1));
            CompletableFuture<Object> g = s.submit(List.of(TaskSpec.builder("g", args -> 7)
                    .restrictions(Restrictions.strict(Set.of(1))).build())).get(0);
            assertThat(s.stats().tasksAwaitingWorker()).as("g waits for worker 1").isEqualTo(1);
            assertThat(g).as("g waits for worker 1 instead of failing").isNotDone();
            assertThat(wire.lastCompute("g")).as("sent nowhere while it waits").isNull();

            s.join(1, 1);
            Message.Compute c = wire.lastCompute("g");
            assertThat(c).as("placed on the worker that rejoined").isNotNull();
            assertThat(wire.workerOfLastCompute("g")).isEqualTo(1);
            reply(s, new Message.TaskFinished(1, "g", c.attempt(), 7, 4, 1000));
            assertThat(g.get(10, TimeUnit.SECONDS)).isEqualTo(7);
            assertThat(s.stats().tasksAwaitingWorker()).isZero();
        } finally {
            s.close();
        }
    }

    @Test
    void theTaskOfACrashedOnlyWorkerRunsAgainWhenItComesBack() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = scheduler(1, LONG_WAIT, wire);
        try {
            CompletableFuture<Object> a = s.submit(List.of(TaskSpec.builder("a", args -> 1).build())).get(0);
            long first = wire.lastCompute("a").attempt();
            reply(s, new Message.WorkerLost(0));
            assertThat(a).as("no worker is alive: a waits for one").isNotDone();
            assertThat(s.stats().tasksAwaitingWorker()).isEqualTo(1);

            s.join(0, 1);
            Message.Compute again = wire.lastCompute("a");
            assertThat(again.attempt()).as("a new attempt on the new incarnation").isNotEqualTo(first);
            reply(s, new Message.TaskFinished(0, "a", again.attempt(), 1, 4, 1000));
            assertThat(a.get(10, TimeUnit.SECONDS)).isEqualTo(1);
        } finally {
            s.close();
        }
    }

    @Test
    void theInputsOfAWaitingTaskStayHeldUntilItRuns() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = scheduler(2, LONG_WAIT, wire);
        try {
            reply(s, new Message.WorkerLost(1));
            List<CompletableFuture<Object>> fs = s.submit(List.of(
                    TaskSpec.builder("in", args -> 1).restrictions(Restrictions.strict(Set.of(0))).build(),
                    TaskSpec.builder("out", args -> 2).dependsOn("in").restrictions(Restrictions.strict(Set.of(1)))
                            .build()));
            s.releaseFuture("in");
            reply(s, new Message.TaskFinished(0, "in", wire.lastCompute("in").attempt(), 1, 4, 1000));
            assertThat(fs.get(1)).isNotDone();
            assertThat(wire.sentToWorkers()).as("'in' is kept for 'out', which waits for worker 1")
                    .noneMatch(m -> m.message() instanceof Message.ReleaseKey r && r.key().equals("in"));

            s.join(1, 1);
            Message.Compute out = wire.lastCompute("out");
            assertThat(wire.workerOfLastCompute("out")).isEqualTo(1);
            assertThat(out.holders()).as("fetched from worker 0").containsEntry("in", List.of(0));
            reply(s, new Message.DataAdded(1, "in", 4));
            reply(s, new Message.TaskFinished(1, "out", out.attempt(), 2, 4, 1000));
            assertThat(fs.get(1).get(10, TimeUnit.SECONDS)).isEqualTo(2);
            s.stealEvents();
            assertThat(wire.sentToWorkers()).as("then 'in' is released")
                    .anyMatch(m -> m.worker() == 0 && m.message() instanceof Message.ReleaseKey r
                            && r.key().equals("in"));
        } finally {
            s.close();
        }
    }

    @Test
    void aTaskWhoseWaitIsOverFailsWithItsDependentsAndIsNotRunOnALaterJoin() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        // nothing periodic (no balance rounds): the end of the wait wakes the scheduler by itself
        GraphScheduler s = scheduler(2, Duration.ofMillis(200), wire);
        try {
            reply(s, new Message.WorkerLost(1));
            List<CompletableFuture<Object>> fs = s.submit(List.of(
                    TaskSpec.builder("g", args -> 7).restrictions(Restrictions.strict(Set.of(1))).build(),
                    TaskSpec.builder("after", args -> 8).dependsOn("g").build()));
            assertThatThrownBy(() -> fs.get(0).get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .rootCause().isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("no allowed worker is alive for task 'g'")
                    .hasMessageContaining("none joined within PT0.2S (noWorkerTimeout)");
            assertThat(fs.get(1)).as("its dependent fails with it").failsWithin(Duration.ofSeconds(10));
            assertThat(s.stats().tasksAwaitingWorker()).isZero();

            s.join(1, 1);
            s.stealEvents();
            assertThat(wire.lastCompute("g")).as("a failed task is not run when a worker joins later").isNull();
        } finally {
            s.close();
        }
    }

    @Test
    void withNoWaitTheTaskFailsAtOnce() {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = scheduler(2, Duration.ZERO, wire);
        try {
            reply(s, new Message.WorkerLost(1));
            CompletableFuture<Object> g = s.submit(List.of(TaskSpec.builder("g", args -> 7)
                    .restrictions(Restrictions.strict(Set.of(1))).build())).get(0);
            assertThat(g).failsWithin(Duration.ofSeconds(10));
            assertThatThrownBy(g::join).rootCause().isInstanceOf(IllegalStateException.class)
                    .hasMessage("no allowed worker is alive for task 'g' (restrictions "
                            + Restrictions.strict(Set.of(1)) + ")");
        } finally {
            s.close();
        }
    }

    @Test
    void aWaitingTaskFailsWhenTheClusterCloses() {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = scheduler(1, LONG_WAIT, wire);
        CompletableFuture<Object> a;
        try {
            reply(s, new Message.WorkerLost(0));
            a = s.submit(List.of(TaskSpec.builder("a", args -> 1).build())).get(0);
            s.stealEvents();
            assertThat(a).isNotDone();
        } finally {
            s.close();
        }
        assertThatThrownBy(() -> a.get(10, TimeUnit.SECONDS)).rootCause()
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("the cluster closed before task 'a' finished");
    }

    @Test
    void theWaitIsASettingWithADefaultAndCheckedBounds() {
        assertThat(CoordinatorSettings.builder().build().noWorkerTimeout()).isEqualTo(Duration.ofSeconds(30));
        CoordinatorSettings set = CoordinatorSettings.builder().noWorkerTimeout(Duration.ofMinutes(2)).build();
        assertThat(CoordinatorSettings.builder().from(set).build().noWorkerTimeout()).isEqualTo(Duration.ofMinutes(2));
        assertThat(set.toString()).contains("noWorkerTimeout=PT2M");
        assertThatThrownBy(() -> CoordinatorSettings.builder().noWorkerTimeout(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("noWorkerTimeout");
        assertThatThrownBy(() -> CoordinatorSettings.builder().noWorkerTimeout(null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("noWorkerTimeout");
    }

    /** End to end: the strict task of a crashed worker waits through its restart. */
    @Test
    void aRestartedWorkerRunsTheStrictTaskSubmittedWhileItWasDown() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(2).threadsPerWorker(1).stealing(false)
                .noWorkerTimeout(LONG_WAIT).build()) {
            cluster.killWorker(1);
            ClusterFuture<Integer> g = cluster.client().submit(TaskSpec.builder("g", args -> 5)
                    .restrictions(Restrictions.strict(Set.of(1))).build());
            cluster.restartWorker(1);
            assertThat(g.get(30, TimeUnit.SECONDS)).isEqualTo(5);
        }
    }
}
