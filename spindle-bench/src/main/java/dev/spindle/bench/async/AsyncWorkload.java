/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.async;

import dev.spindle.async.AsyncRuntime;
import dev.spindle.bench.workload.WrongResultException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One of Tokio's runtime benchmarks ({@code benches/rt_multi_threaded.rs}), written three times:
 * as {@link dev.spindle.async.AsyncTask}s on an {@link AsyncRuntime}, as
 * {@link CompletableFuture} stages on a {@link ForkJoinPool}, and as blocking code on virtual
 * threads (JDK 21+), each in its own idiom. Every run checks its result and throws
 * {@link WrongResultException} if it is wrong, so a runtime that loses or repeats a task cannot
 * post a fast time. Every wait is bounded by {@link #TIMEOUT_SECONDS}.
 */
public interface AsyncWorkload {

    /** How long a run may take before it is declared hung. */
    long TIMEOUT_SECONDS = 60;

    /** The name ({@code spawn_many}, ...). */
    String name();

    /** What exactly runs, with the sizes. */
    String describe();

    /** Task steps in one run (spawns, yields, hops): the unit of the throughput figure. */
    long operations();

    /** One run on an async runtime; returns the checked result. */
    long run(AsyncRuntime rt);

    /** One run as CompletableFuture stages on {@code pool}; returns the checked result. */
    long run(ForkJoinPool pool);

    /**
     * One run in the virtual-thread idiom: blocking code on virtual threads started by
     * {@code threads}, an executor that starts one per task
     * ({@link dev.spindle.bench.runtime.VirtualThreads#newPerTaskExecutor}); returns the checked
     * result.
     */
    long runVirtual(ExecutorService threads);

    /**
     * Waits for {@code done} (bounded), unwrapping failures: a blocking wait, so on a virtual
     * thread it parks the thread and frees its carrier.
     */
    static long await(Future<Long> done, String what) {
        try {
            return done.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(what + ": interrupted", e);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException) {
                throw (RuntimeException) c;
            }
            throw new IllegalStateException(what + " failed", c);
        } catch (TimeoutException e) {
            throw new IllegalStateException(what + ": no result after " + TIMEOUT_SECONDS + " s (hung?)", e);
        }
    }

    /** Waits for each of {@code results} in turn (each wait bounded) and returns their sum. */
    static long awaitSum(Future<Long>[] results, String what) {
        long sum = 0;
        for (Future<Long> f : results) {
            sum += await(f, what);
        }
        return sum;
    }

    /** Throws {@link WrongResultException} unless {@code actual == expected}; returns it. */
    static long check(String what, long expected, long actual) {
        if (actual != expected) {
            throw new WrongResultException(what, expected, actual);
        }
        return actual;
    }
}
