/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static dev.spindle.cluster.HandDriven.reply;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker a send to threw is handled as lost once the event is done ({@link ThrowingSendTest}),
 * and the tasks assigned to it are placed again, each counting that loss against
 * {@link CoordinatorSettings#allowedWorkerLosses()}. But a task whose assignment never went out
 * (its own send threw, or it was placed there later in the event, when nothing more is sent to
 * the worker) cannot be what ended that worker: counted, it erred with a
 * {@link WorkerLostException} under {@code allowedWorkerLosses(0)}, or after a few such transport
 * failures under the default, though it never reached a worker. Driven by hand.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class UnsentTaskWorkerLossTest {

    @Test
    void aTaskWhoseAssignmentNeverWentOutDoesNotCountTheWorkersLoss() throws Exception {
        ThrowingSendTest.ThrowingOnce t = new ThrowingSendTest.ThrowingOnce(
                (w, m) -> m instanceof Message.Compute c && c.key().equals("a"));
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).allowedWorkerLosses(0).build(), t);
        try {
            // "a" to one worker (its send throws), "b" to the other, "c" to the first again: the
            // earliest start is a tie, which the first worker in order wins, as it did for "a"
            List<CompletableFuture<Object>> fs = s.submit(List.of(TaskSpec.builder("a", args -> 1).build(),
                    TaskSpec.builder("b", args -> 2).build(), TaskSpec.builder("c", args -> 3).build()));
            s.stealEvents();                  // a barrier: the loss handled after the submission's event

            int lost = t.cutOff;
            assertThat(lost).as("the worker the task could not reach is cut off").isBetween(0, 1);
            assertThat(fs).as("no task erred for a loss it cannot have caused").noneMatch(CompletableFuture::isDone);
            for (String key : List.of("a", "b", "c")) {
                assertThat(t.workerOfLastCompute(key)).as("'%s' runs on the other worker", key).isEqualTo(1 - lost);
                reply(s, new Message.TaskFinished(1 - lost, key, t.lastCompute(key).attempt(), 1, 8, 1000));
            }
            for (CompletableFuture<Object> f : fs) {
                assertThat(f.get(10, TimeUnit.SECONDS)).isEqualTo(1);
            }
        } finally {
            s.close();
        }
    }
}
