/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.async;

import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.AsyncTask;
import dev.spindle.async.Poll;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;

/**
 * Tokio's {@code chained_spawn}: a chain of {@code depth} tasks, each spawning the next from
 * inside the runtime; the last signals the caller. Pure spawn-to-run latency on one path.
 * Checked: the number of links run.
 *
 * <ul>
 *   <li>async: each link calls {@code rt.spawn(next)} and returns ready.</li>
 *   <li>CompletableFuture: each link calls {@code CompletableFuture.runAsync(next, pool)}.</li>
 *   <li>virtual threads: each link starts the next on a virtual thread of its own
 *       ({@code threads.execute(next)}).</li>
 * </ul>
 */
public final class ChainedSpawnAsync implements AsyncWorkload {

    /** Tokio's size. */
    public static final int FULL_DEPTH = 1_000;

    private final int depth;

    public ChainedSpawnAsync(int depth) {
        this.depth = depth;
    }

    @Override
    public String name() {
        return "chained_spawn";
    }

    @Override
    public String describe() {
        return String.format("chained_spawn: a chain of %,d tasks, each spawning the next", depth);
    }

    @Override
    public long operations() {
        return depth;
    }

    @Override
    public long run(AsyncRuntime rt) {
        CompletableFuture<Long> done = new CompletableFuture<>();
        rt.spawn(link(rt, 1, done));
        return AsyncWorkload.check(name() + " links run", depth, AsyncWorkload.await(done, name()));
    }

    private AsyncTask<Void> link(AsyncRuntime rt, int n, CompletableFuture<Long> done) {
        return cx -> {
            if (n == depth) {
                done.complete((long) n);
            } else {
                rt.spawn(link(rt, n + 1, done));
            }
            return Poll.ready(null);
        };
    }

    @Override
    public long run(ForkJoinPool pool) {
        CompletableFuture<Long> done = new CompletableFuture<>();
        CompletableFuture.runAsync(() -> link(pool, 1, done), pool);
        return AsyncWorkload.check(name() + " links run", depth, AsyncWorkload.await(done, name()));
    }

    private void link(ForkJoinPool pool, int n, CompletableFuture<Long> done) {
        if (n == depth) {
            done.complete((long) n);
        } else {
            CompletableFuture.runAsync(() -> link(pool, n + 1, done), pool);
        }
    }

    @Override
    public long runVirtual(ExecutorService threads) {
        CompletableFuture<Long> done = new CompletableFuture<>();
        threads.execute(() -> virtualLink(threads, 1, done));
        return AsyncWorkload.check(name() + " links run", depth, AsyncWorkload.await(done, name()));
    }

    private void virtualLink(ExecutorService threads, int n, CompletableFuture<Long> done) {
        try {
            if (n == depth) {
                done.complete((long) n);
            } else {
                threads.execute(() -> virtualLink(threads, n + 1, done));
            }
        } catch (RuntimeException e) {
            done.completeExceptionally(e);                      // a refused link fails the run
        }
    }
}
