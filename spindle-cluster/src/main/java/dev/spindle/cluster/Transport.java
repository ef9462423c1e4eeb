/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.concurrent.CompletableFuture;

/**
 * The seam between the scheduler and the workers. The in-process {@link LocalTransport} delivers
 * with a configured latency and bandwidth; a transport between JVMs implements the same
 * contract.
 *
 * <p>Contract: messages may be delayed but are delivered at most once; nothing is delivered to
 * or from a worker after {@link #workerLost}; {@link #fetch} completes exceptionally (never
 * hangs) when the holder is gone or lacks the key.
 */
public interface Transport extends AutoCloseable {

    /**
     * Sends a message to a worker.
     *
     * @param worker the id of the worker
     * @param message the message; dropped if the worker is lost
     */
    void toWorker(int worker, Message.ToWorker message);

    /**
     * Sends a message to the scheduler.
     *
     * @param message the message, from a worker or about one
     */
    void toScheduler(Message.ToScheduler message);

    /**
     * Copies {@code key}'s value from worker {@code holder} to worker {@code requester}.
     *
     * @param key the key of the value
     * @param holder the id of the worker that holds it
     * @param requester the id of the worker that needs it
     * @return completes with the value, or exceptionally if the holder is gone or lacks the key
     */
    CompletableFuture<Object> fetch(String key, int holder, int requester);

    /**
     * Sends what {@link #toWorker} has queued. A transport may hold the scheduler's messages to
     * send them to each worker in one frame; the scheduler calls this whenever it has no more
     * events to handle (and at least every few events), so a message waits at most until the
     * scheduler is idle. The default does nothing: a transport that holds nothing sends at once.
     * Not to throw: a flush that throws may have dropped what it held, so the scheduler handles
     * every worker it sent a message since the last flush as lost, and cuts it off.
     */
    default void flush() {
    }

    /**
     * Cuts a worker off and tells the scheduler with {@link Message.WorkerLost}.
     *
     * @param worker the id of the worker to cut off
     */
    void workerLost(int worker);

    /**
     * The scheduler has removed a retired worker: nothing more is sent to it, and the values it
     * held have other holders, so it may stop. The default does nothing.
     *
     * @param worker the id of the retired worker
     */
    default void retired(int worker) {
    }

    /**
     * Bytes moved by {@link #fetch} so far.
     *
     * @return the total size in bytes of the values fetched between workers
     */
    long bytesTransferred();

    /** Stops delivering; pending deliveries are dropped. */
    @Override
    void close();
}
