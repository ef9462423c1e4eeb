/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import java.io.Serializable;
import java.util.List;
import java.util.Map;

/**
 * What travels inside a signed frame. User objects (task functions, results, fetched values) are
 * nested as separately serialised bytes, so that a function or value the allow-list refuses
 * fails only its own task, with the key still known, instead of the whole frame.
 */
final class Wire {

    private Wire() {
    }

    /** A frame addressed to {@code to} ({@link #COORDINATOR} or a worker id). */
    record Frame(int to, Object body) implements Serializable {
    }

    static final int COORDINATOR = -1;

    /** {@link dev.spindle.cluster.Message.Compute} with its function as bytes. */
    record Compute(String key, long attempt, byte[] function, List<String> dependencies,
                   Map<String, List<Integer>> holders, int priority) implements Serializable {
    }

    /** {@link dev.spindle.cluster.Message.TaskFinished} with its value as bytes. */
    record Finished(int worker, String key, long attempt, byte[] value, long bytes, long nanos)
            implements Serializable {
    }

    /** A worker asks a holder for a value. */
    record FetchRequest(String key, int holder, int requester) implements Serializable {
    }

    /** The holder's answer: the value's bytes, or {@code null} if it holds none. */
    record FetchReply(String key, int holder, byte[] value) implements Serializable {
    }
}
