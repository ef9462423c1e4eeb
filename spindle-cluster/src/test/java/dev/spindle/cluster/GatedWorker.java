/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;

/**
 * One real {@link ClusterWorker} (id 0) with one thread, whose reports are recorded in
 * {@link #transport}. {@link #hold()} takes that thread with a task until {@link #open()}, so that
 * what the test delivers meanwhile queues and is taken in the worker's order, not in arrival order.
 * {@link #close()} opens the gate (a failing test leaves no thread blocked) and shuts the worker down.
 * The tests that deliver a worker's frames one by one, in an order of their choosing, share it.
 */
final class GatedWorker implements AutoCloseable {

    final RecordingTransport transport;
    final ClusterWorker worker;
    private final CountDownLatch gate = new CountDownLatch(1);

    GatedWorker() {
        this(new RecordingTransport());
    }

    private GatedWorker(RecordingTransport transport) {
        this.transport = transport;
        this.worker = new ClusterWorker(0, 1, transport);
    }

    /**
     * A gated worker whose every fetch gets {@code value}, as if another worker (worker 1) held
     * the current value of the key fetched: for a dependent that must read it rather than a stale
     * copy of its own.
     */
    static GatedWorker fetching(Object value) {
        return new GatedWorker(new RecordingTransport() {
            @Override
            public CompletableFuture<Object> fetch(String key, int holder, int requester) {
                return CompletableFuture.completedFuture(value);
            }
        });
    }

    /** Delivers task "block" (attempt 1, priority 0, after no release), which holds the only thread until {@link #open()}. */
    void hold() {
        hold(1);
    }

    /** As {@link #hold()}, with "block" as attempt {@code attempt}. */
    void hold(long attempt) {
        worker.receive(new Message.Compute("block", attempt, args -> {
            gate.await();
            return 0;
        }, List.of(), Map.of(), 0));
    }

    /** Lets "block" finish, and the tasks queued behind it start. */
    void open() {
        gate.countDown();
    }

    @Override
    public void close() {
        gate.countDown();
        worker.shutdown();
    }
}
