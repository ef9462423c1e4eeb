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
 * A send that throws an {@link Error} rather than a {@link RuntimeException}: a batching
 * transport that sends a full batch on the scheduler thread as the message is queued (the Pekko
 * coordinator's) and runs out of memory sealing it, say. The scheduler handled only a
 * {@link RuntimeException} as the worker's loss ({@link ThrowingSendTest}); the Error escaped the
 * transition and was printed, the batch it took was gone, and the task whose assignment it held
 * stayed on a worker never told, its caller waiting for good. Now the worker is handled as lost,
 * as after any send that throws. Driven by hand.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SendThrowingAnErrorTest {

    /** Throws an Error on the first task sent, and records the other messages. */
    static final class ErrorOnFirstTask extends RecordingTransport {
        private boolean thrown;
        volatile int cutOff = -1;

        @Override
        public synchronized void toWorker(int worker, Message.ToWorker message) {
            if (!thrown && message instanceof Message.Compute) {
                thrown = true;
                throw new OutOfMemoryError("Java heap space (sealing a batch)");
            }
            super.toWorker(worker, message);
        }

        @Override
        public synchronized void workerLost(int worker) {
            cutOff = worker;
        }
    }

    @Test
    void aTaskWhoseSendThrewAnErrorIsPlacedAgainOnAnotherWorker() throws Exception {
        ErrorOnFirstTask t = new ErrorOnFirstTask();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).build(), t);
        try {
            CompletableFuture<Object> a = s.submit(List.of(TaskSpec.builder("a", args -> 1).build())).get(0);
            s.stealEvents();                  // a barrier: the loss is handled after the submission's event

            int lost = t.cutOff;
            assertThat(lost).as("the worker the task could not reach is cut off").isBetween(0, 1);
            assertThat(t.workerOfLastCompute("a")).as("'a' goes to the other worker").isEqualTo(1 - lost);
            reply(s, new Message.TaskFinished(1 - lost, "a", t.lastCompute("a").attempt(), 1, 8, 1000));
            assertThat(a.get(10, TimeUnit.SECONDS)).isEqualTo(1);
        } finally {
            s.close();
        }
    }
}
