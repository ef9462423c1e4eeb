/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.testkit;

import dev.spindle.cluster.Message;
import dev.spindle.cluster.Transport;
import java.util.concurrent.CompletableFuture;

/**
 * A transport that reaches no worker: messages go nowhere and fetches fail. A
 * {@link dev.spindle.cluster.ClusterCoordinator} over it assigns submitted tasks that never
 * finish, which is enough to read its stats in the tests of the modules that monitor a
 * coordinator, without starting a worker JVM.
 */
public final class UnreachableTransport implements Transport {

    @Override
    public void toWorker(int worker, Message.ToWorker message) {
    }

    @Override
    public void toScheduler(Message.ToScheduler message) {
    }

    @Override
    public CompletableFuture<Object> fetch(String key, int holder, int requester) {
        return CompletableFuture.failedFuture(new IllegalStateException("no worker is reachable"));
    }

    @Override
    public void workerLost(int worker) {
    }

    @Override
    public long bytesTransferred() {
        return 0;
    }

    @Override
    public void close() {
    }
}
