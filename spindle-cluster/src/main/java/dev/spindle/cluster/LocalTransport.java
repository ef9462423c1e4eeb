/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The in-process {@link Transport}: every delivery is delayed on one timer thread, control
 * messages by the latency, data by {@code latency + bytes / bandwidth}, so that moving data
 * between workers of one JVM costs what it would on a network. Links are not congested: two
 * transfers at once each get the full bandwidth.
 *
 * <p>Every delivery runs on the timer's one thread, so the scheduler's and the workers' messages
 * are handled one at a time, each sender's in the order it sent them (at one latency, later sent
 * is later due). A delivery with no delay (no latency configured, or a fetch's failure; data too
 * small for the bandwidth to delay it) does not go through the timer's delay queue one by one: it
 * is queued in {@link #now}, and one drain task on the timer runs what that queue holds, in order,
 * scheduled when the queue gets its first delivery while no drain is pending ({@link #draining}).
 * A graph of small tasks without latency sends a few messages per task, and scheduling each (the
 * delay queue's lock and heap) cost more than handling it. A drain runs at most {@link #BATCH}
 * deliveries, then schedules itself again behind what the timer has due, so that data delayed by
 * the bandwidth is not held back by a steady stream of messages.
 */
final class LocalTransport implements Transport {

    /** The most deliveries one drain runs before what the timer has due gets its turn. */
    private static final int BATCH = 256;

    private final double bandwidth;
    private final long latencyNanos;
    private final ScheduledThreadPoolExecutor timer;
    /** Deliveries without delay, in the order they were sent; run by {@link #drain} on the timer's thread. */
    private final ConcurrentLinkedQueue<Runnable> now = new ConcurrentLinkedQueue<>();
    /** Whether a drain is scheduled or running: set by whoever queues into an empty {@link #now} first. */
    private final AtomicBoolean draining = new AtomicBoolean();
    private final Runnable drain = this::drain;
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
        // saturated: a transfer past Long.MAX_VALUE ns (a large Sized value over a slow link) is
        // cast to it, and the latency added wrapped negative, which later() took for no delay
        long delay = Sizes.plus(latencyNanos, (long) (size / bandwidth * 1e9));
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
        if (nanos <= 0) {
            now.offer(action);
            // the drain that empties the queue clears the flag and looks again (drain), so a
            // delivery queued meanwhile is either seen by that drain or finds the flag clear here
            if (!draining.get() && draining.compareAndSet(false, true)) {
                schedule(drain, 0);
            }
            return;
        }
        schedule(action, nanos);
    }

    private void schedule(Runnable action, long nanos) {
        try {
            timer.schedule(action, nanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            // closed concurrently: dropping is the contract after close
        }
    }

    /**
     * On the timer's thread: runs up to {@link #BATCH} deliveries of {@link #now}, then schedules
     * itself again if more are queued, or clears {@link #draining} and checks once more (a sender
     * that queued after the last poll but saw the flag still set left its delivery to this drain).
     */
    private void drain() {
        for (int n = 0; n < BATCH; n++) {
            if (closed) {
                return;                       // dropped, as the timer's queue is by close
            }
            Runnable action = now.poll();
            if (action == null) {
                draining.set(false);
                if (now.isEmpty() || !draining.compareAndSet(false, true)) {
                    return;                   // nothing queued, or its sender scheduled a drain
                }
                continue;
            }
            try {
                action.run();
            } catch (RuntimeException | Error e) {
                // thrown out of the drain, it would leave the flag set and strand the queue (the
                // timer keeps a scheduled action's throwable in its future, which nobody reads)
                Thread t = Thread.currentThread();
                t.getUncaughtExceptionHandler().uncaughtException(t, e);
            }
        }
        schedule(drain, 0);                   // perhaps more queued: after what the timer has due by now
    }

    @Override
    public void close() {
        closed = true;
        timer.shutdownNow();
        now.clear();                          // dropped as the timer's queue is: a kept transport keeps no message
    }
}
