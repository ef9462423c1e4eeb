/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.Message;
import dev.spindle.cluster.testkit.Cleanup;
import java.lang.reflect.Field;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A worker shortens a report over the frame limit (a result becomes its task's failure, a failure
 * goes without its message and stack trace); one still too large after that (its key alone longer
 * than a frame) was only logged, and the coordinator never heard of the task, whose caller waited
 * for good. Now the worker handles its coordinator as gone and leaves the cluster, as for a report
 * that is dropped, so that the coordinator places its tasks again.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class UnshortenableReportLeavesTheClusterTest {

    @RegisterExtension
    final Cleanup started = new Cleanup();

    @Test
    void aFailureTooLargeForAFrameEvenShortenedHasTheWorkerLeave() throws Exception {
        OneWorkerCluster c = OneWorkerCluster.start(started, "unshortenable", 2);
        assertThat(c.coordinator().client().submit("one", in -> 1).get(60, TimeUnit.SECONDS)).isEqualTo(1);
        WorkerTransport transport = transport(c.worker());

        String key = "k".repeat(frameLimit(transport) + 1);
        transport.toScheduler(new Message.TaskErred(0, key, 1, new IllegalStateException("failed"), 1));

        assertThat(eventually(() -> c.worker().coordinatorLost()))
                .as("a worker whose report the coordinator can never get counts the coordinator gone").isTrue();
        c.worker().terminated().toCompletableFuture().get(60, TimeUnit.SECONDS);   // it left the cluster
        assertThat(eventually(() -> c.coordinator().isLost(0))).as("the coordinator handles the worker as lost").isTrue();
    }

    private static WorkerTransport transport(PekkoWorker worker) throws Exception {
        Field f = PekkoWorker.class.getDeclaredField("transport");
        f.setAccessible(true);
        return (WorkerTransport) f.get(worker);
    }

    /** The frame limit of the worker's codec. */
    private static int frameLimit(WorkerTransport transport) throws Exception {
        Field f = WorkerTransport.class.getDeclaredField("codec");
        f.setAccessible(true);
        return ((WireCodec) f.get(transport)).frameLimit();
    }

    /** Whether {@code condition} holds within 30 s. */
    private static boolean eventually(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(50);
        }
        return true;
    }
}
