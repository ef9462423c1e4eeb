/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link LocalCluster#close()} racing another close: the second returned at once, before the first
 * had failed the unfinished futures and stopped the workers, so a caller that closed the cluster
 * (a shutdown hook, a try-with-resources racing one) still saw its futures pending.
 * {@link ClusterCoordinator#close()} waits for the first close; the local cluster must too.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LocalClusterRacingCloseTest {

    @Test
    void aCloseRacingAnotherReturnsOnlyOnceTheFuturesAreFailed() throws Exception {
        LocalCluster cluster = LocalCluster.builder().workers(1).threadsPerWorker(2).latency(Duration.ZERO)
                .stealing(false).balanceInterval(Duration.ZERO).build();
        Client client = cluster.client();
        CountDownLatch never = new CountDownLatch(1);
        ClusterFuture<Integer> pending = client.submit("pending", args -> {
            never.await();                    // ended by the close (the pool interrupts it)
            return 0;
        });
        // holds the notifier in a callback, so that the first close waits there (bounded) with the
        // pending future's failure queued behind it
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch inCallback = new CountDownLatch(1);
        CountDownLatch callbackMayReturn = new CountDownLatch(1);
        ClusterFuture<Integer> held = client.submit("held", args -> {
            go.await();
            return 1;
        });
        held.toCompletableFuture().thenRun(() -> {
            inCallback.countDown();
            try {
                callbackMayReturn.await(30, SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        go.countDown();
        assertThat(inCallback.await(30, SECONDS)).as("the callback runs").isTrue();
        try {
            Thread first = new Thread(cluster::close, "close-1");
            first.setDaemon(true);
            first.start();
            // the first close has begun once the cluster refuses calls
            while (true) {
                try {
                    cluster.stats();
                } catch (RejectedExecutionException closed) {
                    break;
                }
                Thread.sleep(1);
            }
            CompletableFuture<Boolean> doneWhenCloseReturned = new CompletableFuture<>();
            Thread second = new Thread(() -> {
                cluster.close();
                doneWhenCloseReturned.complete(pending.isDone());
            }, "close-2");
            second.setDaemon(true);
            second.start();
            while (second.getState() != Thread.State.TERMINATED && second.getState() != Thread.State.WAITING) {
                Thread.sleep(1);
            }
            callbackMayReturn.countDown();
            assertThat(doneWhenCloseReturned.get(30, SECONDS))
                    .as("the pending task's future is completed once the second close() returns").isTrue();
            first.join(30_000);
            assertThat(first.isAlive()).as("the first close returned").isFalse();
        } finally {
            callbackMayReturn.countDown();
            never.countDown();
        }
    }
}
