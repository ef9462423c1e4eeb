/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.List;
import java.util.Map;

/**
 * The wire forms of the {@link Message}s that carry user objects or exceptions, and of a fetch
 * between workers, as every transport between JVMs sends them ({@link MessageCodec}). A user
 * object (a task function, a result, a fetched value) is nested as separately serialised bytes,
 * so that one the allow-list refuses fails only its own task, with the key still known; a task's
 * failure travels as text, since the exception's class might not pass the receiver's allow-list.
 *
 * <p>For transport implementers: public only so that the transports in other modules share one
 * definition; it is not an API for applications.
 */
public final class WireMessage {

    private WireMessage() {
    }

    /** {@link Message.Compute} with its function as bytes. */
    public record Compute(String key, long attempt, byte[] function, List<String> dependencies,
                          Map<String, List<Integer>> holders, int priority) {
    }

    /** {@link Message.TaskFinished} with its value as bytes. */
    public record Finished(int worker, String key, long attempt, byte[] value, long bytes, long nanos) {
    }

    /** {@link Message.TaskErred} with the error as text: class name, message and stack trace (both may be null). */
    public record Erred(int worker, String key, long attempt, String errorClass, String message,
                        StackTraceElement[] trace, long nanos) {

        /**
         * The failure as the scheduler takes it, a {@link RemoteTaskException}.
         *
         * @return a new {@link Message.TaskErred} with this record's worker, key, attempt and
         *         duration, whose error is a {@link RemoteTaskException} carrying the class name,
         *         message and stack trace
         */
        public Message.TaskErred toMessage() {
            return new Message.TaskErred(worker, key, attempt, new RemoteTaskException(errorClass, message, trace), nanos);
        }
    }

    /** A worker asks a holder for a value. */
    public record FetchRequest(String key, int holder, int requester) {
    }

    /** The holder's answer: the value's bytes, or {@code null} if it holds none. */
    public record FetchReply(String key, int holder, byte[] value) {
    }

    /**
     * The worker a report to the coordinator is about, or {@link Integer#MIN_VALUE} if
     * {@code body} is not a report a worker may send ({@link Message.WorkerLost} is the
     * coordinator's own): a coordinator accepts a report only about its sender.
     *
     * @param body a body read from a worker's frame, any object or {@code null}
     * @return the id of the worker the report is about, or {@link Integer#MIN_VALUE} if
     *         {@code body} is not a report a worker may send
     */
    public static int reportedWorker(Object body) {
        if (body instanceof Finished f) {
            return f.worker();
        }
        if (body instanceof Erred e) {
            return e.worker();
        }
        if (body instanceof Message.ToScheduler m && !(m instanceof Message.WorkerLost)
                && !(m instanceof Message.TaskFinished) && !(m instanceof Message.TaskErred)) {
            return m.worker();
        }
        return Integer.MIN_VALUE;
    }
}
