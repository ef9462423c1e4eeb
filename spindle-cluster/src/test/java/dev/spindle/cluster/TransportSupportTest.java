/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The wire conversions both sides of a transport between JVMs share, with a fake reader for the bytes. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TransportSupportTest {

    /** Reads "refuse" as a refusal, anything else as the string or a stored object. */
    private static Object read(byte[] bytes, Map<String, Object> objects) {
        String s = new String(bytes);
        if (s.equals("refuse")) {
            throw new SecurityException("class X refused by the allow-list");
        }
        return objects.getOrDefault(s, s);
    }

    private static final class Coordinator extends CoordinatorTransportSupport {
        final List<Message.ToScheduler> received = new CopyOnWriteArrayList<>();

        Coordinator() {
            attachScheduler(received::add);
        }

        void finished(int worker, String key, String value) {
            deliverFinished(worker, key, 1, value.getBytes(), 5, 7, b -> read(b, Map.of()));
        }

        @Override
        public void toWorker(int worker, Message.ToWorker message) {
            cannotSend(worker, (Message.Compute) message, new IllegalArgumentException("too large"));
        }

        @Override
        public void workerLost(int worker) {
        }
    }

    @Test
    void theCoordinatorTurnsResultsBackAndFailsOnlyTheRefusedOne() {
        Coordinator c = new Coordinator();
        c.finished(2, "a", "value");
        c.finished(2, "b", "refuse");
        assertThat(c.received).hasSize(2);
        assertThat(c.received.get(0)).isEqualTo(new Message.TaskFinished(2, "a", 1, "value", 5, 7));
        Message.TaskErred erred = (Message.TaskErred) c.received.get(1);
        assertThat(erred.key()).isEqualTo("b");
        assertThat(erred.error()).isInstanceOf(RemoteTaskException.class)
                .hasMessage("java.lang.SecurityException: result of task 'b' refused: class X refused by the allow-list");
        assertThat(c.finishedOn(2)).isEqualTo(1);
        assertThat(c.finishedOn(3)).isZero();
    }

    @Test
    void aTaskThatCannotBeSentErrsAndNothingArrivesAfterClose() {
        Coordinator c = new Coordinator();
        c.toWorker(1, new Message.Compute("k", 3, args -> 1, List.of(), Map.of(), 0));
        Message.TaskErred erred = (Message.TaskErred) c.received.get(0);
        assertThat(erred.worker()).isEqualTo(1);
        assertThat(erred.attempt()).isEqualTo(3);
        assertThat(erred.error()).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("task 'k' cannot be sent: too large");
        assertThatThrownBy(() -> c.fetch("k", 0, 1)).isInstanceOf(UnsupportedOperationException.class);
        assertThat(c.bytesTransferred()).isZero();
        c.close();
        c.finished(0, "late", "value");
        c.toScheduler(new Message.WorkerLost(0));
        assertThat(c.received).hasSize(1);
    }

    private static final class Worker extends WorkerTransportSupport {
        final LinkedBlockingQueue<Message.ToScheduler> sent = new LinkedBlockingQueue<>();

        Worker() {
            super(4);
        }

        @Override
        public void toScheduler(Message.ToScheduler message) {
            sent.add(message);
        }

        @Override
        public CompletableFuture<Object> fetch(String key, int holder, int requester) {
            return CompletableFuture.failedFuture(new IllegalStateException("no fetches here"));
        }
    }

    @Test
    void theWorkerRunsAnAllowedFunctionAndNamesARefusedOne() throws Exception {
        Worker w = new Worker();
        TaskFunction<Integer> answer = args -> 42;
        Function<byte[], Object> reader = b -> read(b, Map.of("answer", answer));
        try (WorkerNode node = new WorkerNode(4, 1, w)) {
            w.attachNode(node);
            assertThat(w.node()).isSameAs(node);
            assertThat(w.receiveCompute(node, "ok", 1, "answer".getBytes(), List.of(), Map.of(), 0, reader)).isNull();
            Message.ToScheduler done = w.sent.poll(20, TimeUnit.SECONDS);
            assertThat(done).isInstanceOf(Message.TaskFinished.class);
            assertThat(((Message.TaskFinished) done).value()).isEqualTo(42);
            assertThat(w.receiveCompute(node, "bad", 1, "refuse".getBytes(), List.of(), Map.of(), 0, reader))
                    .isEqualTo("function of task 'bad' refused: class X refused by the allow-list");
            // allowed by the filter, but not a function: refused too, rather than a ClassCastException
            assertThat(w.receiveCompute(node, "str", 1, "text".getBytes(), List.of(), Map.of(), 0, reader))
                    .isEqualTo("function of task 'str' refused: a java.lang.String is not a task function");
            assertThat(w.sent.poll(200, TimeUnit.MILLISECONDS)).isNull();
        }
        w.close();
        assertThat(w.node()).isNull();
    }

    @Test
    void aFetchReplyMustAnswerTheFetchThatWasAsked() {
        Worker w = new Worker();
        Function<byte[], Object> reader = b -> read(b, Map.of());
        assertThat(w.fetched("k", 1, "k", 1, "value".getBytes(), reader)).isEqualTo("value");
        assertThat(w.bytesTransferred()).isEqualTo(5);
        assertThatThrownBy(() -> w.fetched("k", 1, "other", 1, "value".getBytes(), reader))
                .isInstanceOf(SecurityException.class).hasMessage("reply for 'other' from 1 answers another fetch");
        assertThatThrownBy(() -> w.fetched("k", 1, "k", 2, "value".getBytes(), reader))
                .isInstanceOf(SecurityException.class);
        assertThatThrownBy(() -> w.fetched("k", 1, "k", 1, null, reader)).isInstanceOf(IllegalStateException.class)
                .hasMessage("worker 1 does not hold 'k'");
        assertThatThrownBy(() -> w.fetched("k", 1, "k", 1, "refuse".getBytes(), reader))
                .isInstanceOf(SecurityException.class);
        assertThat(w.bytesTransferred()).isEqualTo(5);
        assertThatThrownBy(() -> w.toWorker(0, new Message.StealRequest(1, "k", 1))).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> w.workerLost(0)).isInstanceOf(UnsupportedOperationException.class);
    }
}
