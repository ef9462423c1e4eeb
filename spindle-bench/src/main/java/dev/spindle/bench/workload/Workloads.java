/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.workload;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** Every workload by name, at each {@link Size}. */
public final class Workloads {

    private static final Map<String, Function<Size, Workload>> ALL = new LinkedHashMap<>();

    static {
        ALL.put("fib", s -> new Fib(pick(s, 15, Fib.FULL_N, Fib.FULL_N)));
        ALL.put("fib-spawn", s -> new FibSpawn(pick(s, 15, Fib.FULL_N, Fib.FULL_N)));
        ALL.put("fib-cutoff", s -> new FibCutoff(pick(s, 22, FibCutoff.FULL_N, FibCutoff.FULL_N),
                pick(s, 12, FibCutoff.FULL_CUTOFF, FibCutoff.FULL_CUTOFF)));
        ALL.put("nqueens", s -> new NQueens(pick(s, 8, NQueens.FULL_N, NQueens.FULL_N),
                pick(s, 2, NQueens.FULL_FORK_DEPTH, NQueens.FULL_FORK_DEPTH)));
        ALL.put("uts", s -> s == Size.TINY
                ? new Uts(new Uts.Shape(10, 3.0, 6, 2), 1)
                : new Uts(Uts.FULL, Uts.FULL_SEQ_LEVELS));
        ALL.put("spawn-many-local", s -> SpawnMany.local(pick(s, 500, SpawnMany.FULL_TASKS, SpawnMany.FULL_TASKS)));
        ALL.put("spawn-many-remote", s -> SpawnMany.remote(pick(s, 500, SpawnMany.FULL_TASKS, SpawnMany.FULL_TASKS)));
        ALL.put("yield-many", s -> new YieldMany(pick(s, 20, YieldMany.FULL_TASKS, YieldMany.FULL_TASKS),
                pick(s, 50, YieldMany.FULL_YIELDS, YieldMany.FULL_YIELDS)));
        ALL.put("ping-pong", s -> new PingPong(pick(s, 50, PingPong.FULL_PAIRS, PingPong.FULL_PAIRS),
                pick(s, 6, PingPong.FULL_BOUNCES, PingPong.FULL_BOUNCES)));
        ALL.put("chained-spawn", s -> new ChainedSpawn(pick(s, 100, ChainedSpawn.FULL_LENGTH, ChainedSpawn.FULL_LENGTH)));
        ALL.put("skynet", s -> s == Size.TINY
                ? new Skynet(1_000, 10)
                : new Skynet(Skynet.FULL_LEAVES, Skynet.FULL_FANOUT));
    }

    private Workloads() {
    }

    private static int pick(Size s, int tiny, int quick, int full) {
        switch (s) {
            case TINY:
                return tiny;
            case QUICK:
                return quick;
            default:
                return full;
        }
    }

    /** The names of all workloads, in report order. */
    public static List<String> names() {
        return List.copyOf(ALL.keySet());
    }

    /**
     * Builds the workload called {@code name} at {@code size}.
     *
     * @throws IllegalArgumentException naming the valid workloads if there is none by that name
     */
    public static Workload create(String name, Size size) {
        Function<Size, Workload> f = ALL.get(name);
        if (f == null) {
            throw new IllegalArgumentException("unknown workload '" + name + "'; valid: " + String.join(", ", names()));
        }
        return f.apply(size);
    }
}
