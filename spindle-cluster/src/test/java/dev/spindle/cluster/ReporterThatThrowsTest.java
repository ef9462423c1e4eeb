/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A worker's periodic report (its long-running tasks, its memory, its stalls) runs on a scheduled
 * executor, which stops repeating a task whose run throws. One throw from the transport (a
 * connection that failed for a moment, an {@link Error} from a value's serialisation while a stalled
 * store spills) ended that worker's reports for good: the scheduler heard no more of its running
 * tasks, and a later memory stall was never reported, so the cluster waited on it for good.
 */
class ReporterThatThrowsTest {

    @Test
    void theReportsGoOnAfterARoundThatThrew() throws Exception {
        AtomicInteger throwsLeft = new AtomicInteger(1);
        AtomicInteger reportsAfter = new AtomicInteger();
        CountDownLatch twoMore = new CountDownLatch(2);
        RecordingTransport transport = new RecordingTransport() {
            @Override
            public void toScheduler(Message.ToScheduler message) {
                if (message instanceof Message.TaskRunning) {
                    if (throwsLeft.getAndDecrement() > 0) {
                        throw new IllegalStateException("the link to the scheduler failed once");
                    }
                    reportsAfter.incrementAndGet();
                    twoMore.countDown();
                }
                super.toScheduler(message);
            }
        };
        ClusterWorker worker = new ClusterWorker(0, 1, transport);
        CountDownLatch release = new CountDownLatch(1);
        try {
            worker.receive(new Message.Compute("long", 1, args -> {
                release.await();
                return "done";
            }, List.of(), Map.of(), 0));
            // a report every 100 ms while "long" runs: the first throws, the next ones must still come
            assertThat(twoMore.await(30, TimeUnit.SECONDS))
                    .as("running reports after the one that threw (%d came)", reportsAfter.get()).isTrue();
        } finally {
            release.countDown();
            worker.shutdown();
        }
    }

    /**
     * The memory report of a worker in another JVM is sent when its figures change. It was
     * recorded as sent before the send: one that threw was never sent again while the figures
     * stayed, so the scheduler never learnt them (nor, the same way, a stall).
     */
    @Test
    void aMemoryReportWhoseSendThrewIsSentAgain() throws Exception {
        AtomicInteger throwsLeft = new AtomicInteger(1);
        CountDownLatch delivered = new CountDownLatch(1);
        RecordingTransport transport = new RecordingTransport() {
            @Override
            public void toScheduler(Message.ToScheduler message) {
                if (message instanceof Message.MemoryReport) {
                    if (throwsLeft.getAndDecrement() > 0) {
                        throw new IllegalStateException("the link to the scheduler failed once");
                    }
                    delivered.countDown();
                }
                super.toScheduler(message);
            }
        };
        ClusterWorker worker = new ClusterWorker(0, 1, transport, new WorkerMemory(0, null), true);
        try {
            assertThat(delivered.await(30, TimeUnit.SECONDS))
                    .as("the memory report sent again after its first send threw").isTrue();
        } finally {
            worker.shutdown();
        }
    }
}
