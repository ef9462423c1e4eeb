/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static dev.spindle.cluster.HandDriven.reply;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker stores a task's result before it reports it (between JVMs, a result that cannot travel
 * is stored and then reported as a failure). When the scheduler ignores that report (the task
 * failed meanwhile, because an input it was running with was lost and its recomputation failed),
 * the worker's copy is counted nowhere and nothing ever released it. Driven by hand.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LateResultRegressionTest {

    /**
     * Runs 'lr-dep' on worker 1 with an input from worker 0, then fails it while it runs: worker 0's
     * loss is known before worker 1's copy of the input is, so the input is lost, and a new dependent
     * has it computed again on worker 1, where it fails for good. Returns 'lr-dep''s attempt.
     */
    private static long dependentFailedWhileRunning(GraphScheduler s, RecordingTransport t) throws Exception {
        s.submit(List.of(TaskSpec.builder("lr-in", args -> 1).restrictions(Restrictions.loose(Set.of(0))).build()));
        Message.Compute in = t.lastCompute("lr-in");
        assertThat(t.workerOfLastCompute("lr-in")).isZero();
        reply(s, new Message.TaskFinished(0, "lr-in", in.attempt(), 1, 8, 1000));

        CompletableFuture<Object> dependent = s.submit(List.of(TaskSpec.builder("lr-dep", args -> 2)
                .dependsOn("lr-in").restrictions(Restrictions.strict(Set.of(1))).build())).get(0);
        Message.Compute dep = t.lastCompute("lr-dep");
        assertThat(t.workerOfLastCompute("lr-dep")).isEqualTo(1);

        reply(s, new Message.WorkerLost(0));
        s.submit(List.of(TaskSpec.builder("lr-other", args -> 3).dependsOn("lr-in").build()));
        Message.Compute again = t.lastCompute("lr-in");
        assertThat(again.attempt()).isNotEqualTo(in.attempt());
        reply(s, new Message.TaskErred(1, "lr-in", again.attempt(), new IllegalStateException("boom"), 1000));
        assertThatThrownBy(() -> dependent.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().hasMessage("boom");
        return dep.attempt();
    }

    @Test
    void aResultIgnoredFromALiveWorkerIsReleasedThere() throws Exception {
        RecordingTransport t = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).retries(0).build(), t);
        try {
            long attempt = dependentFailedWhileRunning(s, t);
            // worker 1, alive, had the dependent running all along: it stored the result, and reports it
            int sentBefore = t.sentToWorkers().size();
            reply(s, new Message.TaskFinished(1, "lr-dep", attempt, 2, 8, 1000));

            assertThat(t.sentToWorkers().subList(sentBefore, t.sentToWorkers().size()))
                    .as("what the ignored result sent to its worker")
                    .usingRecursiveFieldByFieldElementComparatorIgnoringFields("message.index")
                    .containsExactly(new RecordingTransport.Sent(1, new Message.ReleaseKey("lr-dep")));
        } finally {
            s.close();
        }
    }

    @Test
    void aFailureIgnoredFromALiveWorkerReleasesTheCopyItMayHold() throws Exception {
        RecordingTransport t = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).retries(0).build(), t);
        try {
            long attempt = dependentFailedWhileRunning(s, t);
            // worker 1 stored the result, which could not travel: reported as the task's failure
            int sentBefore = t.sentToWorkers().size();
            reply(s, new Message.TaskErred(1, "lr-dep", attempt, new IllegalArgumentException("cannot travel"), 1000));

            assertThat(t.sentToWorkers().subList(sentBefore, t.sentToWorkers().size()))
                    .as("what the ignored failure sent to its worker")
                    .usingRecursiveFieldByFieldElementComparatorIgnoringFields("message.index")
                    .containsExactly(new RecordingTransport.Sent(1, new Message.ReleaseKey("lr-dep")));
        } finally {
            s.close();
        }
    }
}
