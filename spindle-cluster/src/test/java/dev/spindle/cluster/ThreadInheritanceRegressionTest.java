/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.testkit.Gc;
import dev.spindle.testkit.RequestThread;
import dev.spindle.testkit.RequestThread.Seen;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Long-lived threads of spindle-cluster must not keep what the thread that happened to create
 * them had. The JVM-wide running-reports thread is made by whichever thread builds the first
 * worker, and lives as long as the JVM: it must not pin that thread's context class loader (a
 * web application's), nor carry its {@link InheritableThreadLocal} values or lowered priority.
 * The scheduler's threads, which run every client's future callbacks, must not hand the
 * building thread's inheritable values to every submitter, as spindle-core's workers do not.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ThreadInheritanceRegressionTest {

    @Test
    void runningReportsThreadKeepsNothingOfTheThreadThatMadeIt() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Seen> seen = new CompletableFuture<>();
        AtomicReference<Thread> made = new AtomicReference<>();
        // the JVM-wide executor makes its thread on the first worker's schedule, on its builder's thread
        WeakReference<ClassLoader> loader = RequestThread.run(() -> made.set(ClusterWorker.reporterThread(() -> {
            seen.complete(Seen.here());
            try {
                release.await();                  // alive, as the JVM-wide thread stays
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        })));
        made.get().start();
        try {
            assertThat(seen.get(30, TimeUnit.SECONDS)).as("what the running-reports thread has")
                    .isEqualTo(Seen.NOTHING_OF_A_REQUEST);
            assertThat(Gc.collected(loader)).as("the building thread's class loader, pinned by the reports thread")
                    .isTrue();
        } finally {
            release.countDown();
            made.get().join(30_000);
        }
    }

    @Test
    void futureCallbacksSeeNoInheritableValueOfTheBuildingThread() throws Exception {
        AtomicReference<LocalCluster> built = new AtomicReference<>();
        RequestThread.run(() -> built.set(LocalCluster.builder().workers(1).latency(Duration.ZERO).bandwidth(1e12)
                .stealing(false).balanceInterval(Duration.ZERO).build()));
        try (LocalCluster cluster = built.get()) {
            CountDownLatch go = new CountDownLatch(1);
            CompletableFuture<String> inCallback = new CompletableFuture<>();
            cluster.client().submit("k", args -> {
                go.await();
                return 1;
            }).toCompletableFuture().thenRun(() -> inCallback.complete(String.valueOf(RequestThread.REQUEST.get())));
            go.countDown();
            assertThat(inCallback.get(30, TimeUnit.SECONDS))
                    .as("another submitter's callback, on the notifier, sees the builder's inheritable value")
                    .isEqualTo("null");
        }
    }
}
