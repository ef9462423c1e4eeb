/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.async;

import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.AsyncTask;
import dev.spindle.async.JoinHandle;
import dev.spindle.async.Poll;
import java.lang.management.ManagementFactory;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Supplier;

/**
 * Bytes allocated per spawned task, by every thread of the process, for a spawn from inside a
 * task (as in spawn_many) and for a {@code CompletableFuture.supplyAsync} stage on a
 * {@link ForkJoinPool} of the same size. The task and the supplier are shared constants and the
 * task's {@link Poll} is preallocated, so what is counted is what the runtime allocates: the
 * task's cell and handle, a future, queue segments, waiter nodes. Uses
 * {@code com.sun.management.ThreadMXBean#getThreadAllocatedBytes}, summed over all live threads
 * (the runtime's workers included) before and after; the figure is a mean over many rounds,
 * after warm-up rounds, so the JIT's escape analysis is what a long-running program gets.
 *
 * <pre>
 * java -cp spindle.jar dev.spindle.bench.async.SpawnAllocation [workers] [tasks per round]
 * </pre>
 */
public final class SpawnAllocation {

    private static final Poll<Long> READY = Poll.ready(1L);
    private static final AsyncTask<Long> CHILD = cx -> READY;
    private static final Supplier<Long> SUPPLIER = () -> 1L;

    private SpawnAllocation() {
    }

    public static void main(String[] args) throws Exception {
        int workers = args.length > 0 ? Integer.parseInt(args[0]) : 2;
        int tasks = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(workers).build()) {
            report("spindle-async spawn from a task", workers, tasks, () -> spawnFromTask(rt, tasks));
        }
        ForkJoinPool pool = new ForkJoinPool(workers);
        try {
            report("CompletableFuture.supplyAsync from a pool task", workers, tasks, () -> supplyFromTask(pool, tasks));
        } finally {
            pool.shutdown();
        }
    }

    /** One round of spawns. */
    @FunctionalInterface
    private interface Round {
        void run() throws Exception;
    }

    private static void report(String what, int workers, int tasks, Round round) throws Exception {
        int warm = 200;
        int rounds = 200;
        com.sun.management.ThreadMXBean mx =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (int i = 0; i < warm; i++) {
            round.run();
        }
        long before = allocated(mx);
        for (int i = 0; i < rounds; i++) {
            round.run();
        }
        long after = allocated(mx);
        System.out.printf("%s: %.1f bytes/task (%d workers)%n", what,
                (double) (after - before) / ((long) rounds * tasks), workers);
    }

    /** One task spawns {@code tasks} children and awaits each; the caller waits on it. */
    private static void spawnFromTask(AsyncRuntime rt, int tasks) throws Exception {
        rt.spawn(new AsyncTask<Long>() {
            private final JoinHandle<?>[] handles = new JoinHandle<?>[tasks];
            private int spawned;
            private int next;

            @Override
            public Poll<Long> poll(dev.spindle.async.Context cx) {
                while (spawned < tasks) {
                    handles[spawned++] = rt.spawn(CHILD);
                }
                while (next < tasks) {
                    if (handles[next].poll(cx).isPending()) {
                        return Poll.pending();
                    }
                    handles[next++] = null;
                }
                return READY;
            }
        }).get();
    }

    private static void supplyFromTask(ForkJoinPool pool, int tasks) throws Exception {
        pool.submit(() -> {
            CompletableFuture<?>[] fs = new CompletableFuture<?>[tasks];
            for (int i = 0; i < tasks; i++) {
                fs[i] = CompletableFuture.supplyAsync(SUPPLIER, pool);
            }
            for (CompletableFuture<?> f : fs) {
                f.join();
            }
        }).get();
    }

    private static long allocated(com.sun.management.ThreadMXBean mx) {
        long[] ids = mx.getAllThreadIds();
        long sum = 0;
        for (long b : mx.getThreadAllocatedBytes(ids)) {
            if (b > 0) {
                sum += b;
            }
        }
        return sum;
    }
}
