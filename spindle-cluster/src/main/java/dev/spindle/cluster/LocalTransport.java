/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The in-process {@link Transport}: every delivery is delayed on one timer thread, control
 * messages by the latency, data by {@code latency + bytes / bandwidth}, so that moving data
 * between workers of one JVM costs what it would on a network. Links are not congested: two
 * transfers at once each get the full bandwidth.
 */
final class LocalTransport implements Transport {

    private final double bandwidth;
    private final long latencyNanos;
    private final ScheduledThreadPoolExecutor timer;
    private final AtomicLong bytes = new AtomicLong();
    private volatile List<ClusterWorker> workers = List.of();
    private volatile Consumer<Message.ToScheduler> scheduler = m -> { };
    private volatile boolean closed;

    LocalTransport(double bandwidth, long latencyNanos) {
        this.bandwidth = bandwidth;
        this.latencyNanos = latencyNanos;
        this.timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "cluster-transport");
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true);
    }

    /**
     * @param workers the workers by id: a thread-safe list the cluster may grow, or set an entry of
     *        when a worker rejoins; each send reads the incarnation of the moment
     */
    void connect(List<ClusterWorker> workers, Consumer<Message.ToScheduler> scheduler) {
        this.workers = workers;
        this.scheduler = scheduler;
    }

    @Override
    public void toWorker(int worker, Message.ToWorker message) {
        ClusterWorker w = workers.get(worker);
        later(latencyNanos, () -> {
            if (w.isAlive()) {
                w.receive(message);
            }
        });
    }

    @Override
    public void toScheduler(Message.ToScheduler message) {
        ClusterWorker w = workers.get(message.worker());
        later(latencyNanos, () -> {
            // the loss of an incarnation since replaced is stale: its id restarted only once the
            // scheduler let it go (a retirement that completed while this report travelled), and
            // the scheduler, which knows workers by id, would take it for the loss of the successor
            if (w.isAlive() || (message instanceof Message.WorkerLost && workers.get(message.worker()) == w)) {
                scheduler.accept(message);
            }
        });
    }

    @Override
    public CompletableFuture<Object> fetch(String key, int holder, int requester) {
        CompletableFuture<Object> result = new CompletableFuture<>();
        ClusterWorker from = workers.get(holder);
        long size = from.isAlive() ? from.store().size(key) : -1;
        if (size < 0) {
            later(latencyNanos, () -> result.completeExceptionally(
                    new IllegalStateException("worker " + holder + " does not hold '" + key + "'")));
            return result;
        }
        Object value;
        try {
            value = from.store().get(key);
        } catch (RuntimeException goneOrUnreadable) {   // released meanwhile, or its spill file unreadable
            if (goneOrUnreadable instanceof DataStore.Lost) {
                from.copyLost(key);           // only the holder knows: this requester may go on to another
            }
            later(latencyNanos, () -> result.completeExceptionally(goneOrUnreadable));
            return result;
        }
        long delay = latencyNanos + (long) (size / bandwidth * 1e9);
        later(delay, () -> {
            if (!from.isAlive()) {
                result.completeExceptionally(new IllegalStateException("worker " + holder + " was lost"));
            } else {
                bytes.addAndGet(size);
                result.complete(value);
            }
        });
        return result;
    }

    @Override
    public void workerLost(int worker) {
        workers.get(worker).kill();
        toScheduler(new Message.WorkerLost(worker));
    }

    /** A retired worker stops: the scheduler sends it nothing more and its values have other holders. */
    @Override
    public void retired(int worker) {
        workers.get(worker).shutdown();
    }

    @Override
    public long bytesTransferred() {
        return bytes.get();
    }

    private void later(long nanos, Runnable action) {
        if (closed) {
            return;
        }
        try {
            timer.schedule(action, Math.max(0, nanos), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            // closed concurrently: dropping is the contract after close
        }
    }

    @Override
    public void close() {
        closed = true;
        timer.shutdownNow();
    }
}
