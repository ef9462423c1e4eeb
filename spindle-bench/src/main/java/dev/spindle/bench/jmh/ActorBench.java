/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.jmh;

import dev.spindle.bench.actor.ActorKit;
import dev.spindle.bench.actor.ActorKits;
import dev.spindle.bench.actor.ActorWorkload;
import dev.spindle.bench.actor.ActorWorkloads;
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
 * The Savina actor workloads (and tell-only throughput) at their full sizes, on each actor
 * runtime: {@code runtime} is an {@link ActorKits} id ({@code pekko-t5}, {@code pekko-t100},
 * {@code spindle-wsh}, {@code spindle-ws}), {@code workload} an {@link ActorWorkloads} name. The
 * runtime is started in {@code @Setup(Level.Trial)} and lives for the trial; every invocation
 * spawns its actors, runs, checks its result and stops them. Score: ms per run.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(2)
public class ActorBench {

    @Param({"pekko-t5", "pekko-t100", "spindle-wsh", "spindle-ws"})
    public String runtime;

    @Param({"pingpong", "threadring", "chameneos", "big", "fjthrput", "count", "tell-only"})
    public String workload;

    /** Worker threads; 0 means one per available processor. */
    @Param("0")
    public int workers;

    private ActorKit kit;
    private ActorWorkload w;

    @Setup(Level.Trial)
    public void setUp() {
        int n = workers > 0 ? workers : Runtime.getRuntime().availableProcessors();
        kit = ActorKits.byId(runtime).open(n);
        w = ActorWorkloads.create(workload, Size.FULL);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        kit.close();
    }

    @Benchmark
    public long run() {
        return w.run(kit);
    }
}
