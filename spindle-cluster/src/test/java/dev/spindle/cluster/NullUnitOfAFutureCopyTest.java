/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A timed {@code get} with a null unit on the copy {@link ClusterFuture#toCompletableFuture} gives
 * names the unit. Before, the JDK's NullPointerException was caught with the exceptions a failed
 * task's {@code get} may throw while printing its failure, and a failed task's copy reported its
 * task's failure (an ExecutionException) for the caller's null.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NullUnitOfAFutureCopyTest {

    @Test
    void aFailedTasksCopyNamesTheNullUnit() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(1).threadsPerWorker(1).latency(Duration.ZERO)
                .bandwidth(1e12).build()) {
            ClusterFuture<Integer> failed = cluster.client().submit("fails", args -> {
                throw new IllegalStateException("the task's own failure");
            });
            CompletableFuture<Integer> copy = failed.toCompletableFuture();
            assertThatThrownBy(() -> copy.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class);
            assertThatThrownBy(() -> copy.get(1, null)).isInstanceOf(NullPointerException.class).hasMessage("unit");
            ClusterFuture<Integer> ok = cluster.client().submit("ok", args -> 1);
            CompletableFuture<Integer> okCopy = ok.toCompletableFuture();
            okCopy.get(30, TimeUnit.SECONDS);
            assertThatThrownBy(() -> okCopy.get(1, null)).isInstanceOf(NullPointerException.class).hasMessage("unit");
        }
    }
}
