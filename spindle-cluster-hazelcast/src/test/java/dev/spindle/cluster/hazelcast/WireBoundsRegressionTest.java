/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.cluster.ClusterFuture;
import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.Graph;
import dev.spindle.cluster.MessageCodec;
import dev.spindle.cluster.testkit.Cleanup;
import dev.spindle.cluster.testkit.FreePorts;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a member sends must be what its receiver reads. A task whose key is longer than the wire's
 * bound on keys ({@link MessageCodec#MAX_NAME_BYTES}) was written into the frame of its batch, and
 * a failure message of three-byte characters was cut to a length over the bound on error messages;
 * the receiver refused each such frame whole as malformed, so the task, and every other task whose
 * message shared its frame, never ended: their futures waited for ever.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WireBoundsRegressionTest {

    private static final String SECRET = "wire-bounds-secret-0123456789";
    private static final Cleanup started = new Cleanup();
    private static HazelcastCoordinator coordinator;
    /** Makes each test's keys its own on the shared cluster. */
    private static final AtomicInteger RUN = new AtomicInteger();

    @BeforeAll
    static void start() throws Exception {
        int[] ports = FreePorts.free(2);
        String cluster = "spindle-wire-bounds-" + ports[0];
        try {
            started.add(HazelcastWorker.start(InProcessClusterTest.settings(cluster, SECRET, ports[1], ports).build(),
                    0, 2));
            coordinator = started.add(HazelcastCoordinator.start(
                    InProcessClusterTest.settings(cluster, SECRET, ports[0], ports).build(),
                    CoordinatorSettings.builder().workers(1).threadsPerWorker(2).retries(0).build(),
                    Duration.ofSeconds(60)));
        } catch (Exception | Error e) {
            started.close();
            throw e;
        }
    }

    @AfterAll
    static void stop() throws Exception {
        started.close();
    }

    @Test
    void aKeyOverTheWireBoundFailsItsTaskAndTheRestOfItsBatchRuns() throws Exception {
        int run = RUN.incrementAndGet();
        String longKey = "long" + run + "-" + "k".repeat(MessageCodec.MAX_NAME_BYTES);
        // one graph: placed in one scheduler event, sent to the one worker as one frame
        Map<String, ClusterFuture<?>> futures = coordinator.client().submit(Graph.builder()
                .task("short-" + run + "-0", args -> 1)
                .task(longKey, args -> 2)
                .task("short-" + run + "-1", args -> 3)
                .build());

        assertThat(futures.get("short-" + run + "-0").get(30, TimeUnit.SECONDS)).as("a task batched with it")
                .isEqualTo(1);
        assertThat(futures.get("short-" + run + "-1").get(30, TimeUnit.SECONDS)).as("a task batched with it")
                .isEqualTo(3);
        assertThatThrownBy(() -> futures.get(longKey).get(30, TimeUnit.SECONDS))
                .as("the task whose key cannot travel fails, and says why")
                .isInstanceOf(ExecutionException.class)
                .hasMessageContaining("bytes encoded, over the wire's bound of " + MessageCodec.MAX_NAME_BYTES);
    }

    @Test
    void aTaskFailingWithALongMessageOfThreeByteCharactersFails() {
        ClusterFuture<Object> failing = coordinator.client().submit("cjk-message-" + RUN.incrementAndGet(), args -> {
            throw new IllegalStateException("\u932f".repeat(MessageCodec.MAX_TEXT_BYTES));
        });

        assertThatThrownBy(() -> failing.get(30, TimeUnit.SECONDS))
                .as("its failure reaches the coordinator, cut")
                .isInstanceOf(ExecutionException.class)
                .hasMessageContaining("IllegalStateException")
                .hasMessageEndingWith("...");
    }

    @Test
    void aTaskFailingWithAStackTraceElementOverTheWireBoundFails() {
        ClusterFuture<Object> failing = coordinator.client().submit("long-trace-" + RUN.incrementAndGet(), args -> {
            IllegalStateException e = new IllegalStateException("boom");
            e.setStackTrace(new StackTraceElement[] {
                new StackTraceElement("C".repeat(MessageCodec.MAX_NAME_BYTES + 1), "m", "F.java", 1)});
            throw e;
        });

        assertThatThrownBy(() -> failing.get(30, TimeUnit.SECONDS))
                .as("its failure reaches the coordinator, without the trace that cannot travel")
                .isInstanceOf(ExecutionException.class)
                .hasMessageContaining("IllegalStateException");
    }
}
