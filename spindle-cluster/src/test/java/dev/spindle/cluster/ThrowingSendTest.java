/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static dev.spindle.cluster.HandDriven.reply;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiPredicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A {@link Transport} whose send throws (the application's own, a link that broke): the exception
 * escaped the scheduler's transition half way, and the event loop only printed it. A task whose
 * failure's release threw was left neither failed nor placed again, and one whose assignment threw
 * stayed on a worker never told, and with it the rest of the submission; their callers waited for
 * good. Now the worker a send to threw is handled as lost once the event is done. Driven by hand.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ThrowingSendTest {

    /** Throws on the first message {@code fails} matches, and records the others. */
    static final class ThrowingOnce extends RecordingTransport {
        private final BiPredicate<Integer, Message.ToWorker> fails;
        private boolean thrown;
        volatile int cutOff = -1;

        ThrowingOnce(BiPredicate<Integer, Message.ToWorker> fails) {
            this.fails = fails;
        }

        @Override
        public synchronized void toWorker(int worker, Message.ToWorker message) {
            if (!thrown && fails.test(worker, message)) {
                thrown = true;
                throw new UncheckedIOException(new java.io.IOException("connection reset"));
            }
            super.toWorker(worker, message);
        }

        @Override
        public synchronized void workerLost(int worker) {
            cutOff = worker;
        }
    }

    @Test
    void aTaskWhoseFailuresReleaseCannotBeSentIsPlacedAgainOnAnotherWorker() throws Exception {
        ThrowingOnce t = new ThrowingOnce((w, m) -> m instanceof Message.ReleaseKey r && r.key().equals("x"));
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).retries(1).build(), t);
        try {
            CompletableFuture<Object> x = s.submit(List.of(TaskSpec.builder("x", args -> 1).build())).get(0);
            int first = t.workerOfLastCompute("x");
            reply(s, new Message.TaskErred(first, "x", t.lastCompute("x").attempt(),
                    new IllegalStateException("boom"), 1000));

            assertThat(t.cutOff).as("the worker the release could not reach is cut off").isEqualTo(first);
            assertThat(t.workerOfLastCompute("x")).as("the retry goes to the other worker").isEqualTo(1 - first);
            reply(s, new Message.TaskFinished(1 - first, "x", t.lastCompute("x").attempt(), 42, 8, 1000));
            assertThat(x.get(10, TimeUnit.SECONDS)).isEqualTo(42);
        } finally {
            s.close();
        }
    }

    @Test
    void aSubmissionWhoseFirstTaskCannotBeSentStillPlacesEveryTask() throws Exception {
        ThrowingOnce t = new ThrowingOnce((w, m) -> m instanceof Message.Compute c && c.key().equals("a"));
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).build(), t);
        try {
            List<CompletableFuture<Object>> fs = s.submit(List.of(TaskSpec.builder("a", args -> 1).build(),
                    TaskSpec.builder("b", args -> 2).build()));
            s.stealEvents();                  // a barrier: the loss handled after the submission's event

            int lost = t.cutOff;
            assertThat(lost).as("the worker the task could not reach is cut off").isBetween(0, 1);
            assertThat(t.workerOfLastCompute("a")).as("'a' goes to the other worker").isEqualTo(1 - lost);
            assertThat(t.workerOfLastCompute("b")).as("'b' too").isEqualTo(1 - lost);
            reply(s, new Message.TaskFinished(1 - lost, "a", t.lastCompute("a").attempt(), 1, 8, 1000));
            reply(s, new Message.TaskFinished(1 - lost, "b", t.lastCompute("b").attempt(), 2, 8, 1000));
            assertThat(fs.get(0).get(10, TimeUnit.SECONDS)).isEqualTo(1);
            assertThat(fs.get(1).get(10, TimeUnit.SECONDS)).isEqualTo(2);
        } finally {
            s.close();
        }
    }
}
