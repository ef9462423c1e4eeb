/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A transport that wires a {@link GraphScheduler} to one real {@link ClusterWorker}
 * ({@code realId}); the other workers are played by the test, which answers for them with
 * {@link #finish} or {@link GraphScheduler#receive}, and the real worker's fetches are answered by
 * {@link Fetches}. Everything sent to any worker is recorded. Set {@link #scheduler} before the
 * first submission.
 */
class OneRealWorker implements Transport {

    /** How the test answers the real worker's fetches: {@code key} from worker {@code holder}. */
    interface Fetches {
        CompletableFuture<Object> fetch(String key, int holder);
    }

    final ExecutorService wire = Executors.newSingleThreadExecutor();
    final RecordingTransport recorded = new RecordingTransport();
    final int realId;
    final Fetches fetches;
    final ClusterWorker real;
    volatile GraphScheduler scheduler;

    OneRealWorker(int realId, Fetches fetches) {
        this.realId = realId;
        this.fetches = fetches;
        this.real = new ClusterWorker(realId, 1, this);
    }

    /** With a real worker whose data store has a memory limit of {@code memoryLimitBytes}. */
    OneRealWorker(int realId, Fetches fetches, long memoryLimitBytes) {
        this.realId = realId;
        this.fetches = fetches;
        this.real = new ClusterWorker(realId, 1, this, memoryLimitBytes);
    }

    /** The scheduler's side: recorded, and delivered on the wire thread if for the real worker. */
    @Override
    public void toWorker(int worker, Message.ToWorker message) {
        recorded.toWorker(worker, message);
        if (worker == realId) {
            wire.execute(() -> real.receive(message));
        }
    }

    /** The real worker's side. */
    @Override
    public void toScheduler(Message.ToScheduler message) {
        scheduler.receive(message);
    }

    @Override
    public CompletableFuture<Object> fetch(String key, int holder, int requester) {
        return fetches.fetch(key, holder);
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
        real.shutdown();
        wire.shutdownNow();
    }

    /** Waits until the messages delivered so far, and the scheduler's replies to them, have been handled. */
    void settle() throws Exception {
        for (int i = 0; i < 4; i++) {
            wire.submit(() -> { }).get();
            scheduler.stealEvents();
        }
    }

    /** The last task {@code key} sent to {@code worker}, or {@code null} if none was. */
    Message.Compute last(int worker, String key) {
        List<Message.Compute> cs = new ArrayList<>();
        for (RecordingTransport.Sent s : recorded.sentToWorkers()) {
            if (s.worker() == worker && s.message() instanceof Message.Compute c && c.key().equals(key)) {
                cs.add(c);
            }
        }
        return cs.isEmpty() ? null : cs.get(cs.size() - 1);
    }

    /** Plays worker {@code worker} finishing its last attempt of {@code key} with {@code value}, then settles. */
    void finish(int worker, String key, Object value) throws Exception {
        scheduler.receive(new Message.TaskFinished(worker, key, last(worker, key).attempt(), value, 4, 1000));
        settle();
    }

    /** Whether the scheduler has told {@code worker} to release {@code key}. */
    boolean releasedTo(int worker, String key) {
        for (RecordingTransport.Sent s : recorded.sentToWorkers()) {
            if (s.worker() == worker && s.message() instanceof Message.ReleaseKey r && r.key().equals(key)) {
                return true;
            }
        }
        return false;
    }

    /** How many replicate orders the scheduler has sent. */
    long replicates() {
        return recorded.sentToWorkers().stream().filter(x -> x.message() instanceof Message.Replicate).count();
    }
}
