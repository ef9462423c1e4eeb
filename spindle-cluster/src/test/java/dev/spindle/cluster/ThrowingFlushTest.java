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
 * A batching {@link Transport} whose flush throws (the application's own, a link that broke while
 * it wrote a batch) may have dropped what it held. The scheduler's loop only printed the
 * exception: a task whose assignment was in the dropped batch stayed on a worker never told, and
 * its caller waited for good. Now each worker sent a message since the last flush is handled as
 * lost, as after a send that throws ({@link ThrowingSendTest}), and its tasks are placed again.
 * On the code before the fix no worker was cut off and {@code a} was never sent again. Driven by
 * hand.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ThrowingFlushTest {

    /** Holds what is sent until a flush, and throws (dropping it) on the first flush that holds a task. */
    static final class ThrowingFlush extends RecordingTransport {
        private int held;
        private boolean thrown;
        volatile int cutOff = -1;

        @Override
        public synchronized void toWorker(int worker, Message.ToWorker message) {
            super.toWorker(worker, message);
            held++;
        }

        @Override
        public synchronized void flush() {
            boolean task = toWorkers.subList(toWorkers.size() - held, toWorkers.size()).stream()
                    .anyMatch(s -> s.message() instanceof Message.Compute);
            held = 0;
            if (!thrown && task) {
                thrown = true;
                throw new IllegalStateException("connection reset while writing the batch");
            }
        }

        @Override
        public synchronized void workerLost(int worker) {
            cutOff = worker;
        }
    }

    @Test
    void aTaskWhoseAssignmentAFlushDroppedIsPlacedAgainOnAnotherWorker() throws Exception {
        ThrowingFlush t = new ThrowingFlush();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).build(), t);
        try {
            CompletableFuture<Object> a = s.submit(List.of(TaskSpec.builder("a", args -> 1).build())).get(0);
            // the first assignment: the flush after the submission's event may already have thrown and
            // placed 'a' again by now (read as the last one, the other worker was taken for the first)
            int first = t.workerOfFirstCompute("a");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (t.workerOfLastCompute("a") == first && System.nanoTime() - deadline < 0) {
                s.stealEvents();              // the flush follows the submission's event: wait for its outcome
                Thread.sleep(5);
            }

            assertThat(t.cutOff).as("the worker whose task the flush dropped is cut off").isEqualTo(first);
            assertThat(t.workerOfLastCompute("a")).as("'a' goes to the other worker").isEqualTo(1 - first);
            reply(s, new Message.TaskFinished(1 - first, "a", t.lastCompute("a").attempt(), 1, 8, 1000));
            assertThat(a.get(10, TimeUnit.SECONDS)).isEqualTo(1);
        } finally {
            s.close();
        }
    }
}
