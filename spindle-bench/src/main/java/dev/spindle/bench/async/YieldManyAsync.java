/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.async;

import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.AsyncTask;
import dev.spindle.async.Context;
import dev.spindle.async.Poll;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Tokio's {@code yield_many}: {@code tasks} tasks spawned from outside, each yielding its thread
 * {@code yields} times; the last to finish signals the caller. Checked: the total of yields.
 *
 * <ul>
 *   <li>async: each task is a poll function that counts, wakes itself and returns pending
 *       ({@code Async.yieldNow()} in a loop, without the combinator's allocation), so every
 *       yield is one trip through the scheduler's queues.</li>
 *   <li>CompletableFuture: each task is a chain of {@code yields} {@code thenApplyAsync(x + 1)}
 *       stages, built by the task's first stage on the pool (in parallel, not by the caller), so
 *       every yield is one submission to the pool; {@code allOf} the chains' ends.</li>
 *   <li>virtual threads: {@code tasks} virtual threads, each calling {@code Thread.yield()}
 *       {@code yields} times (on a virtual thread that gives up its carrier: the thread goes to
 *       the back of the scheduler's queue) and returning its count; the caller gets their
 *       futures in order and sums.</li>
 * </ul>
 */
public final class YieldManyAsync implements AsyncWorkload {

    /** Tokio's sizes. */
    public static final int FULL_TASKS = 200;
    public static final int FULL_YIELDS = 1_000;

    private final int tasks;
    private final int yields;

    public YieldManyAsync(int tasks, int yields) {
        this.tasks = tasks;
        this.yields = yields;
    }

    @Override
    public String name() {
        return "yield_many";
    }

    @Override
    public String describe() {
        return String.format("yield_many: %,d tasks x %,d yields", tasks, yields);
    }

    @Override
    public long operations() {
        return (long) tasks * yields;
    }

    @Override
    public long run(AsyncRuntime rt) {
        CompletableFuture<Long> done = new CompletableFuture<>();
        AtomicInteger remaining = new AtomicInteger(tasks);
        AtomicLong total = new AtomicLong();
        for (int t = 0; t < tasks; t++) {
            rt.spawn(new AsyncTask<Void>() {
                private int n;

                @Override
                public Poll<Void> poll(Context cx) {
                    if (n == yields) {
                        total.addAndGet(n);
                        if (remaining.decrementAndGet() == 0) {
                            done.complete(total.get());
                        }
                        return Poll.ready(null);
                    }
                    n++;
                    cx.waker().wake();
                    return Poll.pending();
                }
            });
        }
        return AsyncWorkload.check(name() + " total yields", operations(), AsyncWorkload.await(done, name()));
    }

    @Override
    public long run(ForkJoinPool pool) {
        @SuppressWarnings("unchecked")
        CompletableFuture<Integer>[] ends = new CompletableFuture[tasks];
        for (int t = 0; t < tasks; t++) {
            ends[t] = CompletableFuture.supplyAsync(() -> {
                CompletableFuture<Integer> f = CompletableFuture.completedFuture(0);
                for (int i = 0; i < yields; i++) {
                    f = f.thenApplyAsync(x -> x + 1, pool);
                }
                return f;
            }, pool).thenCompose(f -> f);
        }
        CompletableFuture<Long> all = CompletableFuture.allOf(ends).thenApply(ignored -> {
            long s = 0;
            for (CompletableFuture<Integer> f : ends) {
                s += f.join();
            }
            return s;
        });
        return AsyncWorkload.check(name() + " total yields", operations(), AsyncWorkload.await(all, name()));
    }

    @Override
    public long runVirtual(ExecutorService threads) {
        @SuppressWarnings("unchecked")
        Future<Long>[] counts = new Future[tasks];
        for (int t = 0; t < tasks; t++) {
            counts[t] = threads.submit(() -> {
                long n = 0;
                for (int i = 0; i < yields; i++) {
                    Thread.yield();
                    n++;
                }
                return n;
            });
        }
        return AsyncWorkload.check(name() + " total yields", operations(), AsyncWorkload.awaitSum(counts, name()));
    }
}
