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

    /**
     * {@link Message.Compute} with its function as bytes.
     *
     * @param key the task's key
     * @param attempt which attempt at the task this is
     * @param function the task function, serialised
     * @param dependencies the keys of the tasks whose values it takes
     * @param holders for each dependency, the workers that hold its value
     * @param priority the task's priority
     * @param releases the releases sent to the worker before this task ({@link Message.Compute#releases})
     */
    public record Compute(String key, long attempt, byte[] function, List<String> dependencies,
                          Map<String, List<Integer>> holders, int priority, long releases) {

        /**
         * A task that waits for no release.
         *
         * @param key the task's key
         * @param attempt which attempt at the task this is
         * @param function the task function, serialised
         * @param dependencies the keys of the tasks whose values it takes
         * @param holders for each dependency, the workers that hold its value
         * @param priority the task's priority
         */
        public Compute(String key, long attempt, byte[] function, List<String> dependencies,
                       Map<String, List<Integer>> holders, int priority) {
            this(key, attempt, function, dependencies, holders, priority, 0);
        }
    }

    /**
     * {@link Message.TaskFinished} with its value as bytes.
     *
     * @param worker the worker that ran the task
     * @param key the task's key
     * @param attempt the attempt that finished
     * @param value the task's value, serialised
     * @param bytes the value's size as the worker measured it
     * @param nanos how long the task ran
     */
    public record Finished(int worker, String key, long attempt, byte[] value, long bytes, long nanos) {
    }

    /**
     * {@link Message.TaskErred} with the error as text: class name, message and stack trace (both
     * may be null).
     *
     * @param worker the worker that ran the task
     * @param key the task's key
     * @param attempt the attempt that failed
     * @param errorClass the class name of what the task threw
     * @param message its message, or {@code null}
     * @param trace its stack trace, or {@code null}
     * @param nanos how long the task ran
     */
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

    /**
     * A worker asks a holder for a value.
     *
     * @param key the key of the value
     * @param holder the worker asked
     * @param requester the worker asking
     */
    public record FetchRequest(String key, int holder, int requester) {
    }

    /**
     * The holder's answer: the value's bytes, or {@code null} if it holds none.
     *
     * @param key the key of the value
     * @param holder the worker answering
     * @param value the value, serialised, or {@code null}
     */
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
