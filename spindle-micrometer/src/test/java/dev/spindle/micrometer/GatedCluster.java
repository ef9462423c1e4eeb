/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.micrometer;

import dev.spindle.cluster.ClusterStats;
import dev.spindle.cluster.ClusterView;
import dev.spindle.cluster.StealEvent;
import dev.spindle.cluster.TaskEvent;
import dev.spindle.testkit.Await;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A cluster for the tests of reads that may not answer: its {@code stats()} reports {@link #figure}
 * as its tasks in memory and executed, as it is when the call returns; a call entered while
 * {@link #gate} is set waits for that latch to open whatever interrupts, as a cluster's wait for
 * its scheduler thread does, then throws {@link #closed} if set.
 *
 * <p>{@link #block()} sets a new gate and remembers it; a test opens them all after it
 * ({@link #openAll()}), so that no reader thread stays stuck in a gate.
 */
class GatedCluster implements ClusterView {
    /** The calls of {@code stats()} so far, counted as they enter. */
    final AtomicInteger calls = new AtomicInteger();
    volatile CountDownLatch gate;
    volatile RuntimeException closed;
    /** Thrown, if set, where {@link #closed} would be (after it, if both are). */
    volatile Error error;
    volatile int figure;
    private final List<CountDownLatch> gates = new CopyOnWriteArrayList<>();

    /** Makes every later call wait until the returned gate opens (or {@link #gate} is cleared before it enters). */
    CountDownLatch block() {
        CountDownLatch g = new CountDownLatch(1);
        gates.add(g);
        gate = g;
        return g;
    }

    /** Opens every gate {@link #block()} set. */
    void openAll() {
        gates.forEach(CountDownLatch::countDown);
    }

    @Override
    public ClusterStats stats() {
        calls.incrementAndGet();
        CountDownLatch g = gate;
        if (g != null) {
            Await.ignoringInterrupts(g);
        }
        RuntimeException c = closed;
        if (c != null) {
            throw c;
        }
        Error e = error;
        if (e != null) {
            throw e;
        }
        int f = figure;
        return new ClusterStats(List.of(), 0, 0, 0, 0, 0, f, 0, 0, f, 0, 0);
    }

    @Override
    public List<StealEvent> stealEvents() {
        return List.of();
    }

    @Override
    public List<TaskEvent> taskEvents() {
        return List.of();
    }
}
