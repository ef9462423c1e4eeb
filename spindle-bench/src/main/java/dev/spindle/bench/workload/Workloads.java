/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.workload;

import java.util.List;

/** Every workload by name, at each {@link Size}. */
public final class Workloads {

    private static final WorkloadRegistry<Workload> ALL = new WorkloadRegistry<>("workload");

    static {
        ALL.add("fib", s -> new Fib(s.pick(15, Fib.FULL_N, Fib.FULL_N)));
        ALL.add("fib-spawn", s -> new FibSpawn(s.pick(15, Fib.FULL_N, Fib.FULL_N)));
        ALL.add("fib-cutoff", s -> new FibCutoff(s.pick(22, FibCutoff.FULL_N, FibCutoff.FULL_N),
                s.pick(12, FibCutoff.FULL_CUTOFF, FibCutoff.FULL_CUTOFF)));
        ALL.add("nqueens", s -> new NQueens(s.pick(8, NQueens.FULL_N, NQueens.FULL_N),
                s.pick(2, NQueens.FULL_FORK_DEPTH, NQueens.FULL_FORK_DEPTH)));
        ALL.add("uts", s -> s == Size.TINY
                ? new Uts(new Uts.Shape(10, 3.0, 6, 2), 1)
                : new Uts(Uts.FULL, Uts.FULL_SEQ_LEVELS));
        ALL.add("spawn-many-local", s -> SpawnMany.local(s.pick(500, SpawnMany.FULL_TASKS, SpawnMany.FULL_TASKS)));
        ALL.add("spawn-many-remote", s -> SpawnMany.remote(s.pick(500, SpawnMany.FULL_TASKS, SpawnMany.FULL_TASKS)));
        ALL.add("yield-many", s -> new YieldMany(s.pick(20, YieldMany.FULL_TASKS, YieldMany.FULL_TASKS),
                s.pick(50, YieldMany.FULL_YIELDS, YieldMany.FULL_YIELDS)));
        ALL.add("ping-pong", s -> new PingPong(s.pick(50, PingPong.FULL_PAIRS, PingPong.FULL_PAIRS),
                s.pick(6, PingPong.FULL_BOUNCES, PingPong.FULL_BOUNCES)));
        ALL.add("chained-spawn", s -> new ChainedSpawn(s.pick(100, ChainedSpawn.FULL_LENGTH, ChainedSpawn.FULL_LENGTH)));
        ALL.add("skynet", s -> s == Size.TINY
                ? new Skynet(1_000, 10)
                : new Skynet(Skynet.FULL_LEAVES, Skynet.FULL_FANOUT));
    }

    private Workloads() {
    }

    /** The names of all workloads, in report order. */
    public static List<String> names() {
        return ALL.names();
    }

    /**
     * Builds the workload called {@code name} at {@code size}.
     *
     * @throws IllegalArgumentException naming the valid workloads if there is none by that name
     */
    public static Workload create(String name, Size size) {
        return ALL.create(name, size);
    }
}
