/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.hazelcast.internal.util.ConcurrencyUtil;
import dev.spindle.testkit.RequestThread;
import dev.spindle.testkit.RequestThread.Seen;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The JVM-wide callback threads that {@link HazelcastConfigs#reuseCallbackThreads} installs are
 * made by whichever thread hands Hazelcast a callback when none is idle (a request's, say), and
 * each then runs every later callback, of anyone, for as long as it is kept busy. They must not
 * carry that thread's {@link InheritableThreadLocal} values, context class loader or priority.
 */
class ThreadInheritanceRegressionTest {

    @Test
    void aCallbackThreadKeepsNothingOfTheThreadThatMadeIt() throws Exception {
        HazelcastConfigs.reuseCallbackThreads();
        Executor callbacks = ConcurrencyUtil.getDefaultAsyncExecutor();
        // installed only where Hazelcast would start a thread per callback (two cores or fewer)
        assumeTrue(callbacks instanceof ThreadPoolExecutor, "Spindle's callback executor is not installed here");

        CompletableFuture<Thread> first = new CompletableFuture<>();
        RequestThread.run(() -> callbacks.execute(() -> first.complete(Thread.currentThread())));
        Thread made = first.get(30, TimeUnit.SECONDS);

        // an unrelated callback, once that thread is idle again: it runs there
        Thread ranOn = null;
        Seen seen = null;
        for (int i = 0; i < 20 && ranOn != made; i++) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (made.isAlive() && made.getState() != Thread.State.TIMED_WAITING && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            CompletableFuture<Thread> thread = new CompletableFuture<>();
            CompletableFuture<Seen> later = new CompletableFuture<>();
            callbacks.execute(() -> {
                later.complete(Seen.here());
                thread.complete(Thread.currentThread());
            });
            seen = later.get(30, TimeUnit.SECONDS);
            ranOn = thread.get(30, TimeUnit.SECONDS);
        }
        assumeTrue(ranOn == made, "the first callback's thread was not reused");
        assertThat(seen).as("what a later, unrelated callback sees on the thread a request made")
                .isEqualTo(Seen.NOTHING_OF_A_REQUEST);
    }
}
