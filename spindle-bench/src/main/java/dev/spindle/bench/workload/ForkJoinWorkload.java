/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.workload;

import dev.spindle.bench.runtime.BenchRuntime;
import dev.spindle.bench.runtime.RuntimeKind;
import dev.spindle.pool.WorkStealingPool;
import java.util.concurrent.ForkJoinPool;

/**
 * A recursive fork/join workload, written twice with the same algorithm: once with Spindle's
 * {@code spawn}/{@code join} and once with {@code RecursiveTask.fork}/{@code join}. It runs on
 * Spindle and on both {@code ForkJoinPool} modes, not on a {@code ThreadPoolExecutor}.
 */
public abstract class ForkJoinWorkload implements Workload {

    @Override
    public final boolean supports(RuntimeKind kind) {
        return kind.supportsForkJoin();
    }

    @Override
    public final long run(BenchRuntime rt) {
        Checks.requireSupported(this, rt);
        long result = rt.kind() == RuntimeKind.SPINDLE ? runSpindle(rt.spindle()) : runForkJoin(rt.forkJoinPool());
        return Checks.expect(describe() + " on " + rt.kind(), expected(), result);
    }

    /** The known answer. */
    public abstract long expected();

    /** Computes the answer on a Spindle pool, from outside it. */
    protected abstract long runSpindle(WorkStealingPool pool);

    /** Computes the answer on a ForkJoinPool, from outside it. */
    protected abstract long runForkJoin(ForkJoinPool pool);
}
