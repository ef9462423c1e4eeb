/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.cluster;

import dev.spindle.cluster.Client;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/**
 * A running Spindle cluster that the benchmark submits graphs to: {@code inprocess}, a
 * {@code LocalCluster}, or {@code processes}, worker JVMs on Hazelcast with the coordinator in
 * this JVM. One target serves every round of a run.
 */
public interface ClusterTarget extends AutoCloseable {

    /** The configurations, in report order; Dask's script names its configurations the same. */
    List<String> CONFIGS = List.of("inprocess", "processes");

    /** How often the scheduler balances (Dask's work-stealing interval is set to the same). */
    Duration BALANCE_INTERVAL = Duration.ofMillis(20);

    /** {@code inprocess} or {@code processes}. */
    String config();

    int workers();

    int threadsPerWorker();

    Client client();

    /** Bytes moved between workers by dependency fetches so far, where the target counts them. */
    OptionalLong dataBytes();

    /** Steals confirmed so far, where the target counts them. */
    OptionalLong steals();

    /** The worker processes other than this one (empty in process), for {@link TcpBytes}. */
    Set<Long> workerPids();

    @Override
    void close();

    /**
     * Starts the target of {@code config} with {@code workers} workers of {@code threads}
     * threads each.
     *
     * @throws IllegalArgumentException for a config not in {@link #CONFIGS}
     */
    static ClusterTarget start(String config, int workers, int threads) throws Exception {
        switch (config) {
            case "inprocess":
                return new LocalTarget(workers, threads);
            case "processes":
                return HazelcastTarget.start(workers, threads);
            default:
                throw new IllegalArgumentException("unknown config '" + config + "'; valid: " + String.join(", ", CONFIGS));
        }
    }
}
