/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.jmh;

import dev.spindle.bench.async.AsyncTargets;
import dev.spindle.bench.async.AsyncWorkloads;
import dev.spindle.bench.async.Contention;
import dev.spindle.bench.workload.Size;
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
 * The contention workloads ({@code contention}, {@code contention-herd}) on the two
 * {@code AsyncRuntime} schedulers. Score: ms per checked run (throughput); the distributions of
 * wake counts and completion times are what {@code spindle bench async} reports.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(2)
public class AsyncContentionBench {

    @Param({"async-ws", "async-hybrid"})
    public String runtime;

    @Param({"contention", "contention-herd"})
    public String workload;

    /** Worker threads; 0 means one per available processor. */
    @Param("0")
    public int workers;

    private AsyncTargets.Target target;
    private Contention c;

    @Setup(Level.Trial)
    public void setUp() {
        int n = workers > 0 ? workers : Runtime.getRuntime().availableProcessors();
        target = AsyncTargets.byId(runtime).open(n);
        c = AsyncWorkloads.contention(workload, Size.FULL);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        target.close();
    }

    @Benchmark
    public long run() {
        return c.run(target.runtime()).elapsedNanos();
    }
}
