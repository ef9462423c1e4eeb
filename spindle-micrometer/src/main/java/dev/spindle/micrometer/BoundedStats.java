/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.micrometer;

import dev.spindle.cluster.ClusterStats;
import dev.spindle.cluster.ClusterView;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A cluster's {@code stats()} as its meters read it: on a reader thread, waited for at most
 * {@link #WAIT_NANOS}.
 *
 * <h2>Why</h2>
 *
 * <p>A registry reads a gauge or function counter on the thread that scrapes it (a Prometheus
 * endpoint's request thread, a push registry's publisher), one meter after another. A cluster's
 * {@code stats()} is answered by its scheduler thread, and the caller waits for that without
 * heeding interrupts; a coordinator whose scheduler thread is stuck (a transport's callback
 * waiting on a network that is gone) so held every scrape for good: not only the cluster's meters
 * but every other meter of the registry went unreported, and each later scrape stuck one more
 * thread.
 *
 * <h2>How</h2>
 *
 * <p>A read hands {@code stats()} to a daemon thread and waits until the read's deadline. One
 * read per binder is in flight at a time: a reading that finds one running waits for it, up to
 * that read's deadline, rather than start another; past it, the reading answers "none" at once
 * (its meters read NaN, as for a closed cluster) until the stuck read returns, and the next reading
 * starts afresh. So a stuck cluster holds one thread, not one per scrape, and costs a scrape one
 * wait. A read that returns is not reused: each reading takes its own snapshot, as before.
 */
final class BoundedStats {

    /** The longest a reading waits for the cluster: its scheduler answers in far less when not stuck. */
    static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(1);

    private static final ExecutorService READERS = Executors.newCachedThreadPool(new java.util.concurrent.ThreadFactory() {
        private final AtomicInteger n = new AtomicInteger();

        @Override
        public Thread newThread(Runnable r) {
            Thread t = new Thread(r, "spindle-metrics-cluster-reader-" + n.incrementAndGet());
            t.setDaemon(true);                 // a stuck read must not keep the JVM from exiting
            return t;
        }
    });

    /**
     * The read in flight or the last one, completed with the {@link ClusterStats} or what
     * {@code stats()} threw (a value, not an exceptional completion: the future's exception would
     * call the throwable's {@code toString()}, which may throw too); guarded by this.
     */
    private CompletableFuture<Object> read;
    /** When {@link #read} times out; guarded by this. */
    private long deadline;

    /**
     * The cluster's stats now; null if it is closed ({@link IllegalStateException},
     * {@link RejectedExecutionException}) or has not answered within the wait.
     *
     * @throws RuntimeException what {@code stats()} threw otherwise, as a direct call would
     */
    ClusterStats stats(ClusterView cluster) {
        CompletableFuture<Object> r;
        long until;
        synchronized (this) {
            r = read;
            if (r == null || r.isDone()) {
                CompletableFuture<Object> next = new CompletableFuture<>();
                r = next;
                read = next;
                deadline = System.nanoTime() + WAIT_NANOS;
                READERS.execute(() -> {
                    try {
                        next.complete(cluster.stats());
                    } catch (Throwable t) {
                        next.complete(t);
                    }
                });
            }
            until = deadline;
        }
        Object outcome;
        try {
            long left = until - System.nanoTime();
            outcome = left > 0 ? r.get(left, TimeUnit.NANOSECONDS) : r.getNow(null);
        } catch (TimeoutException stuck) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (ExecutionException cannotBe) {
            return null;                       // never completed exceptionally
        }
        if (outcome == null || outcome instanceof ClusterStats) {
            return (ClusterStats) outcome;     // null: still stuck past its deadline
        }
        if (outcome instanceof IllegalStateException || outcome instanceof RejectedExecutionException) {
            return null;                       // closed
        }
        if (outcome instanceof RuntimeException re) {
            throw re;
        }
        if (outcome instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException("the cluster's stats() threw a checked exception", (Throwable) outcome);
    }
}
