/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.WireMessage;
import dev.spindle.cluster.testkit.Cleanup;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A batch of a Pekko worker's reports whose sending threw an Error (an OutOfMemoryError sealing
 * a large result's frame, say) escaped into whichever task thread was flushing: the batch had
 * left the queue, with other tasks' reports perhaps, its frame took no number (so the coordinator
 * saw no gap), and the coordinator never heard of those tasks, whose futures waited for good. The
 * worker now leaves the cluster, as for a report it cannot make small enough, so that the
 * coordinator handles it as lost and places its tasks again (the Hazelcast worker does the same).
 * The Error is injected through the transport's hook.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ReportErrorLeavesTheClusterTest {

    @RegisterExtension
    final Cleanup started = new Cleanup();

    @AfterEach
    void resetHook() {
        WorkerTransport.beforeReportsForTests = bodies -> { };
    }

    @Test
    void aReportBatchWhoseSendingThrowsAnErrorHasTheWorkerLeave() throws Exception {
        OneWorkerCluster c = OneWorkerCluster.start(started, "report-error", 2);
        assertThat(c.coordinator().client().submit("one", in -> 1).get(60, TimeUnit.SECONDS)).isEqualTo(1);

        AtomicBoolean thrown = new AtomicBoolean();
        WorkerTransport.beforeReportsForTests = bodies -> {
            if (bodies.stream().anyMatch(b -> b instanceof WireMessage.Finished f && f.key().equals("two"))
                    && thrown.compareAndSet(false, true)) {
                throw new OutOfMemoryError("sealing the frame of a large result");
            }
        };
        c.coordinator().client().submit("two", in -> 2);       // its report's sending throws

        assertThat(eventually(thrown::get)).as("the report of 'two' was about to be sent").isTrue();
        assertThat(eventually(() -> c.coordinator().isLost(0)))
                .as("worker 0, whose report could not be sent, is handled as lost").isTrue();
        c.worker().terminated().toCompletableFuture().get(60, TimeUnit.SECONDS);   // it left the cluster
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
