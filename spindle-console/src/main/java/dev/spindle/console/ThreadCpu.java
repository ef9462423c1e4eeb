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
 * most once per sample, and only when a name is missing or its thread has ended. Used by the
 * sampler thread only.
 */
final class ThreadCpu {

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final boolean supported;
    private Map<String, Long> ids = Map.of();
    private boolean refreshedThisSample;
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
    }

    /** The CPU time of the thread named {@code name} in nanoseconds, or -1 if unknown. */
    long cpuNanos(String name) {
        lastId = -1;
        if (!supported) {
            return -1;
        }
        Long id = ids.get(name);
        long t = id == null ? -1 : threads.getThreadCpuTime(id);
        if (t < 0 && !refreshedThisSample) {
            refresh();
            id = ids.get(name);
            t = id == null ? -1 : threads.getThreadCpuTime(id);
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
        Map<String, Long> m = new HashMap<>();
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds(), 0)) {
            if (info != null && info.getThreadName().contains("-worker-")) {
                m.put(info.getThreadName(), info.getThreadId());
            }
        }
        ids = m;
    }
}
