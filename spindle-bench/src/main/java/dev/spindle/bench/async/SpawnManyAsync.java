/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.async;

import dev.spindle.async.Async;
import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.AsyncTask;
import dev.spindle.async.Context;
import dev.spindle.async.JoinHandle;
import dev.spindle.async.Poll;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;

/**
 * Tokio's {@code spawn_many_local}: a task inside the runtime spawns {@code tasks} tasks, each
 * returning its index, and sums their results. Checked: the sum of the indices.
 *
 * <ul>
 *   <li>async: {@code rt.spawn} of an outer task that calls {@code rt.spawn} {@code tasks}
 *       times (so the children go to that worker's local deque, as Tokio's local spawns do)
 *       and then awaits their {@code JoinHandle}s in order, the same shape as the
 *       CompletableFuture version (no counter shared by the tasks).</li>
 *   <li>async ({@code spawn_many_all}): the same, but the outer task joins the handles with
 *       {@code Async.all}, the combinator a user reaches for, and sums the list; the other
 *       runtimes run the same code as for {@code spawn_many}.</li>
 *   <li>CompletableFuture: an outer task on the pool calls
 *       {@code CompletableFuture.supplyAsync(i, pool)} {@code tasks} times (a worker's submits
 *       go to its own queue) and joins them with {@code allOf}; the caller waits on that.</li>
 *   <li>virtual threads: one virtual thread submits {@code tasks} tasks (a virtual thread each),
 *       then {@code get}s their futures in order, each {@code get} parking it until that task
 *       is done, and sums.</li>
 * </ul>
 */
public final class SpawnManyAsync implements AsyncWorkload {

    /** Tokio's size. */
    public static final int FULL_TASKS = 10_000;

    private final int tasks;
    private final boolean combinator;

    /** {@code spawn_many}: the async side awaits the handles in order by hand. */
    public SpawnManyAsync(int tasks) {
        this(tasks, false);
    }

    /**
     * @param combinator whether the async side joins the handles with {@code Async.all}
     *     ({@code spawn_many_all}) rather than awaiting them in order by hand
     */
    public SpawnManyAsync(int tasks, boolean combinator) {
        this.tasks = tasks;
        this.combinator = combinator;
    }

    @Override
    public String name() {
        return combinator ? "spawn_many_all" : "spawn_many";
    }

    @Override
    public String describe() {
        return String.format("%s: %,d tasks spawned from a task inside the runtime, joined %s", name(), tasks,
                combinator ? "with Async.all on the async side" : "in order");
    }

    @Override
    public long operations() {
        return tasks;
    }

    private long expected() {
        return (long) tasks * (tasks - 1) / 2;
    }

    /**
     * A task spawns the others, keeps their {@link JoinHandle}s and awaits them in order,
     * summing their values: the same shape as the CompletableFuture version (supplyAsync per
     * task, then allOf and a sum), with no counter shared by the tasks.
     */
    @Override
    public long run(AsyncRuntime rt) {
        if (combinator) {
            return runWithAll(rt);
        }
        JoinHandle<Long> parent = rt.spawn(new AsyncTask<Long>() {
            private JoinHandle<Long>[] handles;
            private int next;
            private long sum;

            @Override
            @SuppressWarnings("unchecked")
            public Poll<Long> poll(Context cx) {
                if (handles == null) {
                    handles = new JoinHandle[tasks];
                    for (int i = 0; i < tasks; i++) {
                        long v = i;
                        handles[i] = rt.spawn(c -> Poll.ready(v));
                    }
                }
                while (next < tasks) {
                    Poll<Long> p = handles[next].poll(cx);
                    if (p.isPending()) {
                        return Poll.pending();          // woken when that task completes
                    }
                    sum += p.value();
                    next++;
                }
                return Poll.ready(sum);
            }
        });
        return AsyncWorkload.check(name() + " sum of task indices", expected(),
                AsyncWorkload.await(parent.toCompletableFuture(), name()));
    }

    /** {@code spawn_many_all}: the outer task spawns the tasks and joins them with {@code Async.all}. */
    private long runWithAll(AsyncRuntime rt) {
        JoinHandle<Long> parent = rt.spawn(Async.then(Async.ready(null), ignored -> {   // at its first poll
            List<JoinHandle<Long>> handles = new ArrayList<>(tasks);
            for (int i = 0; i < tasks; i++) {
                long v = i;
                handles.add(rt.spawn(c -> Poll.ready(v)));
            }
            return Async.map(Async.all(handles), values -> {
                long s = 0;
                for (long v : values) {
                    s += v;
                }
                return s;
            });
        }));
        return AsyncWorkload.check(name() + " sum of task indices", expected(),
                AsyncWorkload.await(parent.toCompletableFuture(), name()));
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

    @Override
    public long runVirtual(ExecutorService threads) {
        Future<Long> all = threads.submit(() -> {
            @SuppressWarnings("unchecked")
            Future<Long>[] fs = new Future[tasks];
            for (int i = 0; i < tasks; i++) {
                long v = i;
                fs[i] = threads.submit(() -> v);
            }
            return AsyncWorkload.awaitSum(fs, name());
        });
        return AsyncWorkload.check(name() + " sum of task indices", expected(), AsyncWorkload.await(all, name()));
    }
}
