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
 * A task waiting for a worker to join (CoordinatorSettings.noWorkerTimeout) whose input is lost
 * waits for the input first, and for a worker afresh once the input is back, as GraphScheduler
 * says. It went on with its first wait unless something looked at the waiting tasks meanwhile
 * (a worker joining, the end of another wait, or a read of ClusterStats, which a metrics scrape
 * makes): so whether it failed a full wait after its input came back, or at once, depended on
 * whether the stats were read.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WaitForAWorkerStartsAfreshOnceALostInputIsBackTest {

    @Test
    void theWaitOfATaskWhoseInputWasLostAndComputedAgainStartsOnceTheInputIsBack() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(3).noWorkerTimeout(Duration.ofMinutes(10)).build(),
                wire);
        try {
            s.submit(List.of(TaskSpec.builder("x", args -> 1).restrictions(Restrictions.loose(Set.of(0))).build()));
            assertThat(wire.workerOfLastCompute("x")).isEqualTo(0);
            reply(s, new Message.TaskFinished(0, "x", wire.lastCompute("x").attempt(), 1, 4, 1000));
            reply(s, new Message.WorkerLost(2));
            CompletableFuture<Object> t = s.submit(List.of(TaskSpec.builder("t", args -> 2).dependsOn("x")
                    .restrictions(Restrictions.strict(Set.of(2))).build())).get(0);
            long first = since(s);

            reply(s, new Message.WorkerLost(0));   // x is lost: computed again on worker 1
            assertThat(wire.workerOfLastCompute("x")).isEqualTo(1);
            long back = System.nanoTime();
            assertThat(back - first).isPositive();
            reply(s, new Message.TaskFinished(1, "x", wire.lastCompute("x").attempt(), 1, 4, 1000));

            assertThat(s.stats().tasksAwaitingWorker()).as("t waits for worker 2 again").isEqualTo(1);
            assertThat(since(s) - back).as("t's wait began once x was back, not when t first waited")
                    .isNotNegative();
            assertThat(t).isNotDone();
        } finally {
            s.close();
        }
    }

    private static long since(GraphScheduler s) {
        return s.inspectTasks((tasks, workers) -> {
            assertThat(tasks.get("t").awaitingWorker).isTrue();
            return tasks.get("t").awaitingWorkerSince;
        });
    }
}
