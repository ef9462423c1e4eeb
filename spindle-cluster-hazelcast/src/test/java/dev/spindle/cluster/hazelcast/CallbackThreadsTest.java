/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.hazelcast.internal.util.ConcurrencyUtil;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Hazelcast's invocation callbacks run on reused threads once a Spindle member has configured
 * Hazelcast: on a machine of two cores or fewer Hazelcast would otherwise start a thread for every
 * callback, that is for every Spindle message (see {@link HazelcastConfigs#reuseCallbackThreads}).
 */
class CallbackThreadsTest {

    @Test
    void callbacksOneAfterAnotherShareThreads() throws Exception {
        HazelcastConfigs.reuseCallbackThreads();
        Executor callbacks = ConcurrencyUtil.getDefaultAsyncExecutor();
        assertFalse(HazelcastConfigs.startsThreadPerCallback(callbacks), "still Hazelcast's fallback: " + callbacks);
        // 50 callbacks, each after the previous one ended: the fallback would run them on 50 threads
        Set<Thread> threads = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            CompletableFuture<Thread> ran = new CompletableFuture<>();
            callbacks.execute(() -> ran.complete(Thread.currentThread()));
            Thread t = ran.get(10, TimeUnit.SECONDS);
            threads.add(t);
            // wait until the thread is idle again (parked for its next callback), as between two
            // messages; a fallback thread ends instead, which ends the wait as well
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (t.isAlive() && t.getState() != Thread.State.TIMED_WAITING && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
        }
        assertTrue(threads.size() <= 2, threads.size() + " threads for 50 callbacks one after another");
    }

    @Test
    void onlyHazelcastsOwnFallbackIsReplaced() {
        assertFalse(HazelcastConfigs.startsThreadPerCallback(ForkJoinPool.commonPool()));
        Executor mine = Runnable::run;
        assertFalse(HazelcastConfigs.startsThreadPerCallback(mine));
    }
}
