/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
// spindle-cluster-hazelcast/README.md, the coordinator application, verbatim: compiled only,
// since it needs worker JVMs.
package com.example;

import dev.spindle.cluster.ClusterFuture;
import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.hazelcast.HazelcastClusterSettings;
import dev.spindle.cluster.hazelcast.HazelcastCoordinator;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

public final class Coordinator {
    public static void main(String[] args) throws Exception {
        byte[] secret = System.getenv("SPINDLE_SECRET").getBytes(StandardCharsets.UTF_8);
        HazelcastClusterSettings settings = HazelcastClusterSettings.builder("jobs", secret)
                .port(5701).member("127.0.0.1:5701").member("127.0.0.1:5702").member("127.0.0.1:5703")
                .allowPackage("com.example").build();
        try (HazelcastCoordinator c = HazelcastCoordinator.start(settings,
                CoordinatorSettings.builder().workers(2).threadsPerWorker(4).build(), Duration.ofSeconds(60))) {
            ClusterFuture<Integer> x = c.client().submit("x", in -> 41);
            ClusterFuture<Integer> y = c.client().submit("y", in -> (Integer) in.get(0) + 1, x);
            System.out.println(y.get());   // 42
        }
    }
}
