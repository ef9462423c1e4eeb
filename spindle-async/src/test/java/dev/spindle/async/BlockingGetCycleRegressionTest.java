/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static dev.spindle.async.BlockedGetFixture.WORKERS;
import static dev.spindle.async.BlockedGetFixture.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Blocking gets (AsyncWorker's <i>Blocking gets</i>) that wait on each other through a worker's
 * help: a task run from within a blocked get that in turn waits for the task whose get it
 * interrupted, beneath it on the same thread.
 */
class BlockingGetCycleRegressionTest {

    /**
     * Both workers block in a get of a pending child (B first, then A), so they help. A runs Z,
     * which A's own task T1 spawned just before blocking, from within T1's wait; Z blocks in a
     * get of T1, whose poll lies beneath Z on A's stack. Without the help (threads of their own,
     * as an executor would give them), shutdown would cancel the pending children, T1's get
     * would end, then Z's. With it, T1 can resume only once Z's get ends, and shutdown cancels
     * only tasks nobody polls: T1 is being polled, so shutdown waited for good.
     */
    @Test
    void shutdownEndsAGetOfATaskBeneathItOnTheSameWorker() throws Exception {
        try (BlockedGetFixture f = new BlockedGetFixture()) {
            AsyncRuntime rt = f.rt;
            JoinHandle<String> t2 = f.spawnBlockedOnForever();
            await(() -> rt.blockedInGet.get() == 1, "T2's worker to block in get");

            AtomicReference<JoinHandle<String>> t1 = new AtomicReference<>();
            CompletableFuture<JoinHandle<String>> t1Handle = new CompletableFuture<>();
            AtomicReference<Thread> t1Thread = new AtomicReference<>();
            CompletableFuture<Thread> zThread = new CompletableFuture<>();
            AtomicReference<JoinHandle<String>> z = new AtomicReference<>();
            t1.set(f.track(rt.spawn(cx -> {
                t1Thread.set(Thread.currentThread());
                JoinHandle<Void> x = f.spawnForever();
                z.set(f.track(rt.spawn(cz -> {
                    zThread.complete(Thread.currentThread());
                    try {
                        return Poll.ready("z got " + t1Handle.get(10, TimeUnit.SECONDS).get());
                    } catch (CancellationException e) {
                        return Poll.ready("z: t1 cancelled");
                    } catch (Exception e) {
                        throw Async.unchecked(e);
                    }
                })));
                try {
                    x.get();
                    return Poll.ready("x done");
                } catch (CancellationException e) {
                    return Poll.ready("x cancelled");
                } catch (Exception e) {
                    throw Async.unchecked(e);
                }
            })));
            t1Handle.complete(t1.get());       // Z may start before spawn returns here
            Thread zRanOn = zThread.get(10, TimeUnit.SECONDS);
            await(() -> rt.blockedInGet.get() == WORKERS, "every worker to block in get");
            assertThat(zRanOn).as("Z ran from within T1's wait, on T1's worker").isSameAs(t1Thread.get());

            assertTimeoutPreemptively(Duration.ofSeconds(10), rt::shutdown,
                    "shutdown with a get waiting for a task beneath it on its worker");

            assertThat(rt.isTerminated()).isTrue();
            assertThat(z.get().get(10, TimeUnit.SECONDS)).isEqualTo("z: t1 cancelled");
            assertThat(t1.get().isCancelled()).as("T1, which could not resume").isTrue();
            assertThat(t2.get(10, TimeUnit.SECONDS)).isEqualTo("child cancelled");
        }
    }
}
