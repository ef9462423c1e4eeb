/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.jmh;

import dev.spindle.bench.workload.FibCutoff;
import dev.spindle.bench.workload.Size;
import dev.spindle.bench.workload.Workloads;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The single-threaded baseline {@code T_seq} for {@link ForkJoinBench#fibCutoff}: parallel
 * efficiency is {@code T_seq / (P * T_par)} with {@code P} worker threads.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class SequentialBench {

    private final FibCutoff fibCutoff = (FibCutoff) Workloads.create("fib-cutoff", Size.FULL);

    /** fib(40) by plain recursion on one thread. */
    @Benchmark
    public long fibSequential() {
        return fibCutoff.runSequential();
    }
}
