/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;

/**
 * The CPU time of worker threads found by name ({@code <scheduler>-worker-<index>}, the name
 * every Spindle scheduler gives its threads), from which the console derives each worker's busy
 * share: CPU time spent over wall time elapsed. A parked worker spends none, so the share is the
 * part of the interval the worker was running tasks or looking for them.
 *
 * <p>Thread ids are cached by name; the cache is rebuilt (one walk over the JVM's threads) at
 * most once per sample, and only when a name is missing or its thread has ended, or a thread has
 * started since the last walk (it may carry a name already cached). Not thread-safe: its users
 * hold its lock (the console's reader threads; one that outlasted its sample may still use it).
 *
 * <p>Nothing makes scheduler names unique: two schedulers of one name have workers of one name,
 * and which thread is whose cannot be told. Such a name is {@linkplain #AMBIGUOUS read as
 * unknown} while more than one live thread carries it, rather than show one scheduler's figure
 * for the other's worker.
 */
final class ThreadCpu {

    /** The cached id of a name that more than one live thread carries. */
    private static final long AMBIGUOUS = -1;

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final boolean supported;
    private Map<String, Long> ids = Map.of();
    private boolean refreshedThisSample;
    /** {@link ThreadMXBean#getTotalStartedThreadCount()} when the cache was last rebuilt. */
    private long startedAtRefresh = -1;
    /** Whether a thread has started since the cache was rebuilt, as this sample began. */
    private boolean threadsStarted;
    /** The id of the thread the last {@link #cpuNanos} read, or -1. */
    private long lastId = -1;

    ThreadCpu() {
        boolean ok;
        try {
            ok = threads.isThreadCpuTimeSupported();
            if (ok && !threads.isThreadCpuTimeEnabled()) {
                threads.setThreadCpuTimeEnabled(true);
            }
        } catch (UnsupportedOperationException | SecurityException e) {
            ok = false;
        }
        this.supported = ok;
    }

    /** Starts a sample: the cache may be rebuilt once more. */
    void nextSample() {
        refreshedThisSample = false;
        threadsStarted = supported && threads.getTotalStartedThreadCount() != startedAtRefresh;
    }

    /**
     * The CPU time of the thread named {@code name} in nanoseconds, or -1 if unknown: no live
     * thread, or more than one, carries that name.
     */
    long cpuNanos(String name) {
        lastId = -1;
        if (!supported) {
            return -1;
        }
        if (threadsStarted && !refreshedThisSample) {
            refresh();                         // a new thread may carry a cached name
        }
        Long id = ids.get(name);
        long t = id == null || id == AMBIGUOUS ? -1 : threads.getThreadCpuTime(id);
        if (t < 0 && !refreshedThisSample) {
            refresh();
            id = ids.get(name);
            t = id == null || id == AMBIGUOUS ? -1 : threads.getThreadCpuTime(id);
        }
        if (t >= 0) {
            lastId = id;
        }
        return t;
    }

    /**
     * The id of the thread whose CPU time the last {@link #cpuNanos} call returned, or -1 if it
     * returned none: a name may pass to a new thread (a spare worker started again in a slot), and
     * two readings of different threads give no busy share.
     */
    long lastThreadId() {
        return lastId;
    }

    private void refresh() {
        refreshedThisSample = true;
        // read before the walk: a thread started during it is caught by the next sample's
        startedAtRefresh = threads.getTotalStartedThreadCount();
        Map<String, Long> m = new HashMap<>();
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds(), 0)) {
            if (info != null && info.getThreadName().contains("-worker-")) {
                m.merge(info.getThreadName(), info.getThreadId(), (one, other) -> AMBIGUOUS);
            }
        }
        ids = m;
    }
}
