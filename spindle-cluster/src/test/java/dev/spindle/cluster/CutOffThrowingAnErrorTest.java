/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static dev.spindle.cluster.HandDriven.reply;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A transport whose {@link Transport#workerLost} throws an {@link Error} (the application's own,
 * a class it cannot link) when the scheduler cuts off a worker that a flush that threw may have
 * dropped messages for. The scheduler caught only a {@link RuntimeException} there, while a send
 * or a flush that throws an Error is handled: the Error escaped the cut-off after the worker's
 * tasks had been placed again, and ended the flush loop, so their new assignments stayed held in
 * the transport, never flushed, until some other event came (with nothing periodic, never), and
 * the caller waited for good. Now the Error is logged as a RuntimeException is, and the flush loop
 * sends the new assignments. On the code before the fix {@code a}'s second assignment was never
 * flushed. Driven by hand.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CutOffThrowingAnErrorTest {

    /**
     * Holds what is sent until a flush, which delivers it, except the first flush that holds a task,
     * which throws (dropping it); cutting a worker off throws an Error.
     */
    static final class ErrorCuttingOff extends RecordingTransport {
        private int held;
        private boolean thrown;
        final List<Sent> flushed = new ArrayList<>();
        volatile int cutOff = -1;

        @Override
        public synchronized void toWorker(int worker, Message.ToWorker message) {
            super.toWorker(worker, message);
            held++;
        }

        @Override
        public synchronized void flush() {
            List<Sent> batch = new ArrayList<>(toWorkers.subList(toWorkers.size() - held, toWorkers.size()));
            held = 0;
            if (!thrown && batch.stream().anyMatch(s -> s.message() instanceof Message.Compute)) {
                thrown = true;
                throw new IllegalStateException("connection reset while writing the batch");
            }
            flushed.addAll(batch);
        }

        @Override
        public synchronized void workerLost(int worker) {
            cutOff = worker;
            throw new NoClassDefFoundError("com/example/transport/Disconnect");
        }

        synchronized int workerOfFlushedCompute(String key) {
            int found = -1;
            for (Sent s : flushed) {
                if (s.message() instanceof Message.Compute c && c.key().equals(key)) {
                    found = s.worker();
                }
            }
            return found;
        }
    }

    @Test
    void aTaskPlacedAgainWhileTheCutOffThrowsAnErrorIsStillFlushed() throws Exception {
        ErrorCuttingOff t = new ErrorCuttingOff();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).build(), t);
        try {
            CompletableFuture<Object> a = s.submit(List.of(TaskSpec.builder("a", args -> 1).build())).get(0);
            // the first assignment: the flush after the submission's event may already have thrown and
            // placed 'a' again by now (read as the last one, the other worker was taken for the first)
            int first = t.workerOfFirstCompute("a");
            // no call to the scheduler while waiting: a call is an event, whose end flushes
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (t.workerOfFlushedCompute("a") < 0 && System.nanoTime() - deadline < 0) {
                Thread.sleep(5);
            }

            assertThat(t.cutOff).as("the worker whose task the flush dropped is cut off").isEqualTo(first);
            assertThat(t.workerOfFlushedCompute("a"))
                    .as("'a', placed again on the other worker, is flushed to it (sent: %s)", t.sentToWorkers())
                    .isEqualTo(1 - first);
            reply(s, new Message.TaskFinished(1 - first, "a", t.lastCompute("a").attempt(), 1, 8, 1000));
            assertThat(a.get(10, TimeUnit.SECONDS)).isEqualTo(1);
        } finally {
            s.close();
        }
    }
}
