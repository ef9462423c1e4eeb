/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.async;

import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.Poll;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Tokio's {@code spawn_many_local}: a task inside the runtime spawns {@code tasks} tasks; each
 * adds its index to a sum and counts down, and the last one signals the caller. Checked: the
 * sum of the indices.
 *
 * <ul>
 *   <li>async: {@code rt.spawn} of an outer task that calls {@code rt.spawn} {@code tasks}
 *       times (so the children go to that worker's local deque, as Tokio's local spawns do);
 *       the children count down as in Tokio's bench.</li>
 *   <li>CompletableFuture: an outer task on the pool calls
 *       {@code CompletableFuture.supplyAsync(i, pool)} {@code tasks} times (a worker's submits
 *       go to its own queue) and joins them with {@code allOf}; the caller waits on that.</li>
 * </ul>
 */
public final class SpawnManyAsync implements AsyncWorkload {

    /** Tokio's size. */
    public static final int FULL_TASKS = 10_000;

    private final int tasks;

    public SpawnManyAsync(int tasks) {
        this.tasks = tasks;
    }

    @Override
    public String name() {
        return "spawn_many";
    }

    @Override
    public String describe() {
        return String.format("spawn_many: %,d tasks spawned from a task inside the runtime", tasks);
    }

    @Override
    public long operations() {
        return tasks;
    }

    private long expected() {
        return (long) tasks * (tasks - 1) / 2;
    }

    @Override
    public long run(AsyncRuntime rt) {
        CompletableFuture<Long> done = new CompletableFuture<>();
        AtomicInteger remaining = new AtomicInteger(tasks);
        AtomicLong sum = new AtomicLong();
        rt.spawn(cx -> {
            for (int i = 0; i < tasks; i++) {
                long v = i;
                rt.spawn(c -> {
                    sum.addAndGet(v);
                    if (remaining.decrementAndGet() == 0) {
                        done.complete(sum.get());
                    }
                    return Poll.ready(null);
                });
            }
            return Poll.ready(null);
        });
        return AsyncWorkload.check(name() + " sum of task indices", expected(), AsyncWorkload.await(done, name()));
    }

    @Override
    public long run(ForkJoinPool pool) {
        CompletableFuture<Long> all = CompletableFuture.supplyAsync(() -> {
            @SuppressWarnings("unchecked")
            CompletableFuture<Long>[] fs = new CompletableFuture[tasks];
            for (int i = 0; i < tasks; i++) {
                long v = i;
                fs[i] = CompletableFuture.supplyAsync(() -> v, pool);
            }
            return CompletableFuture.allOf(fs).thenApply(ignored -> {
                long s = 0;
                for (CompletableFuture<Long> f : fs) {
                    s += f.join();
                }
                return s;
            });
        }, pool).thenCompose(f -> f);
        return AsyncWorkload.check(name() + " sum of task indices", expected(), AsyncWorkload.await(all, name()));
    }
}
