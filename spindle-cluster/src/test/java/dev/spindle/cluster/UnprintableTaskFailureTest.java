/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.testkit.Unprintable;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A task that fails with an exception whose {@code toString()} throws (user code): its future
 * must report that exception as promised, {@code get} and {@code gather} in an
 * {@link ExecutionException}, a copy ({@link ClusterFuture#toCompletableFuture}) made before or
 * after by completing exceptionally with it. The JDK's wrappers print it: {@code get} threw the
 * printing's failure instead, a copy made after threw it too, and one made before never completed
 * (the notifier's thread died completing it).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class UnprintableTaskFailureTest {

    @Test
    void aTaskThatFailedUnprintablyReportsItsExceptionToEveryWaitAndCopy() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(1).threadsPerWorker(1).latency(Duration.ZERO)
                .stealing(false).retries(0).build()) {
            CountDownLatch gate = new CountDownLatch(1);
            ClusterFuture<Object> f = cluster.client().submit("bad", args -> {
                gate.await();
                throw new Unprintable();
            });
            CompletableFuture<Object> before = f.toCompletableFuture();
            gate.countDown();

            assertThatThrownBy(f::get).isInstanceOf(ExecutionException.class).hasCauseInstanceOf(Unprintable.class);
            assertThatThrownBy(() -> f.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(Unprintable.class);
            assertThatThrownBy(() -> cluster.client().gather(List.of(f))).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(Unprintable.class);
            assertThatThrownBy(() -> before.get(10, TimeUnit.SECONDS)).as("a copy made before the failure")
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(Unprintable.class);
            CompletableFuture<Object> after = f.toCompletableFuture();
            assertThatThrownBy(after::join).isInstanceOf(CompletionException.class)
                    .hasCauseInstanceOf(Unprintable.class);
            assertThat(cluster.client().submit("next", args -> 1).get(10, TimeUnit.SECONDS)).isEqualTo(1);
        }
    }
}
