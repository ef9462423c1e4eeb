/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * One real {@link ClusterWorker} (id 0) with one thread, whose reports are recorded in
 * {@link #transport}. {@link #hold()} takes that thread with a task until {@link #open()}, so that
 * what the test delivers meanwhile queues and is taken in the worker's order, not in arrival order.
 * {@link #close()} opens the gate (a failing test leaves no thread blocked) and shuts the worker down.
 */
final class GatedWorker implements AutoCloseable {

    final RecordingTransport transport = new RecordingTransport();
    final ClusterWorker worker = new ClusterWorker(0, 1, transport);
    private final CountDownLatch gate = new CountDownLatch(1);

    /** Delivers task "block" (attempt 1, priority 0, after no release), which holds the only thread until {@link #open()}. */
    void hold() {
        worker.receive(new Message.Compute("block", 1, args -> {
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
