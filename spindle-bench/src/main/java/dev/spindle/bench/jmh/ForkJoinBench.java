/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.jmh;

import dev.spindle.bench.runtime.BenchRuntime;
import dev.spindle.bench.workload.Fib;
import dev.spindle.bench.workload.FibCutoff;
import dev.spindle.bench.workload.FibSpawn;
import dev.spindle.bench.workload.NQueens;
import dev.spindle.bench.workload.Size;
import dev.spindle.bench.workload.Uts;
import dev.spindle.bench.workload.Workloads;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Recursive fork/join workloads at full size, on Spindle ({@code spawn}/{@code join}) and on
 * {@code ForkJoinPool} in both modes ({@code RecursiveTask.fork}/{@code join}). There is no
 * {@code tpe} variant: a blocking join on a {@code ThreadPoolExecutor} deadlocks.
 *
 * <p>Each invocation checks its result and throws if it is wrong. Allocation: run with
 * {@code -prof gc}; {@code gc.alloc.rate.norm} is bytes per invocation, and {@link #fib} spawns
 * {@value Fib#FULL_SPAWNED_TASKS} tasks per invocation.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class ForkJoinBench {

    @Param({"spindle", "fjp", "fjp-async"})
    public String runtime;

    /** Worker threads; 0 means one per available processor. */
    @Param("0")
    public int workers;

    private BenchRuntime rt;
    private Fib fib;
    private FibSpawn fibSpawn;
    private FibCutoff fibCutoff;
    private NQueens nqueens;
    private Uts uts;

    @Setup(Level.Trial)
    public void setUp() {
        rt = RuntimeState.open(runtime, workers);
        fib = (Fib) Workloads.create("fib", Size.FULL);
        fibSpawn = (FibSpawn) Workloads.create("fib-spawn", Size.FULL);
        fibCutoff = (FibCutoff) Workloads.create("fib-cutoff", Size.FULL);
        nqueens = (NQueens) Workloads.create("nqueens", Size.FULL);
        uts = (Uts) Workloads.create("uts", Size.FULL);
        uts.expected();                        // count the tree sequentially now, not in a measurement
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        rt.close();
    }

    /** fib(30) spawning both branches at every level, no cutoff: per-task overhead. */
    @Benchmark
    public long fib() {
        return fib.run(rt);
    }

    /**
     * {@link #fib} with {@code pool.spawn(lambda)} and {@code join} on Spindle (FJP runs the same
     * {@code RecursiveTask} as in {@link #fib}): what the convenient API costs per task.
     */
    @Benchmark
    public long fibSpawn() {
        return fibSpawn.run(rt);
    }

    /** fib(40), sequential below 27: parallel efficiency against {@link SequentialBench}. */
    @Benchmark
    public long fibCutoff() {
        return fibCutoff.run(rt);
    }

    /** 12 queens, a task per column in the top 3 rows: 14,200 solutions. */
    @Benchmark
    public long nqueens() {
        return nqueens.run(rt);
    }

    /** Unbalanced tree search over a 3,747,182-node geometric tree. */
    @Benchmark
    public long uts() {
        return uts.run(rt);
    }
}
