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
 * A task of cluster A that submits a key to cluster B is not B's task: B must not record it as the
 * key's submitter. It did, by key and attempt only, so B's own task of the same key (at another
 * attempt, attempts being numbered per cluster) passed for a retry of that submitter and was let
 * submit the key again, superseding the record A's task made, whose future then took the value of
 * the other submission. On the code before the fix B's {@code p} resubmitted {@code c}; now it is
 * refused, as a key already submitted by anyone but an earlier attempt of the submitting task is.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ForeignSubmitterTest {

    private static LocalCluster cluster() {
        return LocalCluster.builder().workers(1).threadsPerWorker(2).latency(Duration.ZERO).bandwidth(1e12)
                .stealing(false).balanceInterval(Duration.ZERO).build();
    }

    @Test
    void aKeySubmittedByAnotherClustersTaskIsNotResubmittableByATaskOfTheSameKey() throws Exception {
        try (LocalCluster a = cluster(); LocalCluster b = cluster()) {
            // B's attempts run ahead of A's: B's 'p' below is not at the attempt A's 'p' was
            for (int i = 0; i < 3; i++) {
                int n = i;
                assertThat(b.client().submit("warm-" + i, args -> n).get(30, TimeUnit.SECONDS)).isEqualTo(n);
            }

            ClusterFuture<String> aP = a.client().submit("p", args -> {
                ClusterFuture<String> c = b.client().submit("c", x -> "from A's p");
                return c.get(30, TimeUnit.SECONDS);
            });
            assertThat(aP.get(30, TimeUnit.SECONDS)).isEqualTo("from A's p");

            ClusterFuture<String> bP = b.client().submit("p", args -> {
                try {
                    return b.client().submit("c", x -> "from B's p").get(30, TimeUnit.SECONDS);
                } catch (IllegalArgumentException e) {
                    return "refused: " + e.getMessage();
                }
            });
            assertThat(bP.get(30, TimeUnit.SECONDS))
                    .as("B's own task 'p' submitting 'c', which A's task 'p' submitted to B")
                    .isEqualTo("refused: a task with key 'c' was already submitted");
        }
    }
}
