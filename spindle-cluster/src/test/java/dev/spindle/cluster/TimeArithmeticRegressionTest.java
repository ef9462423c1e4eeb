/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Defects found by review (session 28, time arithmetic and extreme arguments), each test failing
 * before its fix: the start-up wait that {@code HazelcastWorker.awaitCoordinator(timeout)} and the
 * coordinators' {@code start(..., joinTimeout)} use, and a worker's order of ready tasks at the
 * extreme priorities.
 */
class TimeArithmeticRegressionTest {

    /** A wait to run. */
    private interface Wait {
        void run() throws Exception;
    }

    /** Runs {@code wait} on a thread of its own; its outcome (null, or what it threw) within 3 s. */
    private static Object outcomeOf(Wait wait) throws InterruptedException {
        AtomicReference<Object> outcome = new AtomicReference<>("still waiting after 3 s");
        Thread t = new Thread(() -> {
            try {
                wait.run();
                outcome.set(null);
            } catch (Exception e) {
                outcome.set(e);
            }
        }, "readiness-wait");
        t.start();
        t.join(3_000);                          // a failure bound only
        t.interrupt();                          // ends a wait left running (its sleep)
        t.join(3_000);
        return outcome.get();
    }

    /**
     * A timeout longer than a {@code long} of nanoseconds ("wait as long as it takes") threw
     * {@link ArithmeticException} from {@code toNanos()} instead of waiting: it should saturate,
     * as {@code TimeUnit.convert} does.
     */
    @Test
    void aTimeoutTooLongForNanosecondsWaitsUntilReady() throws Exception {
        AtomicInteger looks = new AtomicInteger();
        Object outcome = outcomeOf(() -> Readiness.await(Duration.ofSeconds(Long.MAX_VALUE), System.nanoTime(),
                () -> looks.incrementAndGet() == 2, () -> "never"));
        assertThat(outcome).as("await(Duration.ofSeconds(Long.MAX_VALUE)) with a look ready the 2nd time").isNull();
        assertThat(looks).hasValue(2);
    }

    /**
     * The most negative timeouts: {@code Duration.ofNanos(Long.MIN_VALUE)} made the deadline
     * {@code since + Long.MIN_VALUE}, 2^63 ns away, so {@code now - deadline} overflowed to a
     * negative value and the wait never timed out; {@code Duration.ofSeconds(Long.MIN_VALUE)}
     * threw {@link ArithmeticException}. Both should time out after the first look, as
     * {@link Duration#ZERO} does.
     */
    @Test
    void theMostNegativeTimeoutsTimeOutAfterOneLook() throws Exception {
        for (Duration timeout : new Duration[] {Duration.ofNanos(Long.MIN_VALUE), Duration.ofSeconds(Long.MIN_VALUE)}) {
            AtomicInteger looks = new AtomicInteger();
            long since = System.nanoTime() - 1;   // already over for a zero timeout, as in ReadinessTest
            Object outcome = outcomeOf(() -> Readiness.await(timeout, since, () -> {
                looks.incrementAndGet();
                return false;
            }, () -> "no coordinator"));
            assertThat(outcome).as("await(" + timeout + ") with a look never ready")
                    .isInstanceOf(TimeoutException.class);
            assertThat(looks).as("looks with " + timeout).hasValue(1);
        }
    }
    /**
     * A worker ran its ready tasks in the order of {@code -priority}, and
     * {@code -Integer.MIN_VALUE} is {@code Integer.MIN_VALUE}: a task of the lowest priority (any
     * {@code int} is allowed, higher first) ran before every other, even one of priority
     * {@code Integer.MAX_VALUE}.
     */
    @Test
    void aTaskOfTheLowestPriorityRunsLastOnItsWorker() throws Exception {
        RecordingTransport transport = new RecordingTransport();
        ClusterWorker worker = new ClusterWorker(0, 1, transport);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<String> order = new CopyOnWriteArrayList<>();
        try {
            worker.receive(new Message.Compute("block-0", 1, args -> {
                started.countDown();
                release.await();
                return 0;
            }, List.of(), Map.of(), 0));
            assertThat(started.await(3, TimeUnit.SECONDS)).isTrue();
            // the only thread is busy, so all queue up before any can start
            worker.receive(new Message.Compute("lowest-0", 2, args -> order.add("lowest"), List.of(), Map.of(),
                    Integer.MIN_VALUE));
            worker.receive(new Message.Compute("zero-0", 3, args -> order.add("zero"), List.of(), Map.of(), 0));
            worker.receive(new Message.Compute("highest-0", 4, args -> order.add("highest"), List.of(), Map.of(),
                    Integer.MAX_VALUE));
            release.countDown();
            transport.awaitToScheduler(4);
            assertThat(order).as("run order by priority, higher first")
                    .containsExactly("highest", "zero", "lowest");
        } finally {
            release.countDown();
            worker.shutdown();
        }
    }
}
