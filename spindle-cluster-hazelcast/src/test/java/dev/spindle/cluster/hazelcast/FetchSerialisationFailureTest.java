/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.Client;
import dev.spindle.cluster.ClusterFuture;
import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.Restrictions;
import dev.spindle.cluster.TaskSpec;
import dev.spindle.cluster.testkit.FreePorts;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A holder answers a fetch by serialising the value in its fetch call. A value whose
 * serialisation threw anything but an {@link IllegalArgumentException} there (a collection it holds
 * modified meanwhile, say) escaped the call: Hazelcast sent the exception back, the requester could
 * not read its class (a {@code ConcurrentModificationException} is not among the few it reads),
 * and the fetch, which has no timeout of its own, was answered only when Hazelcast timed the call
 * out, about two minutes later; the task that needed the value waited as long. Now the holder
 * answers "not held" at once and the value is computed again, as on the Pekko transport.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class FetchSerialisationFailureTest {

    private static final String SECRET = "fetch-serialisation-secret-0123456789";

    /** A value whose third serialisation, in this JVM, throws: the holder's answer to the fetch. */
    static final class ThrowsOnThirdWrite implements Serializable {
        private static final long serialVersionUID = 1L;
        static final AtomicInteger WRITES = new AtomicInteger();
        final int n;

        ThrowsOnThirdWrite(int n) {
            this.n = n;
        }

        private void writeObject(ObjectOutputStream out) throws IOException {
            // 1: the worker measures the result; 2: it reports it; 3: it answers the fetch
            if (WRITES.incrementAndGet() == 3) {
                throw new java.util.ConcurrentModificationException("modified while written");
            }
            out.defaultWriteObject();
        }
    }

    @Test
    void aFetchWhoseValueCannotBeSerialisedIsAnsweredAndTheValueComputedAgain() throws Exception {
        int[] ports = FreePorts.free(3);
        String cluster = "spindle-fetchser-" + ports[0];
        try (HazelcastWorker w0 = HazelcastWorker.start(InProcessClusterTest.settings(cluster, SECRET, ports[1], ports)
                        .allowPackage("dev.spindle.cluster.hazelcast").build(), 0, 2);
                HazelcastWorker w1 = HazelcastWorker.start(InProcessClusterTest.settings(cluster, SECRET, ports[2], ports)
                        .allowPackage("dev.spindle.cluster.hazelcast").build(), 1, 2);
                HazelcastCoordinator c = HazelcastCoordinator.start(InProcessClusterTest.settings(cluster, SECRET,
                                ports[0], ports).allowPackage("dev.spindle.cluster.hazelcast").build(),
                        CoordinatorSettings.builder().workers(2).threadsPerWorker(2).build(), Duration.ofSeconds(60))) {
            Client client = c.client();
            ThrowsOnThirdWrite.WRITES.set(0);
            ClusterFuture<ThrowsOnThirdWrite> value = client.submit(TaskSpec.builder("fs-value",
                    a -> new ThrowsOnThirdWrite(41)).restrictions(Restrictions.strict(Set.of(0))).build());
            ClusterFuture<Integer> use = client.submit(TaskSpec.builder("fs-use",
                    a -> ((ThrowsOnThirdWrite) a.get(0)).n + 1).dependsOn(value)
                    .restrictions(Restrictions.strict(Set.of(1))).build());
            assertThat(use.get(60, TimeUnit.SECONDS)).as("the fetch is answered, not left to Hazelcast's timeout")
                    .isEqualTo(42);
            assertThat(ThrowsOnThirdWrite.WRITES.get()).as("the value was computed and fetched again").isGreaterThan(3);
        }
    }
}
