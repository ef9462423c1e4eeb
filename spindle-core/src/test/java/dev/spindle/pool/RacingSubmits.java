/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * One round of the traffic the lifecycle stress tests race a pool's stop against
 * ({@link FuturesRacingShutdownNowEndExactlyOnceTest}, {@link FuturesRacingCloseAreAllToldTest}):
 * tasks by id, each counting its runs and submitting up to two children from its worker, and,
 * where asked, one time in eight invoking two children and waiting for them instead; what each
 * {@code submit} returned or refused is kept by id for the checks.
 */
final class RacingSubmits {
    final int ids;
    final boolean invokesSometimes;
    final AtomicIntegerArray runs;
    final AtomicIntegerArray refused;
    final AtomicReferenceArray<Future<Integer>> futures;
    final AtomicLong nextId = new AtomicLong();
    final AtomicReference<Throwable> unexpected = new AtomicReference<>();
    volatile ExecutorService pool;

    RacingSubmits(int ids, boolean invokesSometimes) {
        this.ids = ids;
        this.invokesSometimes = invokesSometimes;
        this.runs = new AtomicIntegerArray(ids);
        this.refused = new AtomicIntegerArray(ids);
        this.futures = new AtomicReferenceArray<>(ids);
    }

    /** A pool of {@code kind} (a {@link PoolKind} name, or {@code UNION}: an owning union of two). */
    static ExecutorService create(String kind, int workers) {
        if (kind.equals("UNION")) {
            return SchedulerUnion.owning(WorkStealingPool.builder().workers(workers).build(),
                    WorkSharingPool.builder().workers(workers).build());
        }
        return (ExecutorService) PoolKind.valueOf(kind).create(workers);
    }

    int claimId() {
        long id = nextId.getAndIncrement();
        return id < ids ? (int) id : -1;
    }

    /** Counts its run; submits up to two children, or (one time in eight, where asked) invokes two and waits. */
    Callable<Integer> task(int id, long seed) {
        return () -> {
            runs.incrementAndGet(id);
            SplittableRandom rnd = new SplittableRandom(seed);
            if (invokesSometimes && rnd.nextInt(8) == 0) {
                List<Callable<Integer>> batch = new ArrayList<>();
                for (int c = 0; c < 2; c++) {
                    int child = claimId();
                    if (child >= 0) {
                        batch.add(task(child, rnd.nextLong()));
                    }
                }
                try {
                    for (Future<Integer> f : pool.invokeAll(batch)) {
                        if (!f.isDone()) {
                            unexpected.compareAndSet(null, new AssertionError("invokeAll returned " + f));
                        }
                    }
                } catch (RejectedExecutionException | InterruptedException stopping) {
                    // shut down now, or interrupted by shutdownNow: told
                }
                return id;
            }
            for (int c = rnd.nextInt(3); c > 0; c--) {
                int child = claimId();
                if (child < 0) {
                    break;
                }
                submit(child, rnd.nextLong());
            }
            return id;
        };
    }

    void submit(int id, long seed) {
        try {
            futures.set(id, pool.submit(task(id, seed)));
        } catch (RejectedExecutionException e) {
            refused.set(id, 1);            // must never run (the tests check it)
        } catch (Throwable t) {
            unexpected.compareAndSet(null, t);
        }
    }
}
