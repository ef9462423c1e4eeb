/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static dev.spindle.cluster.HandDriven.reply;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A flush that throws has each worker sent a message since the last flush handled as lost
 * ({@link ThrowingFlushTest}). Those workers were recorded by id: when, within one burst of events,
 * a worker was sent a message, was lost, and a fresh incarnation of its id joined, the throwing
 * flush cut off that fresh incarnation, which had been sent nothing, for what its predecessor
 * (gone already) was sent. The scheduler then took the live process for lost, and the transport
 * cut it off. Driven by hand; the burst is held together by blocking the first send until every
 * event of it is queued.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ThrowingFlushSparesSuccessorTest {

    /** Blocks the first send until released; throws on the first flush after that; records cut-offs. */
    static final class HeldBurst extends RecordingTransport {
        final CountDownLatch firstSent = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final List<Integer> cutOff = new CopyOnWriteArrayList<>();
        private volatile boolean first = true;
        private volatile boolean thrown;

        @Override
        public void toWorker(int worker, Message.ToWorker message) {
            super.toWorker(worker, message);
            if (first) {
                first = false;
                firstSent.countDown();
                try {
                    release.await(20, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        @Override
        public void flush() {
            if (!first && !thrown) {
                thrown = true;
                throw new IllegalStateException("connection reset while writing the batch");
            }
        }

        @Override
        public void workerLost(int worker) {
            cutOff.add(worker);
        }
    }

    @Test
    void aFreshIncarnationSentNothingBeforeAThrowingFlushIsNotCutOff() throws Exception {
        HeldBurst t = new HeldBurst();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).build(), t);
        try {
            // submitted from another thread: the submission's event holds the scheduler thread in the send
            CompletableFuture<CompletableFuture<Object>> submitted = CompletableFuture.supplyAsync(
                    () -> s.submit(List.of(TaskSpec.builder("a", args -> 1).build())).get(0));
            assertThat(t.firstSent.await(10, TimeUnit.SECONDS)).isTrue();
            int lost = t.workerOfLastCompute("a");
            // queued behind the held send, with no flush between them: the loss, then the rejoin
            s.receive(new Message.WorkerLost(lost));
            Thread joiner = new Thread(() -> s.join(lost, 1), "joiner");
            joiner.start();
            while (s.queuedEvents() < 2) {    // the loss and the join, behind the held send
                Thread.sleep(1);              // (a thread state said so too early: waits within the post)
            }
            t.release.countDown();
            CompletableFuture<Object> a = submitted.get(10, TimeUnit.SECONDS);
            joiner.join(10_000);
            // the flush comes once the events run dry, after whatever call is queued by then: wait
            // for its first cut-off, then an event behind the whole cut-off
            while (t.cutOff.isEmpty()) {
                Thread.sleep(1);              // bounded by the class timeout
            }
            s.stealEvents();

            int other = 1 - lost;
            assertThat(t.cutOff).as("only the worker sent 'a' again in the burst is cut off").containsExactly(other);
            assertThat(s.gone(lost).isDone()).as("the fresh incarnation of worker " + lost + " lives").isFalse();
            assertThat(t.workerOfLastCompute("a")).as("'a' goes to the fresh incarnation").isEqualTo(lost);
            reply(s, new Message.TaskFinished(lost, "a", t.lastCompute("a").attempt(), 1, 8, 1000));
            assertThat(a.get(10, TimeUnit.SECONDS)).isEqualTo(1);
        } finally {
            s.close();
        }
    }
}
