/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.testkit.FreePorts;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker that joins after the start is admitted once every worker answers a probe; if the
 * probes fail for the whole join timeout, the coordinator gives the join up. It did so silently:
 * the joiner stayed proven, printed "ready" and idled for good, never admitted, and a process
 * restarted under its id waited for ever, since the id's holder was never lost. Now the given-up
 * joiner is cut off as a lost worker is: its id is free again, and it is told, so its
 * {@link WorkerMain} exits with status 1.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class LateJoinGivenUpTest {

    /**
     * The coordinator's join timeout: the longest wait for the first worker at the start, and for
     * the restarted worker's probes at the end; generous, since a loaded machine may be slow to
     * start a member, and never waited out.
     */
    private static final Duration JOIN_TIMEOUT = Duration.ofSeconds(60);

    /**
     * How long the late joiner's probes fail before its join is given up, which the test waits
     * out ({@link HazelcastCoordinator#lateJoinTimeoutForTests}). Its probes never succeed; all
     * that must come first is the joiner's "ready", printed as soon as the verdict that proved it
     * arrives, which the worker answers before this wait starts.
     */
    private static final Duration GIVEN_UP_AFTER = Duration.ofSeconds(5);

    private static final String SECRET = "late-join-given-up-secret-012345";

    @Test
    void aLateJoinerWhoseProbesFailForTheJoinTimeoutIsCutOffAndItsIdFreed() throws Exception {
        int[] ports = FreePorts.free(4);
        String cluster = "spindle-late-given-up-" + ports[0];
        CompletableFuture<Integer> first = null;
        CompletableFuture<Integer> second = null;
        try {
            first = worker(0, ports[1], cluster, ports, new ByteArrayOutputStream(), new ByteArrayOutputStream());
            try (HazelcastCoordinator coordinator = HazelcastCoordinator.start(
                    InProcessClusterTest.settings(cluster, SECRET, ports[0], ports).build(),
                    CoordinatorSettings.builder().workers(1).threadsPerWorker(1).build(), JOIN_TIMEOUT)) {
                HazelcastCoordinator.answersProbeForTests = id -> id != 1;   // worker 1 never answers
                HazelcastCoordinator.lateJoinTimeoutForTests = GIVEN_UP_AFTER;
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                ByteArrayOutputStream err = new ByteArrayOutputStream();
                CompletableFuture<Integer> late = worker(1, ports[2], cluster, ports, out, err);
                second = late;

                assertThat(late.get(120, TimeUnit.SECONDS)).as("the given-up joiner's exit status")
                        .isEqualTo(WorkerMain.FAILED);
                assertThat(out.toString(StandardCharsets.UTF_8)).contains("spindle worker 1 ready");
                assertThat(err.toString(StandardCharsets.UTF_8)).contains("worker 1 stopped: the coordinator cut it off");
                assertThat(coordinator.isLost(1)).as("the given-up joiner's id, at the coordinator").isTrue();

                // a process restarted under the id is admitted now: the id is free
                HazelcastCoordinator.answersProbeForTests = id -> true;
                HazelcastCoordinator.lateJoinTimeoutForTests = null;        // its admission has the join timeout
                second = worker(1, ports[3], cluster, ports, new ByteArrayOutputStream(), new ByteArrayOutputStream());
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
                while (coordinator.stats().workers().size() < 2 && System.nanoTime() - deadline < 0) {
                    Thread.sleep(50);
                }
                assertThat(coordinator.stats().workers()).as("the workers the scheduler admitted").hasSize(2);
                assertThat(coordinator.stats().workers().get(1).alive()).as("the restarted worker 1").isTrue();
            }
        } finally {
            HazelcastCoordinator.answersProbeForTests = id -> true;
            HazelcastCoordinator.lateJoinTimeoutForTests = null;
            for (int i = 1; i < ports.length; i++) {
                for (int id = 0; id < 2; id++) {
                    HazelcastInstance left = Hazelcast.getHazelcastInstanceByName("spindle-worker-" + id + "-" + ports[i]);
                    if (left != null) {
                        left.shutdown();
                    }
                }
            }
            for (CompletableFuture<Integer> w : new CompletableFuture[] {first, second}) {
                if (w != null) {
                    w.get(60, TimeUnit.SECONDS);
                }
            }
        }
    }

    private static CompletableFuture<Integer> worker(int id, int port, String cluster, int[] ports,
                                                     ByteArrayOutputStream out, ByteArrayOutputStream err) {
        StringBuilder members = new StringBuilder();
        for (int p : ports) {
            members.append(members.length() == 0 ? "" : ",").append("127.0.0.1:").append(p);
        }
        String[] args = {"--id", Integer.toString(id), "--threads", "1", "--cluster", cluster,
                "--port", Integer.toString(port), "--members", members.toString()};
        return CompletableFuture.supplyAsync(() -> WorkerMain.run(args, Map.of("SPINDLE_SECRET", SECRET),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8)), r -> {
                    Thread t = new Thread(r, "worker-main-" + id + "-" + port);   // not the common pool: it may have one thread
                    t.setDaemon(true);
                    t.start();
                });
    }
}
