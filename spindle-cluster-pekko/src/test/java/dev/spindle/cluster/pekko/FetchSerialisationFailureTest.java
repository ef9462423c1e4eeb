/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

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
 * A holder answers a fetch by serialising the value on its endpoint actor. A value whose
 * serialisation threw anything but an {@link IllegalArgumentException} there (a collection it holds
 * modified meanwhile, say) escaped the actor: Pekko restarted it, the request was dropped and
 * the requester heard nothing until its fetch timed out (four failure timeouts, at least 10 s),
 * where a value that cannot travel is answered "not held" at once and computed again.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class FetchSerialisationFailureTest {

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
        String cluster = "fetchser";
        int port = FreePorts.free();
        String seed = "127.0.0.1:" + port;
        // workers' fetch timeout: 4 x 30 s, beyond the wait below
        try (PekkoWorker w0 = PekkoWorker.start(TestCerts.settings(cluster, "worker").seedNode(seed)
                        .failureSeconds(30).build(), 0, 2);
                PekkoWorker w1 = PekkoWorker.start(TestCerts.settings(cluster, "worker").seedNode(seed)
                        .failureSeconds(30).build(), 1, 2);
                PekkoCoordinator c = PekkoCoordinator.start(TestCerts.settings(cluster, "coordinator").port(port).build(),
                        CoordinatorSettings.builder().workers(2).threadsPerWorker(2).build(), Duration.ofSeconds(60))) {
            Client client = c.client();
            ThrowsOnThirdWrite.WRITES.set(0);
            ClusterFuture<ThrowsOnThirdWrite> value = client.submit(TaskSpec.builder("fs-value",
                    a -> new ThrowsOnThirdWrite(41)).restrictions(Restrictions.strict(Set.of(0))).build());
            ClusterFuture<Integer> use = client.submit(TaskSpec.builder("fs-use",
                    a -> ((ThrowsOnThirdWrite) a.get(0)).n + 1).dependsOn(value)
                    .restrictions(Restrictions.strict(Set.of(1))).build());
            assertThat(use.get(60, TimeUnit.SECONDS)).as("the fetch is answered, not left to time out").isEqualTo(42);
            assertThat(ThrowsOnThirdWrite.WRITES.get()).as("the value was computed and fetched again").isGreaterThan(3);
        }
    }
}
