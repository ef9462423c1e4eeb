/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A retried task may submit a key its failed attempt submitted; the resubmission takes over the
 * earlier record's finished dependents. One whose dependencies reach such a dependent closed a
 * cycle: the dependent now depended on the new record, which depended on the dependent, and
 * should either be lost neither could ever be computed again, and nobody was told. It is refused
 * now, as any submission that names an unusable dependency is.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ResubmissionCycleTest {

    @Test
    void aResubmissionThatWouldDependOnADependentOfTheKeyItReplacesIsRefused() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(1).threadsPerWorker(4).retries(1).build()) {
            Client client = cluster.client();
            AtomicInteger attempts = new AtomicInteger();
            CompletableFuture<Throwable> secondSubmission = new CompletableFuture<>();
            ClusterFuture<String> outer = client.submit("outer", args -> {
                if (attempts.incrementAndGet() == 1) {
                    ClusterFuture<Integer> k = client.submit("outer-k", a -> 1);
                    // a dependent of the nested key, finished before the attempt fails
                    ClusterFuture<Integer> d = client.submit("outer-d", a -> (Integer) a.get(0) + 1, k);
                    d.get(30, SECONDS);
                    throw new IOException("fails once its nested keys are done");
                }
                try {
                    // the retry's nested key now depends on the dependent of its earlier record
                    client.submit(TaskSpec.builder("outer-k", a -> 2).dependsOn("outer-d").build()).get(30, SECONDS);
                    secondSubmission.complete(null);
                } catch (RuntimeException e) {
                    secondSubmission.complete(e);
                }
                return "done";
            });
            assertThat(outer.get(30, SECONDS)).isEqualTo("done");
            assertThat(secondSubmission.get(30, SECONDS)).as("the resubmission that closes a cycle")
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cycle");
        }
    }
}
