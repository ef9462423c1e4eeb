/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.examples;

import dev.spindle.cluster.ClusterFuture;
import dev.spindle.cluster.LocalCluster;
import dev.spindle.cluster.hazelcast.HazelcastClusterSettings;
import dev.spindle.cluster.hazelcast.HazelcastCoordinator;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * spindle-cluster-hazelcast/README.md, the coordinator, inside {@code main(String[] args)}:
 * compiled only, since it needs worker JVMs.
 */
final class HazelcastCoordinatorExample {
    private HazelcastCoordinatorExample() {
    }

    public static void main(String[] args) throws Exception {
        byte[] secretBytes = System.getenv("SPINDLE_SECRET").getBytes(StandardCharsets.UTF_8);
        HazelcastClusterSettings settings = HazelcastClusterSettings.builder("jobs", secretBytes)
                .port(5701).member("127.0.0.1:5701").member("127.0.0.1:5702").member("127.0.0.1:5703")
                .allowPackage("com.example").build();
        try (HazelcastCoordinator c = HazelcastCoordinator.start(settings,
                LocalCluster.builder().workers(2).threadsPerWorker(4), Duration.ofSeconds(60))) {
            ClusterFuture<Integer> x = c.client().submit("x", inputs -> 41);
            System.out.println(c.client().submit("y", inputs -> (Integer) inputs.get(0) + 1, x).get());
        }
    }
}
