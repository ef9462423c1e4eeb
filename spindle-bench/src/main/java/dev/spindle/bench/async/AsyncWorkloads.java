/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.async;

import dev.spindle.bench.workload.Size;
import java.util.ArrayList;
import java.util.List;

/**
 * The async workloads by name, at each {@link Size}: Tokio's runtime benchmarks
 * ({@code spawn_many}, {@code yield_many}, {@code ping_pong}, {@code chained_spawn}; QUICK and
 * FULL are Tokio's sizes), {@code ping_pong_channel} (ping_pong with a bounded channel as each
 * one-shot on the async side), {@code spawn_many_all} (spawn_many joined with {@code Async.all})
 * and the contention workloads ({@code contention}, {@code contention-herd},
 * {@code contention-barge}, on the async runtimes only). {@link Size#TINY} is for unit tests.
 */
public final class AsyncWorkloads {

    /** The names of the Tokio-style workloads, in report order. */
    public static final List<String> TOKIO = List.of("spawn_many", "yield_many", "ping_pong", "chained_spawn");
    /**
     * Variants run only when named: {@code ping_pong_channel}, {@code spawn_many_all}. Not in the
     * default set because each extra workload in a run adds task and lambda types to the call
     * sites every workload shares
     * (spawn_many's ratio on JDK 25 fell from 0.93-1.03 to 0.78-0.85 with it), so the default
     * figures stay comparable with earlier ones.
     */
    public static final List<String> EXTRA = List.of("ping_pong_channel", "spawn_many_all");
    /** The names of the contention workloads. */
    public static final List<String> CONTENTION = List.of("contention", "contention-herd", "contention-barge");

    private AsyncWorkloads() {
    }

    /** Every name, Tokio-style first, then the variants, then the contention workloads. */
    public static List<String> names() {
        return join(TOKIO, EXTRA, CONTENTION);
    }

    /** The names a run takes unless told otherwise: every name but the {@link #EXTRA} variants. */
    public static List<String> defaults() {
        return join(TOKIO, CONTENTION);
    }

    @SafeVarargs
    private static List<String> join(List<String>... lists) {
        List<String> all = new ArrayList<>();
        for (List<String> l : lists) {
            all.addAll(l);
        }
        return List.copyOf(all);
    }

    /**
     * The Tokio-style workload called {@code name} at {@code size}.
     *
     * @throws IllegalArgumentException naming the valid ones if there is none by that name
     */
    public static AsyncWorkload create(String name, Size size) {
        boolean tiny = size == Size.TINY;
        switch (name) {
            case "spawn_many":
                return new SpawnManyAsync(tiny ? 100 : SpawnManyAsync.FULL_TASKS);
            case "yield_many":
                return new YieldManyAsync(tiny ? 8 : YieldManyAsync.FULL_TASKS, tiny ? 20 : YieldManyAsync.FULL_YIELDS);
            case "spawn_many_all":
                return new SpawnManyAsync(tiny ? 100 : SpawnManyAsync.FULL_TASKS, true);
            case "ping_pong":
                return new PingPongAsync(tiny ? 20 : PingPongAsync.FULL_PAIRS);
            case "ping_pong_channel":
                return new PingPongAsync(tiny ? 20 : PingPongAsync.FULL_PAIRS, true);
            case "chained_spawn":
                return new ChainedSpawnAsync(tiny ? 50 : ChainedSpawnAsync.FULL_DEPTH);
            default:
                throw new IllegalArgumentException("unknown async workload '" + name + "'; valid: "
                        + String.join(", ", join(TOKIO, EXTRA)));
        }
    }

    /**
     * The contention workload called {@code name} at {@code size}.
     *
     * @throws IllegalArgumentException if there is none by that name
     */
    public static Contention contention(String name, Size size) {
        boolean tiny = size == Size.TINY;
        switch (name) {
            case "contention":
                return new Contention(Contention.Resource.SEMAPHORE, tiny ? 40 : Contention.FULL_TASKS,
                        Contention.FULL_PERMITS, tiny ? 3 : Contention.FULL_ACQUIRES, tiny ? 10 : Contention.FULL_WORK);
            case "contention-herd":
                return new Contention(Contention.Resource.HERD, tiny ? 20 : Contention.FULL_HERD_TASKS,
                        Contention.FULL_PERMITS, tiny ? 3 : Contention.FULL_HERD_ACQUIRES, tiny ? 10 : Contention.FULL_WORK);
            case "contention-barge":
                return new Contention(Contention.Resource.BARGE, tiny ? 20 : Contention.FULL_BARGE_TASKS,
                        Contention.FULL_PERMITS, tiny ? 3 : Contention.FULL_BARGE_ACQUIRES, tiny ? 10 : Contention.FULL_WORK);
            default:
                throw new IllegalArgumentException("unknown contention workload '" + name + "'; valid: "
                        + String.join(", ", CONTENTION));
        }
    }
}
