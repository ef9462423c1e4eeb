/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import dev.spindle.Spindle;
import dev.spindle.testkit.NoJfrSetUp;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A JVM that never records with JFR never sets JFR up on the pools' account: initializing the
 * first {@code jdk.jfr.Event} subclass of a JVM costs 140-210 ms (see {@code JfrGate}), and the
 * pools used to pay it on the first worker's first park, with the pool's first tasks waiting.
 * The child runs the paths that carry an event (parks and wake-ups, steals, a spare thread for a
 * blocking section, a refused submission) and its class-loading log must show none of JFR's
 * machinery. Before the fix the log listed {@code jdk.jfr.internal.*} classes and
 * {@code dev.spindle.internal.jfr.WorkerParkEvent}.
 */
class NoRecordingLeavesJfrUnsetTest {

    @Test
    void poolsTouchNoEventClassWhileNoRecordingRuns() throws Exception {
        NoJfrSetUp.check(Child.class);
    }

    /** The child JVM: each path that records an event when a recording wants it. */
    static final class Child {
        public static void main(String[] args) throws Exception {
            WorkStealingPool stealing = WorkStealingPool.builder().workers(2).build();
            WorkSharingPool sharing = WorkSharingPool.builder().workers(2).build();
            for (ExecutorService pool : new ExecutorService[] {stealing, sharing}) {
                for (int round = 0; round < 5; round++) {
                    CountDownLatch done = new CountDownLatch(1_000);
                    for (int i = 0; i < 1_000; i++) {
                        pool.execute(done::countDown);
                    }
                    done.await();
                    Thread.sleep(20);              // the workers park; the next round wakes them
                }
            }
            // forks a worker's peer steals, and a blocking section that starts a spare
            long sum = stealing.spawn(() -> fib(stealing, 22)).join();
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch blocked = new CountDownLatch(2);
            for (int i = 0; i < 2; i++) {
                stealing.execute(() -> {
                    try {
                        Spindle.blocking(() -> {
                            blocked.countDown();
                            return release.await(10, TimeUnit.SECONDS);
                        });
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
            }
            blocked.await();
            CountDownLatch ranBeside = new CountDownLatch(1);
            stealing.execute(ranBeside::countDown);   // a spare runs it while both workers block
            ranBeside.await();
            release.countDown();
            stealing.shutdown();
            sharing.shutdown();
            stealing.awaitTermination(10, TimeUnit.SECONDS);
            sharing.awaitTermination(10, TimeUnit.SECONDS);
            try {
                stealing.execute(() -> { });
                throw new AssertionError("a submission after shutdown was accepted");
            } catch (RejectedExecutionException expected) {
                // refused, as it must be: the event it may record is the point
            }
            System.out.println(NoJfrSetUp.DONE + " " + sum);
        }

        private static long fib(WorkStealingPool pool, int n) {
            if (n < 2) {
                return n;
            }
            dev.spindle.Task<Long> left = pool.spawn(() -> fib(pool, n - 1));
            return fib(pool, n - 2) + left.join();
        }
    }
}
