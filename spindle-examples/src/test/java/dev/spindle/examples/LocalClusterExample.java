/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.examples;

import dev.spindle.cluster.*;

/**
 * README.md, "Distributed task graphs" (and spindle-cluster/README.md, the same snippet), inside {@code main(String[] args)} where a reader pastes
 * it (a lambda parameter named {@code args} would not compile here).
 */
final class LocalClusterExample {
    private LocalClusterExample() {
    }

    public static void main(String[] args) throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(4).threadsPerWorker(2).build()) {
            Client client = cluster.client();
            ClusterFuture<Integer> x = client.scatter("x", 20, 0);                  // data on worker 0
            ClusterFuture<Integer> y = client.submit("inc-0", inputs -> (Integer) inputs.get(0) + 1, x);
            System.out.println(y.get());                                            // 21
        }
    }
}
