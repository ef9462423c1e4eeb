/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.cluster.Client;
import dev.spindle.cluster.ClusterFuture;
import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.RemoteTaskException;
import dev.spindle.cluster.testkit.FreePorts;
import java.io.File;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A coordinator and two workers as separate actor systems in this JVM, over mutual TLS: a graph
 * runs, and a task that fails, or whose function or result cannot travel, fails alone.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class InProcessClusterTest {

    @Test
    void workersJoinOverTlsAndRunAGraph() throws Exception {
        String cluster = "inproc";
        int port = FreePorts.free();
        String seed = "127.0.0.1:" + port;
        int limit = PekkoClusterSettings.MIN_MESSAGE_BYTES;
        try (PekkoWorker w0 = PekkoWorker.start(TestCerts.settings(cluster, "worker").seedNode(seed)
                        .maxMessageBytes(limit).build(), 0, 2);
                PekkoWorker w1 = PekkoWorker.start(TestCerts.settings(cluster, "worker").seedNode(seed)
                        .maxMessageBytes(limit).build(), 1, 2);
                PekkoCoordinator c = PekkoCoordinator.start(TestCerts.settings(cluster, "coordinator").port(port)
                        .maxMessageBytes(limit).build(),
                        CoordinatorSettings.builder().workers(2).threadsPerWorker(2).build(), Duration.ofSeconds(60))) {
            Client client = c.client();
            ClusterFuture<Integer> x = client.submit("x", args -> 20);
            ClusterFuture<Integer> y = client.submit("y", args -> 21);
            ClusterFuture<Integer> sum = client.submit("sum", args -> (Integer) args.get(0) + (Integer) args.get(1) + 1, x, y);
            assertThat(sum.get(30, TimeUnit.SECONDS)).isEqualTo(42);
            assertThat(c.membersUp()).isEqualTo(3);
            assertThat(c.refusedMembers()).isZero();
            assertThat(c.rejectedFrames()).isZero();
            assertThat(w0.coordinator()).isEqualTo(c.address());
            assertThat(w1.coordinator()).isEqualTo(c.address());
            // the counters and the steal log come from the coordinator as from a LocalCluster
            dev.spindle.cluster.ClusterStats stats = c.stats();
            assertThat(stats.workers()).extracting(dev.spindle.cluster.ClusterStats.WorkerStats::alive)
                    .containsExactly(true, true);
            assertThat(stats.workers().get(0).executed() + stats.workers().get(1).executed()).isEqualTo(3);
            assertThat(stats.tasksInMemory()).isEqualTo(3);
            assertThat(c.stealEvents()).isNotNull();
            // a null result is fetched by the other worker as null, not as "not held" (which made the
            // scheduler compute it again, over and over)
            ClusterFuture<Object> none = client.submit(dev.spindle.cluster.TaskSpec.builder("null-result", a -> null)
                    .restrictions(dev.spindle.cluster.Restrictions.strict(java.util.Set.of(0))).build());
            ClusterFuture<String> useNull = client.submit(dev.spindle.cluster.TaskSpec.builder("use-null",
                    a -> "got " + a.get(0)).dependsOn(none)
                    .restrictions(dev.spindle.cluster.Restrictions.strict(java.util.Set.of(1))).build());
            assertThat(useNull.get(30, TimeUnit.SECONDS)).isEqualTo("got null");

            // a task's exception arrives as text, whatever its class
            ClusterFuture<Integer> fails = client.submit("fails", args -> {
                throw new IllegalStateException("boom");
            });
            assertThatThrownBy(() -> fails.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(RemoteTaskException.class).hasMessageContaining("boom")
                    .matches(e -> ((RemoteTaskException) e).remoteClass().equals(IllegalStateException.class.getName()));
            // a function or a result outside the allow-list, or too large, fails its own task only
            File outside = new File("outside");
            ClusterFuture<String> refusedFunction = client.submit("refused-function", args -> outside.getName());
            assertThatThrownBy(() -> refusedFunction.get(30, TimeUnit.SECONDS)).cause()
                    .isInstanceOf(RemoteTaskException.class).hasMessageContaining("refused");
            ClusterFuture<File> refusedResult = client.submit("refused-result", args -> new File("x"));
            assertThatThrownBy(() -> refusedResult.get(30, TimeUnit.SECONDS)).cause()
                    .isInstanceOf(RemoteTaskException.class).hasMessageContaining("refused");
            ClusterFuture<byte[]> tooLarge = client.submit("too-large", args -> new byte[limit + 1]);
            assertThatThrownBy(() -> tooLarge.get(30, TimeUnit.SECONDS)).cause()
                    .isInstanceOf(RemoteTaskException.class).hasMessageContaining("over the value limit");
            // a task whose message cannot fit a frame (here: its key) fails instead of being dropped unsent
            String hugeKey = "k".repeat(limit + WireCodec.FRAME_SLACK + 1);
            ClusterFuture<Integer> unsendable = client.submit(hugeKey, args -> 1);
            assertThatThrownBy(() -> unsendable.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().hasMessageContaining("cannot be sent");
            assertThat(client.submit("still-fine", args -> 1).get(30, TimeUnit.SECONDS)).isEqualTo(1);
            assertThat(c.rejectedFrames()).isZero();
        }
    }
}
