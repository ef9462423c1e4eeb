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
        CountDownLatch twoMore = new CountDownLatch(2);
        RecordingTransport transport = throwingOnceOn(Message.TaskRunning.class, twoMore);
        ClusterWorker worker = new ClusterWorker(0, 1, transport);
        CountDownLatch release = new CountDownLatch(1);
        try {
            worker.receive(new Message.Compute("long", 1, args -> {
                release.await();
                return "done";
            }, List.of(), Map.of(), 0));
            // a report every 100 ms while "long" runs: the first throws, the next ones must still come
            assertThat(twoMore.await(30, TimeUnit.SECONDS))
                    .as("running reports after the one that threw (%d of 2 came)", 2 - twoMore.getCount()).isTrue();
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
        CountDownLatch delivered = new CountDownLatch(1);
        RecordingTransport transport = throwingOnceOn(Message.MemoryReport.class, delivered);
        ClusterWorker worker = new ClusterWorker(0, 1, transport, new WorkerMemory(0, null), true);
        try {
            assertThat(delivered.await(30, TimeUnit.SECONDS))
                    .as("the memory report sent again after its first send threw").isTrue();
        } finally {
            worker.shutdown();
        }
    }

    /** A transport whose first send of a {@code kind} message throws; each later one counts {@code sent} down. */
    private static RecordingTransport throwingOnceOn(Class<? extends Message.ToScheduler> kind, CountDownLatch sent) {
        AtomicInteger throwsLeft = new AtomicInteger(1);
        return new RecordingTransport() {
            @Override
            public void toScheduler(Message.ToScheduler message) {
                if (kind.isInstance(message)) {
                    if (throwsLeft.getAndDecrement() > 0) {
                        throw new IllegalStateException("the link to the scheduler failed once");
                    }
                    sent.countDown();
                }
                super.toScheduler(message);
            }
        };
    }
}
