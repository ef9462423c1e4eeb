/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A client call on an interrupted thread threw {@link IllegalStateException} ("interrupted while
 * waiting for the scheduler") although its event was queued and ran all the same: the task was
 * submitted, its key taken (a second submission was refused) and its result kept on a worker for
 * good, with no future the caller could release it by.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClientInterruptRegressionTest {

    @Test
    void aSubmissionOnAnInterruptedThreadReturnsItsFutureAndKeepsTheInterrupt() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(1).latency(Duration.ZERO).bandwidth(1e12)
                .stealing(false).balanceInterval(Duration.ZERO).build()) {
            Client client = cluster.client();
            ClusterFuture<Integer> f = null;
            RuntimeException thrown = null;
            boolean interrupted;
            Thread.currentThread().interrupt();   // a submitter whose pool is being shut down, say
            try {
                f = client.submit("ci-task", args -> 1);
            } catch (RuntimeException e) {
                thrown = e;
            } finally {
                interrupted = Thread.interrupted();
            }
            assertThat(thrown).as("what the submission threw (the task was submitted all the same)").isNull();
            assertThat(interrupted).as("the interrupt, kept for the caller").isTrue();
            assertThat(f.get(10, TimeUnit.SECONDS)).isEqualTo(1);
            f.release();
        }
    }
}
