/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * The client API as a user coming from Dask calls it: {@link Client}, {@link ClusterFuture} and
 * their arguments at the edges of their ranges.
 */
class ClientApiRegressionTest {

    private static LocalCluster cluster(int workers) {
        return LocalCluster.builder().workers(workers).latency(Duration.ZERO).balanceInterval(Duration.ZERO).build();
    }

    /**
     * {@link java.util.concurrent.Future#get(long, TimeUnit)} with a negative timeout does not
     * wait. The most negative ones ({@code Long.MIN_VALUE} in any unit, which {@code toNanos}
     * saturates to {@code Long.MIN_VALUE} nanoseconds, or {@code -Long.MAX_VALUE} nanoseconds) put
     * the deadline 2^63 ns before now, so {@code deadline - now} overflowed to a huge positive wait:
     * the call hung until the task ended, and for good on a task that never does.
     */
    @Test
    void theMostNegativeTimeoutsTimeOutAtOnceInsteadOfWaitingForTheTask() throws Exception {
        try (LocalCluster cluster = cluster(1)) {
            Client client = cluster.client();
            CountDownLatch gate = new CountDownLatch(1);
            ClusterFuture<Integer> gated = client.submit("gated", args -> {
                gate.await();
                return 1;
            });
            try {
                long[][] timeouts = {{Long.MIN_VALUE, 0}, {Long.MIN_VALUE, 1}, {-Long.MAX_VALUE, 0}, {-1, 0}};
                for (long[] t : timeouts) {
                    TimeUnit unit = t[1] == 0 ? TimeUnit.NANOSECONDS : TimeUnit.DAYS;
                    assertTimeoutPreemptively(Duration.ofSeconds(30), () ->
                            assertThatThrownBy(() -> gated.get(t[0], unit))
                                    .as("get(%d, %s) on a task not done", t[0], unit)
                                    .isInstanceOf(TimeoutException.class));
                }
            } finally {
                gate.countDown();
            }
            assertThat(gated.get(30, SECONDS)).isEqualTo(1);
            assertThat(gated.get(Long.MIN_VALUE, TimeUnit.NANOSECONDS)).as("done: the value, whatever the timeout")
                    .isEqualTo(1);
        }
    }

    /**
     * The same inside a task (Dask's {@code worker_client}), where the wait first helps its worker
     * run the task it waits for: with {@code Long.MIN_VALUE} that loop never saw its deadline pass.
     */
    @Test
    void theMostNegativeTimeoutInsideATaskTimesOutAtOnce() throws Exception {
        try (LocalCluster cluster = cluster(2)) {
            Client client = cluster.client();
            CountDownLatch gate = new CountDownLatch(1);
            try {
                ClusterFuture<Boolean> outer = client.submit("outer", args -> {
                    ClusterFuture<Integer> inner = client.submit("inner", a -> {
                        gate.await();
                        return 1;
                    });
                    try {
                        inner.get(Long.MIN_VALUE, TimeUnit.NANOSECONDS);
                        return false;
                    } catch (TimeoutException expected) {
                        return true;
                    }
                });
                assertThat(outer.get(30, SECONDS)).as("the inner wait timed out").isTrue();
            } finally {
                gate.countDown();
            }
        }
    }
}
