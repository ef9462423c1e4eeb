/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker in another JVM reports its store's figures ({@link Message.MemoryReport}) when they
 * change, and the scheduler keeps the last report it receives. A transport may lose a report
 * without telling anyone (Pekko's drops what it sends while it follows no coordinator) or deliver
 * it after the next one (Hazelcast's receiver hands frames to its executor on several threads).
 * Sent only on a change, the last figures so lost or overtaken were never sent again while the
 * store stayed the same, and the coordinator's stats showed stale ones for good (a full build
 * under load timed out in {@code MemoryScenario}, waiting for the worker's final figures). Now the
 * worker sends its figures again, unchanged, every {@link ClusterWorker#MEMORY_REFRESH_ROUNDS}
 * report rounds. On the code before the fix both tests failed: after 20 s the scheduler still had
 * no figures (the lost report), or the older ones (the overtaken report).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StaleMemoryReportTest {

    private static final long A = 1_000;
    private static final long B = 2_000;

    @Test
    void aMemoryReportLostOnItsWayIsCorrectedByALaterOne() throws Exception {
        GraphScheduler s = new GraphScheduler(HandDriven.settings(1).build(), new RecordingTransport());
        CountDownLatch lost = new CountDownLatch(1);
        Transport wire = memoryReportsTo(s, (r, deliver) -> {
            if (r.memoryBytes() == A && lost.getCount() > 0) {
                lost.countDown();             // dropped, nobody told: the send returns
                return;
            }
            deliver.receive(r);
        });
        ClusterWorker worker = new ClusterWorker(0, 1, wire, new WorkerMemory(0, null), true);
        try {
            worker.store().put("a", "a", A);
            assertThat(lost.await(30, TimeUnit.SECONDS)).as("the report of the store's figures was lost").isTrue();
            awaitMemoryBytes(s, A);
            assertThat(s.stats().workers().get(0).memoryBytes())
                    .as("the scheduler's figure for worker 0, whose store holds %d bytes and no longer changes", A)
                    .isEqualTo(A);
        } finally {
            worker.shutdown();
            s.close();
        }
    }

    @Test
    void aMemoryReportOvertakenByTheNextIsCorrectedByALaterOne() throws Exception {
        GraphScheduler s = new GraphScheduler(HandDriven.settings(1).build(), new RecordingTransport());
        AtomicReference<Message.MemoryReport> late = new AtomicReference<>();
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch overtaken = new CountDownLatch(1);
        Transport wire = memoryReportsTo(s, (r, deliver) -> {
            if (r.memoryBytes() == A && late.get() == null) {
                late.set(r);                  // on its way, slowly
                held.countDown();
                return;
            }
            deliver.receive(r);
            if (r.memoryBytes() == A + B && overtaken.getCount() > 0) {
                deliver.receive(late.get());  // arrives after the newer one
                overtaken.countDown();
            }
        });
        ClusterWorker worker = new ClusterWorker(0, 1, wire, new WorkerMemory(0, null), true);
        try {
            worker.store().put("a", "a", A);
            assertThat(held.await(30, TimeUnit.SECONDS)).as("the report of the first value sent").isTrue();
            worker.store().put("b", "b", B);
            assertThat(overtaken.await(30, TimeUnit.SECONDS)).as("the report of both values sent").isTrue();
            awaitMemoryBytes(s, A + B);
            assertThat(s.stats().workers().get(0).memoryBytes())
                    .as("the scheduler's figure for worker 0, whose store holds %d bytes and no longer changes", A + B)
                    .isEqualTo(A + B);
        } finally {
            worker.shutdown();
            s.close();
        }
    }

    /** What the test's wire does with one memory report: deliver it, hold it back, or drop it. */
    @FunctionalInterface
    private interface Route {
        void route(Message.MemoryReport report, GraphScheduler deliver);
    }

    /** A worker's transport whose memory reports go to {@code s} by {@code route}; other messages are recorded. */
    private static Transport memoryReportsTo(GraphScheduler s, Route route) {
        return new RecordingTransport() {
            @Override
            public void toScheduler(Message.ToScheduler message) {
                if (message instanceof Message.MemoryReport r) {
                    route.route(r, s);
                } else {
                    super.toScheduler(message);
                }
            }
        };
    }

    /** Waits, at most 20 s (only so as not to hang), for the scheduler's figure; the caller asserts it. */
    private static void awaitMemoryBytes(GraphScheduler s, long bytes) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (s.stats().workers().get(0).memoryBytes() != bytes && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
    }
}
