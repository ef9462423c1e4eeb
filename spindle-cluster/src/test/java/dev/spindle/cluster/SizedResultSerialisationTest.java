/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker measures a {@link Sized} result by asking it, without serialising it; a transport
 * between JVMs serialises it only when it reports the result ({@link WorkerTransportSupport#toScheduler},
 * with {@link ValueCodec#write} as both transports do). A result whose serialisation threw anything
 * but an {@link IllegalArgumentException} there (a {@link StackOverflowError} of a long chain, a
 * {@link RuntimeException} of its own {@code writeObject}) escaped the worker's thread after the
 * task had finished: neither its result nor its failure was reported, and its caller waited for good.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SizedResultSerialisationTest {

    /** A sized node of a singly linked chain serialised by default: one nested call per node. */
    static final class SizedLink implements Sized, Serializable {
        private static final long serialVersionUID = 1L;
        SizedLink next;

        static SizedLink chain(int length) {
            SizedLink head = new SizedLink();
            SizedLink n = head;
            for (int i = 1; i < length; i++) {
                n.next = new SizedLink();
                n = n.next;
            }
            return head;
        }

        @Override
        public long sizeInBytes() {
            return 16;
        }
    }

    /** A sized value whose own serialisation throws (a collection it holds modified meanwhile, say). */
    static final class Unwritable implements Sized, Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public long sizeInBytes() {
            return 16;
        }

        private void writeObject(ObjectOutputStream out) throws IOException {
            throw new java.util.ConcurrentModificationException("modified while written");
        }
    }

    /** The worker side of a transport that serialises results as the real ones do and records its reports. */
    private static final class Worker extends WorkerTransportSupport {
        final LinkedBlockingQueue<String> sent = new LinkedBlockingQueue<>();

        Worker() {
            super(0, value -> ValueCodec.write(value, Integer.MAX_VALUE));
        }

        @Override
        protected void sendFinished(Message.TaskFinished f, byte[] value) {
            sent.add("finished " + f.key());
        }

        @Override
        protected void sendErred(int worker, String key, long attempt, String errorClass, String message,
                                 StackTraceElement[] trace, long nanos) {
            sent.add("erred " + key + " " + errorClass + ": " + message);
        }

        @Override
        protected void sendOther(Message.ToScheduler message) {
        }

        @Override
        protected void sendFrame(List<Object> bodies) {
        }

        @Override
        public CompletableFuture<Object> fetch(String key, int holder, int requester) {
            return CompletableFuture.failedFuture(new IllegalStateException("no fetches here"));
        }
    }

    private static void run(Worker w, WorkerNode node, String key, TaskFunction<Object> f) {
        w.receiveCompute(node, key, 1, key.getBytes(), List.of(), Map.of(), 0, 0, bytes -> f);
    }

    @Test
    void aSizedResultWhoseSerialisationOverflowsTheStackFailsItsTaskNamingTheKey() throws Exception {
        Worker w = new Worker();
        try (WorkerNode node = new WorkerNode(0, 1, w)) {
            w.attachNode(node);
            run(w, node, "sr-deep", args -> SizedLink.chain(1_000_000));
            String report = w.sent.poll(30, TimeUnit.SECONDS);
            assertThat(report).as("the task is reported, not lost with the worker's thread")
                    .startsWith("erred sr-deep java.lang.IllegalArgumentException: result of 'sr-deep'")
                    .contains("StackOverflowError");
            // the worker goes on: its thread was not lost with the task
            run(w, node, "sr-after", args -> "ok");
            assertThat(w.sent.poll(30, TimeUnit.SECONDS)).isEqualTo("finished sr-after");
        }
    }

    @Test
    void aSizedResultWhoseWriteObjectThrowsFailsItsTaskNamingTheKey() throws Exception {
        Worker w = new Worker();
        try (WorkerNode node = new WorkerNode(0, 1, w)) {
            w.attachNode(node);
            run(w, node, "sr-cme", args -> new Unwritable());
            assertThat(w.sent.poll(30, TimeUnit.SECONDS)).as("the task is reported, not lost with the worker's thread")
                    .isEqualTo("erred sr-cme java.lang.IllegalArgumentException: result of 'sr-cme' cannot be "
                            + "serialised: java.util.ConcurrentModificationException: modified while written");
        }
    }
}
