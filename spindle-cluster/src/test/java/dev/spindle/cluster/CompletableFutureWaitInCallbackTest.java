/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link ClusterFuture#get()} in a callback of a cluster future throws for a future not done, since
 * the notifier that runs the callback is the thread that would complete it. The same wait through
 * {@link ClusterFuture#toCompletableFuture()} ({@code join}, {@code get}, or a stage made from it)
 * waited for its own thread for good, and no future of the cluster completed after it; it now
 * throws {@link IllegalStateException} as well.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CompletableFutureWaitInCallbackTest {

    private static LocalCluster cluster() {
        return LocalCluster.builder().workers(2).latency(Duration.ZERO).bandwidth(1e12).stealing(false)
                .balanceInterval(Duration.ZERO).build();
    }

    /** Runs {@code wait} on {@code later}'s copy in a callback of a task that ends first; returns what it threw. */
    private static Throwable waitInCallback(LocalCluster cluster, String tag,
                                            java.util.function.Function<CompletableFuture<Integer>, Object> wait)
            throws Exception {
        CountDownLatch first = new CountDownLatch(1);
        CountDownLatch second = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        ClusterFuture<Integer> a = cluster.client().submit(tag + "-a", args -> {
            first.await();
            return 1;
        });
        ClusterFuture<Integer> b = cluster.client().submit(tag + "-b", args -> {
            second.await();
            return 2;
        });
        a.toCompletableFuture().thenRun(() -> {
            try {
                wait.apply(b.toCompletableFuture());
            } catch (Throwable t) {
                failure.set(t);
            } finally {
                done.countDown();
            }
        });
        first.countDown();
        // before the fix the wait in the callback waited for the notifier, its own thread, for good
        boolean returned = done.await(10, TimeUnit.SECONDS);
        second.countDown();
        assertThat(returned).as("the wait in the callback returned").isTrue();
        assertThat(b.get(10, TimeUnit.SECONDS)).as("b's value, once its task ends").isEqualTo(2);
        return failure.get();
    }

    @Test
    void aJoinOfACopyInAFuturesCallbackThrows() throws Exception {
        try (LocalCluster cluster = cluster()) {
            assertThat(waitInCallback(cluster, "cj", CompletableFuture::join))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("callback");
        }
    }

    @Test
    void aTimedGetOfAStageMadeFromACopyInAFuturesCallbackThrows() throws Exception {
        try (LocalCluster cluster = cluster()) {
            assertThat(waitInCallback(cluster, "cs", f -> {
                try {
                    return f.thenApply(v -> v + 1).get(1, TimeUnit.DAYS);
                } catch (InterruptedException | java.util.concurrent.ExecutionException
                         | java.util.concurrent.TimeoutException e) {
                    throw new AssertionError(e);
                }
            })).isInstanceOf(IllegalStateException.class).hasMessageContaining("callback");
        }
    }
}
