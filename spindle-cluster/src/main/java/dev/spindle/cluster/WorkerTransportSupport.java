/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * What the worker's side of every transport between JVMs does the same way: it holds the
 * {@link WorkerNode} that frames are for, hands it a task whose function arrived as bytes (or
 * says why the function is refused), checks
 * that a fetched value answers the fetch that was asked (key and holder) before reading it, and
 * counts the bytes fetched. A worker never sends to workers nor declares them lost: only the
 * coordinator does. A subclass adds the wire: how reports reach the coordinator, how a fetch
 * reaches the holder, which frames it accepts from whom.
 *
 * <p>Before {@link #attachNode} and after {@link #close}, {@link #node()} is {@code null} and
 * frames for the node are ignored. Thread-safe.
 *
 * <p>For transport implementers: public only so that the transports in other modules share one
 * definition; it is not an API for applications.
 */
public abstract class WorkerTransportSupport implements Transport {

    /** This worker's id. */
    protected final int id;
    private final AtomicLong bytes = new AtomicLong();
    private volatile WorkerNode node;

    /** For subclasses: the transport of worker {@code id}. */
    protected WorkerTransportSupport(int id) {
        this.id = id;
    }

    /** Starts handing frames to {@code node}. */
    protected final void attachNode(WorkerNode node) {
        this.node = node;
    }

    /** The node frames are for, or {@code null} before {@link #attachNode} and after {@link #close}. */
    protected final WorkerNode node() {
        return node;
    }

    /**
     * Reads a task's function with {@code reader} and hands the task to {@code node}.
     *
     * @return {@code null} once the node has the task, or, if the reader refuses the function
     *         ({@link SecurityException}) or it is not a {@link TaskFunction}, the reason, which the
     *         caller reports to the coordinator as the task's failure (a
     *         {@link SecurityException})
     */
    protected final String receiveCompute(WorkerNode node, String key, long attempt, byte[] function,
                                          List<String> dependencies, Map<String, List<Integer>> holders, int priority,
                                          Function<byte[], Object> reader) {
        Object read;
        try {
            read = reader.apply(function);
        } catch (SecurityException e) {
            return "function of task '" + key + "' refused: " + e.getMessage();
        }
        if (!(read instanceof TaskFunction<?> f)) {
            return "function of task '" + key + "' refused: a " + (read == null ? "null" : read.getClass().getName())
                    + " is not a task function";
        }
        node.receive(new Message.Compute(key, attempt, f, dependencies, holders, priority));
        return null;
    }

    /**
     * The value of a fetch reply, read by {@code reader} once the reply is shown to answer the
     * fetch of {@code key} from {@code holder}; its bytes are counted in {@link #bytesTransferred}.
     *
     * @throws SecurityException if the reply answers another fetch, or the reader refuses the value
     * @throws IllegalStateException if the holder does not hold the key ({@code value} null)
     */
    protected final Object fetched(String key, int holder, String replyKey, int replyHolder, byte[] value,
                                   Function<byte[], Object> reader) {
        if (!replyKey.equals(key) || replyHolder != holder) {
            throw new SecurityException("reply for '" + replyKey + "' from " + replyHolder + " answers another fetch");
        }
        if (value == null) {
            throw new IllegalStateException("worker " + holder + " does not hold '" + key + "'");
        }
        Object read = reader.apply(value);
        bytes.addAndGet(value.length);
        return read;
    }

    /** Not supported: a worker does not send to workers. */
    @Override
    public final void toWorker(int worker, Message.ToWorker message) {
        throw new UnsupportedOperationException("a worker does not send to workers");
    }

    /** Not supported: only the coordinator declares workers lost. */
    @Override
    public final void workerLost(int worker) {
        throw new UnsupportedOperationException("only the coordinator declares workers lost");
    }

    /** Bytes of values fetched from other workers so far. */
    @Override
    public final long bytesTransferred() {
        return bytes.get();
    }

    /** Stops handing frames to the node. */
    @Override
    public void close() {
        node = null;
    }
}
