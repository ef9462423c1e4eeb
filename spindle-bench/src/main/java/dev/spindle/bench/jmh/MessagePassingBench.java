/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.jmh;

import dev.spindle.bench.runtime.BenchRuntime;
import dev.spindle.bench.workload.ChainedSpawn;
import dev.spindle.bench.workload.PingPong;
import dev.spindle.bench.workload.Size;
import dev.spindle.bench.workload.Skynet;
import dev.spindle.bench.workload.SpawnMany;
import dev.spindle.bench.workload.Workloads;
import dev.spindle.bench.workload.YieldMany;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Message-passing workloads in the manner of an async runtime's scheduler benchmarks: tasks
 * only submit tasks and never wait, so they run on every runtime, a
 * {@code ThreadPoolExecutor} ({@code tpe}) included.
 *
 * <p>The two spawn-many benchmarks count each spawned task as an operation, so their score is
 * time per task and, with {@code -prof gc}, {@code gc.alloc.rate.norm} is bytes allocated per
 * task (the benchmark's own capturing lambda included, the same on every runtime).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class MessagePassingBench {

    @Param({"spindle", "fjp", "fjp-async", "tpe"})
    public String runtime;

    /** Worker threads; 0 means one per available processor. */
    @Param("0")
    public int workers;

    private BenchRuntime rt;
    private SpawnMany spawnManyLocal;
    private SpawnMany spawnManyRemote;
    private YieldMany yieldMany;
    private PingPong pingPong;
    private ChainedSpawn chainedSpawn;
    private Skynet skynet;

    @Setup(Level.Trial)
    public void setUp() {
        rt = RuntimeState.open(runtime, workers);
        spawnManyLocal = (SpawnMany) Workloads.create("spawn-many-local", Size.FULL);
        spawnManyRemote = (SpawnMany) Workloads.create("spawn-many-remote", Size.FULL);
        yieldMany = (YieldMany) Workloads.create("yield-many", Size.FULL);
        pingPong = (PingPong) Workloads.create("ping-pong", Size.FULL);
        chainedSpawn = (ChainedSpawn) Workloads.create("chained-spawn", Size.FULL);
        skynet = (Skynet) Workloads.create("skynet", Size.FULL);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        rt.close();
    }

    /** 10,000 tasks spawned from a task inside the pool; score per task. */
    @Benchmark
    @OperationsPerInvocation(SpawnMany.FULL_TASKS)
    public long spawnManyLocal() {
        return spawnManyLocal.run(rt);
    }

    /** 10,000 tasks submitted from the benchmark thread; score per task. */
    @Benchmark
    @OperationsPerInvocation(SpawnMany.FULL_TASKS)
    public long spawnManyRemote() {
        return spawnManyRemote.run(rt);
    }

    /** 200 tasks, each resubmitting itself 1,000 times. */
    @Benchmark
    public long yieldMany() {
        return yieldMany.run(rt);
    }

    /** 1,000 pairs bouncing a message 20 times, a task per hop. */
    @Benchmark
    public long pingPong() {
        return pingPong.run(rt);
    }

    /** A chain of 1,000 tasks, each submitting the next. */
    @Benchmark
    public long chainedSpawn() {
        return chainedSpawn.run(rt);
    }

    /** 1,000,000 leaves, fan-out 10: 1,111,111 tasks. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public long skynet() {
        return skynet.run(rt);
    }
}
