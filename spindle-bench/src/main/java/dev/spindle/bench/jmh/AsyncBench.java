/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.jmh;

import dev.spindle.bench.async.AsyncTargets;
import dev.spindle.bench.async.AsyncWorkload;
import dev.spindle.bench.async.AsyncWorkloads;
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
 * Tokio's runtime benchmarks at Tokio's sizes on each async runtime: {@code runtime} is an
 * {@link AsyncTargets} id ({@code async-ws}, {@code async-hybrid}, {@code cf-fjp},
 * {@code cf-fjp-async}), {@code workload} a name of {@link AsyncWorkloads#TOKIO} (or, with
 * {@code -p workload=ping_pong_channel}, of {@link AsyncWorkloads#EXTRA}). The runtime is
 * started in {@code @Setup(Level.Trial)} and lives for the trial; every invocation is one checked
 * run. Score: us per run. {@link AsyncContentionBench} has the contention workloads.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(2)
public class AsyncBench {

    @Param({"async-ws", "async-hybrid", "cf-fjp", "cf-fjp-async"})
    public String runtime;

    @Param({"spawn_many", "yield_many", "ping_pong", "chained_spawn"})
    public String workload;

    /** Worker threads; 0 means one per available processor. */
    @Param("0")
    public int workers;

    private AsyncTargets.Target target;
    private AsyncWorkload w;

    @Setup(Level.Trial)
    public void setUp() {
        int n = workers > 0 ? workers : Runtime.getRuntime().availableProcessors();
        target = AsyncTargets.byId(runtime).open(n);
        w = AsyncWorkloads.create(workload, Size.FULL);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        target.close();
    }

    @Benchmark
    public long run() {
        return target.run(w);
    }
}
