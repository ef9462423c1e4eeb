/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import dev.spindle.cluster.ClusterFuture;
import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.Restrictions;
import dev.spindle.cluster.TaskSpec;
import dev.spindle.cluster.testkit.Cleanup;
import dev.spindle.cluster.testkit.FreePorts;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A member without the secret shuts down Spindle's fetch executor, cluster-wide, as any member
 * that joined may. A worker's fetch of another worker's value was then refused on the spot, again
 * and again: the scheduler took the value for gone, had its producer run again, and the fetch
 * failed again, tens of thousands of runs in a few seconds, the dependent's future waiting for
 * good; and the coordinator, whose handshakes go through that executor, could admit no worker any
 * more. Now a worker whose fetch is refused because its own fetch executor is shut down leaves the
 * cluster with an ERROR ({@link WorkerMain} exits with status 1 and the reason), and a coordinator that finds
 * its own executors shut down when it loses a worker closes: the future fails.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FetchExecutorShutDownByAMemberTest {

    private static final String SECRET = "fetch-shutdown-secret-0123456789";

    @RegisterExtension
    final Cleanup started = new Cleanup();

    @Test
    void aFetchRefusedByAShutDownExecutorEndsTheSessionInsteadOfLooping() throws Exception {
        int[] ports = FreePorts.free(4);
        String cluster = "spindle-fetch-shutdown-" + ports[0];
        started.add(HazelcastWorker.start(InProcessClusterTest.settings(cluster, SECRET, ports[1], ports).build(), 0, 1));
        // the fetching worker as WorkerMain runs it, on a thread of this JVM: its exit status and reason
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] args = {"--id", "1", "--threads", "1", "--cluster", cluster, "--port", Integer.toString(ports[2]),
                "--members", "127.0.0.1:" + ports[0] + ",127.0.0.1:" + ports[1] + ",127.0.0.1:" + ports[2]
                        + ",127.0.0.1:" + ports[3], "--failure-seconds", "8"};
        CompletableFuture<Integer> fetcher = CompletableFuture.supplyAsync(() -> WorkerMain.run(args,
                Map.of("SPINDLE_SECRET", SECRET), new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)));
        HazelcastCoordinator coordinator = started.add(HazelcastCoordinator.start(
                InProcessClusterTest.settings(cluster, SECRET, ports[0], ports).build(),
                CoordinatorSettings.builder().workers(2).threadsPerWorker(1)
                        .noWorkerTimeout(Duration.ofMinutes(10)).build(), Duration.ofSeconds(60)));

        HazelcastInstance intruder = Intruder.join(cluster, ports[3], ports, Map.of(), null);
        try {
            intruder.getExecutorService(HazelcastConfigs.FETCHES).shutdown();

            ClusterFuture<Integer> made = coordinator.client().submit(TaskSpec.<Integer>builder("made", in -> 1)
                    .restrictions(Restrictions.strict(Set.of(0))).build());
            ClusterFuture<Integer> used = coordinator.client().submit(TaskSpec.<Integer>builder("used",
                    in -> (Integer) in.get(0) + 1).dependsOn(made).restrictions(Restrictions.strict(Set.of(1))).build());

            assertThatThrownBy(() -> used.get(30, TimeUnit.SECONDS)).as("a task whose input can never be fetched")
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(IllegalStateException.class);
            assertThat(fetcher.get(30, TimeUnit.SECONDS)).as("the fetching worker's exit status")
                    .isEqualTo(WorkerMain.FAILED);
            assertThat(err.toString(StandardCharsets.UTF_8)).as("why it left")
                    .contains("worker 1 stopped: a Hazelcast executor of its member was shut down");
        } finally {
            intruder.shutdown();
            HazelcastInstance left = Hazelcast.getHazelcastInstanceByName("spindle-worker-1-" + ports[2]);
            if (left != null) {
                left.shutdown();              // a failed run may leave it up
            }
        }
    }
}
