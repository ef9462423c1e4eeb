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

    /** A frame limit for the fakes: the bytes of functions, values and failure texts in a frame, at most 64. */
    static final int FRAME_LIMIT = 64;

    private static int weight(Object body) {
        if (body instanceof WireMessage.Compute c) {
            return c.function().length;
        } else if (body instanceof WireMessage.Finished f) {
            return f.value().length;
        } else if (body instanceof WireMessage.Erred e) {
            return (e.message() == null ? 0 : e.message().length()) + (e.trace() == null ? 0 : e.trace().length);
        }
        return 1;
    }

    private static void checkFrameLimit(List<Object> bodies) {
        int total = bodies.stream().mapToInt(TransportSupportTest::weight).sum();
        if (total > FRAME_LIMIT) {
            throw new IllegalArgumentException("of " + total + " is over the frame limit");
        }
    }

    private static final class Coordinator extends CoordinatorTransportSupport {
        final List<Message.ToScheduler> received = new CopyOnWriteArrayList<>();
        final List<List<Object>> frames = new CopyOnWriteArrayList<>();

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

        @Override
        protected void sendFrame(int worker, List<Object> bodies) {
            checkFrameLimit(bodies);
            frames.add(bodies);
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

    /** A wire of records: what the worker sends, as strings. */
    private static final class Worker extends WorkerTransportSupport {
        final LinkedBlockingQueue<String> sent = new LinkedBlockingQueue<>();
        final List<List<Object>> frames = new CopyOnWriteArrayList<>();

        Worker() {
            super(4, value -> {
                if (!(value instanceof String s)) {
                    throw new IllegalArgumentException("is not a string");
                }
                return s.getBytes();
            });
        }

        @Override
        protected void sendFinished(Message.TaskFinished f, byte[] value) {
            sent.add("finished " + f.key() + " " + new String(value));
        }

        @Override
        protected void sendErred(int worker, String key, long attempt, String errorClass, String message,
                                 StackTraceElement[] trace, long nanos) {
            sent.add("erred " + worker + " " + key + " " + attempt + " " + errorClass + ": " + message
                    + (trace == null ? "" : " with trace"));
        }

        @Override
        protected void sendOther(Message.ToScheduler message) {
            sent.add("other " + message);
        }

        @Override
        public CompletableFuture<Object> fetch(String key, int holder, int requester) {
            return CompletableFuture.failedFuture(new IllegalStateException("no fetches here"));
        }

        @Override
        protected void sendFrame(List<Object> bodies) {
            checkFrameLimit(bodies);
            frames.add(bodies);
        }
    }

    @Test
    void theWorkerRunsAnAllowedFunctionAndReportsARefusedOneAsFailed() throws Exception {
        Worker w = new Worker();
        TaskFunction<String> answer = args -> "42";
        Function<byte[], Object> reader = b -> read(b, Map.of("answer", answer));
        try (WorkerNode node = new WorkerNode(4, 1, w)) {
            w.attachNode(node);
            assertThat(w.node()).isSameAs(node);
            w.receiveCompute(node, "ok", 1, "answer".getBytes(), List.of(), Map.of(), 0, 0, reader);
            assertThat(w.sent.poll(20, TimeUnit.SECONDS)).isEqualTo("finished ok 42");
            w.receiveCompute(node, "bad", 2, "refuse".getBytes(), List.of(), Map.of(), 0, 0, reader);
            assertThat(w.sent.poll(20, TimeUnit.SECONDS)).isEqualTo("erred 4 bad 2 java.lang.SecurityException: "
                    + "function of task 'bad' refused: class X refused by the allow-list");
            // allowed by the filter, but not a function: refused too, rather than a ClassCastException
            w.receiveCompute(node, "str", 1, "text".getBytes(), List.of(), Map.of(), 0, 0, reader);
            assertThat(w.sent.poll(20, TimeUnit.SECONDS)).isEqualTo("erred 4 str 1 java.lang.SecurityException: "
                    + "function of task 'str' refused: a java.lang.String is not a task function");
        }
        w.close();
        assertThat(w.node()).isNull();
    }

    @Test
    void theWorkersReportsTravelAsResultBytesFailureTextOrAsTheyAre() {
        Worker w = new Worker();
        w.toScheduler(new Message.TaskFinished(4, "k", 1, "v", 1, 0));
        w.toScheduler(new Message.TaskFinished(4, "big", 3, 17, 1, 0));
        w.toScheduler(new Message.TaskErred(4, "e", 2, new java.io.UncheckedIOException(new java.io.IOException("disk")),
                0));
        w.toScheduler(new Message.DataAdded(4, "k"));
        assertThat(w.sent).containsExactly("finished k v",
                "erred 4 big 3 java.lang.IllegalArgumentException: result of 'big' is not a string",
                "erred 4 e 2 java.io.UncheckedIOException: java.io.IOException: disk with trace",
                "other " + new Message.DataAdded(4, "k"));
    }

    @Test
    void aFunctionWhoseSerialisationFailureCannotDescribeItselfErrsOnlyItsTask() {
        Coordinator c = new Coordinator();
        Message.Compute bad = new Message.Compute("bad", 1, args -> 1, List.of(), Map.of(), 0);
        Message.StealRequest steal = new Message.StealRequest(1, "s", 1);
        // before the fix getMessage() threw out of wireForms, taking the whole batch with it
        List<Object> out = c.wireForms(1, List.of(bad, steal), function -> {
            throw new ThrowingMessageRegressionTest.Mute();
        });
        assertThat(out).containsExactly(steal);
        Message.TaskErred erred = (Message.TaskErred) c.received.get(0);
        assertThat(erred.key()).isEqualTo("bad");
        assertThat(erred.error()).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("task 'bad' cannot be sent: its serialisation threw: "
                        + ThrowingMessageRegressionTest.Mute.class.getName()
                        + " (its message threw java.lang.IllegalStateException)");
    }

    @Test
    void aFailureWhoseMessageThrowsStillTravels() {
        Worker w = new Worker();
        w.toScheduler(new Message.TaskErred(4, "e", 2, new ThrowingMessageRegressionTest.Mute(), 0));
        // before the fix getMessage() threw out of toScheduler: the failure was never sent
        assertThat(w.sent).containsExactly("erred 4 e 2 " + ThrowingMessageRegressionTest.Mute.class.getName()
                + ": (its getMessage() threw java.lang.IllegalStateException) with trace");
    }

    @Test
    void aResultWhoseSerialisationFailureCannotDescribeItselfStillErrs() {
        Worker w = new Worker();
        WorkerTransportSupport muted = new WorkerTransportSupport(4, value -> {
            throw new ThrowingMessageRegressionTest.Mute();
        }) {
            @Override
            protected void sendFinished(Message.TaskFinished f, byte[] value) {
                w.sent.add("finished " + f.key());
            }

            @Override
            protected void sendErred(int worker, String key, long attempt, String errorClass, String message,
                                     StackTraceElement[] trace, long nanos) {
                w.sendErred(worker, key, attempt, errorClass, message, trace, nanos);
            }

            @Override
            protected void sendOther(Message.ToScheduler message) {
            }

            @Override
            public CompletableFuture<Object> fetch(String key, int holder, int requester) {
                return CompletableFuture.failedFuture(new IllegalStateException("no fetches here"));
            }

            @Override
            protected void sendFrame(List<Object> bodies) {
            }
        };
        muted.toScheduler(new Message.TaskFinished(4, "k", 1, "v", 1, 0));
        assertThat(w.sent).containsExactly("erred 4 k 1 java.lang.IllegalArgumentException: result of 'k' cannot be "
                + "serialised: " + ThrowingMessageRegressionTest.Mute.class.getName()
                + " (its toString() threw java.lang.IllegalStateException)");
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

    private static WireMessage.Compute compute(String key, int functionBytes) {
        return new WireMessage.Compute(key, 1, new byte[functionBytes], List.of(), Map.of(), 0);
    }

    @Test
    void theCoordinatorSplitsABatchOverTheFrameLimitAndFailsOnlyATaskTooLargeAlone() {
        Coordinator c = new Coordinator();
        WireMessage.Compute a = compute("a", 30);
        WireMessage.Compute huge = compute("huge", 65);
        WireMessage.Compute b = compute("b", 30);
        Message.StealRequest steal = new Message.StealRequest(1, "s", 1);
        c.sendWithinFrameLimit(1, List.of(a, b));
        assertThat(c.frames).containsExactly(List.of(a, b));
        c.frames.clear();
        c.sendWithinFrameLimit(1, List.of(a, huge, steal, b));
        assertThat(c.frames).containsExactly(List.of(a), List.of(steal), List.of(b));
        assertThat(c.received).singleElement().satisfies(m -> {
            Message.TaskErred erred = (Message.TaskErred) m;
            assertThat(erred.key()).isEqualTo("huge");
            assertThat(erred.worker()).isEqualTo(1);
            assertThat(erred.error()).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("task 'huge' cannot be sent: of 65 is over the frame limit");
        });
        c.frames.clear();
        c.sendWithinFrameLimit(1, List.of());
        assertThat(c.frames).isEmpty();
    }

    @Test
    void theWorkerSplitsABatchOverTheFrameLimitTurnsATooLargeResultIntoAFailureAndShortensALongFailure() {
        Worker w = new Worker();
        WireMessage.Finished small = new WireMessage.Finished(4, "small", 1, new byte[30], 30, 0);
        WireMessage.Finished large = new WireMessage.Finished(4, "large", 2, new byte[65], 65, 9);
        WireMessage.Erred longFailure = new WireMessage.Erred(4, "long", 3, "java.lang.Error", "x".repeat(70), null, 1);
        Message.DataAdded added = new Message.DataAdded(4, "small");
        w.sendWithinFrameLimit(List.of(small, added));
        assertThat(w.frames).containsExactly(List.of(small, added));
        w.frames.clear();
        w.sendWithinFrameLimit(List.of(small, large, longFailure, added));
        assertThat(w.frames).hasSize(4);
        assertThat(w.frames.get(0)).containsExactly(small);
        // the result too large for a frame becomes its task's failure, with the reason, short enough to travel
        WireMessage.Erred largeErred = (WireMessage.Erred) w.frames.get(1).get(0);
        assertThat(largeErred.key()).isEqualTo("large");
        assertThat(largeErred.attempt()).isEqualTo(2);
        assertThat(largeErred.nanos()).isEqualTo(9);
        assertThat(largeErred.errorClass()).isEqualTo(IllegalArgumentException.class.getName());
        assertThat(largeErred.message()).isEqualTo("result message of 65 is over the frame limit");
        assertThat(w.frames.get(2)).containsExactly(
                new WireMessage.Erred(4, "long", 3, "java.lang.Error", null, null, 1));
        assertThat(w.frames.get(3)).containsExactly(added);
    }
}
