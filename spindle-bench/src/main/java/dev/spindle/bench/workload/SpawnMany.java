/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.workload;

import dev.spindle.bench.runtime.BenchRuntime;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Spawns {@code tasks} independent tiny tasks and waits until all have run: the cost of
 * submitting, queueing and running a task. {@linkplain #local(int) Local}: the tasks are
 * submitted by a task already running inside the pool (on a work-stealing pool they go to that
 * worker's own queue and peers steal them). {@linkplain #remote(int) Remote}: the calling
 * thread, outside the pool, submits them all.
 *
 * <p>Task {@code i} adds {@code i} to a shared sum; the result is that sum,
 * {@code tasks * (tasks - 1) / 2}, so a lost or repeated task shows.
 */
public final class SpawnMany extends MessageWorkload {

    public static final int FULL_TASKS = 10_000;

    private final boolean local;
    private final int tasks;

    private SpawnMany(boolean local, int tasks) {
        this.local = local;
        this.tasks = Checks.positive("tasks", tasks);
    }

    /** Tasks spawned by a task running in the pool. */
    public static SpawnMany local(int tasks) {
        return new SpawnMany(true, tasks);
    }

    /** Tasks submitted from a thread outside the pool. */
    public static SpawnMany remote(int tasks) {
        return new SpawnMany(false, tasks);
    }

    @Override
    public String name() {
        return local ? "spawn-many-local" : "spawn-many-remote";
    }

    @Override
    public String describe() {
        return name() + "(" + tasks + " tasks, spawned from " + (local ? "a task in the pool" : "outside") + ")";
    }

    public int tasks() {
        return tasks;
    }

    @Override
    public long expected() {
        return (long) tasks * (tasks - 1) / 2;
    }

    @Override
    protected long runUnchecked(BenchRuntime rt) {
        AtomicLong sum = new AtomicLong();
        AtomicInteger remaining = new AtomicInteger(tasks);
        CountDownLatch done = new CountDownLatch(1);
        Runnable spawnAll = () -> {
            for (int i = 0; i < tasks; i++) {
                long v = i;
                rt.execute(() -> {
                    sum.addAndGet(v);
                    if (remaining.decrementAndGet() == 0) {
                        done.countDown();
                    }
                });
            }
        };
        if (local) {
            rt.execute(spawnAll);
        } else {
            spawnAll.run();
        }
        Checks.await(done, describe());
        return sum.get();
    }
}
