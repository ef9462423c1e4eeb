/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.jmh;

import dev.spindle.bench.runtime.BenchRuntime;
import java.util.concurrent.CountDownLatch;
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
 * Round trip of one task submitted from outside the pool, with the pool otherwise idle:
 * submit, run, signal back. Sample mode gives the distribution (p50, p99, p99.9). The quick
 * harness's latency probe measures the one-way part (submit to start) with pauses between
 * tasks, so workers are parked when each task arrives; here tasks follow each other closely.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class SubmitLatencyBench {

    @Param({"spindle", "fjp", "fjp-async", "tpe"})
    public String runtime;

    /** Worker threads; 0 means one per available processor. */
    @Param("0")
    public int workers;

    private BenchRuntime rt;

    @Setup(Level.Trial)
    public void setUp() {
        rt = RuntimeState.open(runtime, workers);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        rt.close();
    }

    @Benchmark
    public void roundTrip() throws InterruptedException {
        CountDownLatch done = new CountDownLatch(1);
        rt.execute(done::countDown);
        if (!done.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("task did not run on " + runtime);
        }
    }
}
