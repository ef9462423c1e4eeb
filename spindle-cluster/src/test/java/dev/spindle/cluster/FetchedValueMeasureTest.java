/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A fetched value is measured again by the worker that fetched it; a copy that cannot be written
 * (here: read back from its holder's spill file, which leaves a transient field unset that its
 * {@code writeObject} uses) made that measure throw inside the fetch's callback, which completed
 * the shared fetch never: every task waiting for the value waited for good.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FetchedValueMeasureTest {

    /** Written while its transient lock is set, as it is when made; a copy read back has none. */
    static final class Guarded implements Serializable {
        private static final long serialVersionUID = 1L;
        private final byte[] data;
        private transient Object lock = new Object();

        Guarded(int n) {
            this.data = new byte[n];
            this.data[0] = 7;
        }

        private void writeObject(ObjectOutputStream out) throws IOException {
            synchronized (lock) {             // null in a copy read back: a NullPointerException
                out.defaultWriteObject();
            }
        }
    }

    @Test
    void aDependentOfAFetchedCopyThatCannotBeMeasuredAgainStillRuns() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(2).threadsPerWorker(1).latency(Duration.ZERO)
                .bandwidth(1e12).stealing(false).balanceInterval(Duration.ZERO).memoryLimitPerWorker(10_000)
                .build()) {
            Client client = cluster.client();
            // over the spill target by itself: it goes to disk on worker 0 as soon as it is stored
            ClusterFuture<Guarded> a = client.submit(TaskSpec.builder("a", args -> new Guarded(8_000))
                    .restrictions(Restrictions.strict(Set.of(0))).build());
            ClusterFuture<Integer> b = client.submit(TaskSpec
                    .builder("b", args -> (int) ((Guarded) args.get(0)).data[0]).dependsOn(a).restrictions(Restrictions.strict(Set.of(1))).build());
            CompletableFuture<Integer> result = b.toCompletableFuture();
            try {
                result.get(10, TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                // fall through to the assertion, which says why
            }
            assertThat(result).as("b, on worker 1, which fetches a's copy read back on worker 0")
                    .isCompletedWithValue(7);
        }
    }
}
