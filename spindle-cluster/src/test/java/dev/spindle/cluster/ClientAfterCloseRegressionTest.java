/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What the client does once its cluster closed, as its Javadoc now says (it said every method
 * throws {@link RejectedExecutionException}, which {@code gather} never did): work is refused, and
 * values completed before the close can still be gathered, as {@link ClusterFuture#get()} returns them.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClientAfterCloseRegressionTest {

    @Test
    void gatherAfterCloseReturnsValuesCompletedBeforeAndFailsForTasksTheCloseEnded() throws Exception {
        LocalCluster cluster = LocalCluster.builder().workers(1).latency(Duration.ZERO).bandwidth(1e12)
                .stealing(false).balanceInterval(Duration.ZERO).build();
        Client client = cluster.client();
        CountDownLatch never = new CountDownLatch(1);
        ClusterFuture<Integer> done = client.submit("ac-done", args -> 1);
        assertThat(done.get(10, TimeUnit.SECONDS)).isEqualTo(1);
        ClusterFuture<Integer> pending = client.submit("ac-pending", args -> {
            never.await();                    // interrupted by the close
            return 2;
        });
        cluster.close();

        assertThat(client.gather(List.of(done))).as("a value completed before the close").containsExactly(1);
        assertThatThrownBy(() -> client.gather(List.of(done, pending))).as("a task the close ended")
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("ac-pending");
        assertThatThrownBy(() -> client.submit("ac-late", args -> 3)).isInstanceOf(RejectedExecutionException.class);
        assertThatThrownBy(() -> client.scatter("ac-value", 3, 0)).isInstanceOf(RejectedExecutionException.class);
    }
}
