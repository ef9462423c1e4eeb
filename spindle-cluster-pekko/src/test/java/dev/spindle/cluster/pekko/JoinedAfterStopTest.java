/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.testkit.FreePorts;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker stopped before it was ever Up (closed while its seed does not answer, or refused by
 * the cluster's TLS, or downed while joining): {@link PekkoWorker#joined()} never completed, so a
 * caller waiting for it without a bound (as for {@code terminated()}) waited for good on a worker
 * that could no longer join.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class JoinedAfterStopTest {

    @Test
    void joinedFailsOnceTheWorkerStoppedBeforeItWasUp() throws Exception {
        int[] ports = FreePorts.free(2);       // nothing listens on the seed's port: the join retries without end
        PekkoWorker worker = PekkoWorker.start(TestCerts.settings("never-joined", "worker")
                .seedNode("127.0.0.1:" + ports[0]).port(ports[1]).build(), 0, 1);
        CompletableFuture<Void> joined = worker.joined().toCompletableFuture();
        assertThat(joined).as("joined() while the worker waits for its seed").isNotDone();

        worker.close();

        // the bound only turns a stage that never completes into a failure: close() has returned
        assertThat(joined).as("joined() of a worker stopped before it was Up").failsWithin(Duration.ofSeconds(30))
                .withThrowableOfType(ExecutionException.class).withCauseInstanceOf(IllegalStateException.class);
        assertThat(worker.joined().toCompletableFuture()).as("joined() asked after the stop").isCompletedExceptionally();
    }
}
