/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
// spindle-cluster-pekko/README.md, the coordinator application, verbatim: compiled only, since it
// needs certificates and worker JVMs.
package com.example;      // task functions are lambdas of this class: its package must be allowed

import dev.spindle.cluster.ClusterFuture;
import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.pekko.PekkoClusterSettings;
import dev.spindle.cluster.pekko.PekkoCoordinator;
import java.nio.file.Path;
import java.time.Duration;

public class TlsCoordinator {
    public static void main(String[] args) throws Exception {
        PekkoClusterSettings settings = PekkoClusterSettings.builder("jobs", Path.of("certs/coordinator.p12"),
                        Path.of("certs/truststore.p12"), System.getenv("SPINDLE_STORE_PASSWORD"))
                .port(25520).allowPackage("com.example").build();
        try (PekkoCoordinator c = PekkoCoordinator.start(settings,
                CoordinatorSettings.builder().workers(3).threadsPerWorker(4).build(), Duration.ofSeconds(60))) {
            ClusterFuture<Integer> x = c.client().submit("x", in -> 41);
            System.out.println(c.client().submit("y", in -> (Integer) in.get(0) + 1, x).get());
            System.out.println(c.refusedMembers() + " members refused, " + c.rejectedFrames() + " frames rejected");
        }
    }
}
