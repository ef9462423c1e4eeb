/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link Client#gather} over futures that ended differently: it reads them in list order, as
 * {@link ClusterFuture#get()} one after another, and the first that did not succeed decides, a
 * cancelled one with the {@link CancellationException} its {@code get} throws (not wrapped in an
 * {@link ExecutionException}), a failed one with an {@link ExecutionException}; all succeeded, it
 * returns the values. The cluster is unharmed: a later gather of the same futures answers alike.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GatherCancelledFutureTest {

    @Test
    void theFirstFutureInListOrderThatDidNotSucceedDecidesWhatGatherThrows() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(1).threadsPerWorker(1).latency(Duration.ZERO)
                .stealing(false).retries(0).build()) {
            Client client = cluster.client();
            CountDownLatch gate = new CountDownLatch(1);
            ClusterFuture<Integer> ok = client.submit("ok", args -> 1);
            ClusterFuture<Integer> failed = client.submit("failed", args -> {
                throw new IllegalArgumentException("boom");
            });
            ClusterFuture<Integer> slow = client.submit("slow", args -> {
                gate.await(30, TimeUnit.SECONDS);
                return 2;
            });
            ClusterFuture<Integer> cancelled = client.submit("cancelled", args -> (Integer) args.get(0) + 1, slow);
            assertThat(cancelled.cancel(false)).as("waiting for 'slow': not started").isTrue();
            assertThat(ok.get(30, TimeUnit.SECONDS)).isEqualTo(1);
            assertThatThrownBy(() -> failed.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class);

            assertThatThrownBy(() -> client.gather(List.of(ok, cancelled)))
                    .isInstanceOf(CancellationException.class).hasMessageContaining("'cancelled'");
            assertThatThrownBy(() -> client.gather(List.of(cancelled, failed))).as("the cancelled one comes first")
                    .isInstanceOf(CancellationException.class);
            assertThatThrownBy(() -> client.gather(List.of(ok, failed, cancelled))).as("the failed one comes first")
                    .isInstanceOf(ExecutionException.class).cause().isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("boom");
            gate.countDown();
            assertThat(client.gather(List.of(ok, slow))).containsExactly(1, 2);
            assertThatThrownBy(() -> client.gather(List.of(slow, cancelled))).as("its input done")
                    .isInstanceOf(CancellationException.class);
            assertThatThrownBy(() -> client.gather(List.of(ok, cancelled))).as("again, alike")
                    .isInstanceOf(CancellationException.class);
            assertThat(cluster.stats().tasksCancelled()).as("'cancelled' never ran").isEqualTo(1);
        }
    }
}
