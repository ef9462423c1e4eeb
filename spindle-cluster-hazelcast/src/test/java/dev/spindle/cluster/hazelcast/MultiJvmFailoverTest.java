/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.Client;
import dev.spindle.cluster.ClusterFuture;
import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.TaskFunction;
import dev.spindle.cluster.testkit.Cleanup;
import dev.spindle.cluster.testkit.FreePorts;
import dev.spindle.cluster.testkit.MembershipScenario;
import dev.spindle.cluster.testkit.WorkerJvm;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Three worker members in their own JVMs and a coordinator in this one run a tree reduction;
 * one worker JVM is killed mid-run, the first to have delivered results. The scheduler must reassign
 * its running tasks and recompute the results it held, and every task must still end with the
 * right value. Every execution is logged per worker JVM: each task ran at least once, and at most
 * once on the surviving workers (only the killed worker's work may run again).
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class MultiJvmFailoverTest {

    private static final String SECRET = "multi-jvm-secret-0123456789";
    private static final int LEAVES = 192;
    private static final int WORKERS = 3;
    private static final int UNGATED = 45;

    private final Cleanup started = new Cleanup();
    private final List<WorkerJvm> workers = new ArrayList<>();

    @AfterEach
    void stopEverything() throws Exception {
        started.close();
    }

    @Test
    void aTreeReductionSurvivesTheLossOfAWorkerJvm() throws Exception {
        int[] ports = FreePorts.free(WORKERS + 1);
        String cluster = "spindle-it-" + ports[0];
        Path logs = Files.createDirectories(Path.of("target", "worker-logs"));
        for (int i = 0; i < WORKERS; i++) {
            workers.add(started.add(startWorker(i, cluster, ports, logs.resolve("worker-" + i + ".log").toFile())));
        }
        HazelcastClusterSettings.Builder settings = InProcessClusterTest.settings(cluster, SECRET, ports[0], ports);
        HazelcastCoordinator coordinator = started.add(HazelcastCoordinator.start(settings.build(),
                CoordinatorSettings.builder().workers(WORKERS).threadsPerWorker(2).build(), Duration.ofSeconds(90)));
        Client client = coordinator.client();

        List<ClusterFuture<Integer>> level = new ArrayList<>();
        List<ClusterFuture<Integer>> all = new ArrayList<>();
        List<Integer> expected = new ArrayList<>();
        // leaves past the first few wait for the gate file, which appears only after the kill:
        // the kill then comes mid-run however slow the machine
        Path gateFile = logs.resolve("gate-" + ports[0]).toAbsolutePath();
        Files.deleteIfExists(gateFile);
        String gate = gateFile.toString();
        Path ranDir = Files.createDirectories(logs.resolve("ran-" + ports[0]));
        String ran = ranDir.toAbsolutePath().toString();
        for (int i = 0; i < LEAVES; i++) {
            int value = i;
            String key = "leaf-" + i;
            TaskFunction<Integer> leaf = args -> {
                MembershipScenario.ran(ran, key);
                Thread.sleep(20);
                if (value >= UNGATED) {
                    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
                    while (!Files.exists(Path.of(gate)) && System.nanoTime() < until) {
                        Thread.sleep(5);
                    }
                }
                return value;
            };
            level.add(client.submit(key, leaf));
            expected.add(i);
        }
        all.addAll(level);
        List<Integer> expectedLevel = new ArrayList<>(expected);
        int round = 0;
        while (level.size() > 1) {
            List<ClusterFuture<Integer>> next = new ArrayList<>();
            List<Integer> nextExpected = new ArrayList<>();
            for (int i = 0; i < level.size(); i += 2) {
                if (i + 1 == level.size()) {
                    next.add(level.get(i));
                    nextExpected.add(expectedLevel.get(i));
                    continue;
                }
                String key = "sum" + round + "-" + i;
                next.add(client.submit(key, args -> {
                    MembershipScenario.ran(ran, key);
                    return (Integer) args.get(0) + (Integer) args.get(1);
                }, level.get(i), level.get(i + 1)));
                nextExpected.add(expectedLevel.get(i) + expectedLevel.get(i + 1));
            }
            all.addAll(next.subList(0, next.size()));
            expected.addAll(nextExpected);
            level = next;
            expectedLevel = nextExpected;
            round++;
        }

        // kill the first worker to have delivered results (which one gets the ungated leaves is
        // up to the scheduler), while most of the graph is still to run
        int victim = MembershipScenario.awaitResultsFrom(coordinator::finishedOn, WORKERS, 2, Duration.ofSeconds(60));
        long doneAtKill = all.stream().filter(f -> f.toCompletableFuture().isDone()).count();
        workers.get(victim).kill();
        Files.createFile(gateFile);

        ClusterFuture<Integer> root = level.get(0);
        try {
            assertThat(root.get(100, TimeUnit.SECONDS)).isEqualTo(LEAVES * (LEAVES - 1) / 2);
        } catch (java.util.concurrent.TimeoutException e) {
            List<String> pending = new ArrayList<>();
            for (ClusterFuture<Integer> f : all) {
                if (!f.toCompletableFuture().isDone()) {
                    pending.add(f.toString());
                }
            }
            throw new AssertionError("no result; lost " + coordinator.isLost(0) + " " + coordinator.isLost(1) + " "
                    + coordinator.isLost(2) + ", reported " + coordinator.finishedOn(0) + " " + coordinator.finishedOn(1)
                    + " " + coordinator.finishedOn(2) + ", pending " + pending.size() + ": "
                    + pending.subList(0, Math.min(10, pending.size())), e);
        }
        assertThat(doneAtKill).as("the kill came mid-run").isLessThan(all.size());
        for (int i = 0; i < all.size(); i++) {
            assertThat(all.get(i).get(60, TimeUnit.SECONDS)).as(all.get(i).toString()).isEqualTo(expected.get(i));
        }
        long reported = coordinator.finishedOn(0) + coordinator.finishedOn(1) + coordinator.finishedOn(2);
        assertThat(reported).as("every task reported at least once").isGreaterThanOrEqualTo(all.size() - 1L);
        assertThat(coordinator.isLost(victim)).as("worker " + victim + " was declared lost").isTrue();
        MembershipScenario.assertRanOnceOutside(ranDir, all, workers.get(victim).pid());
        System.out.printf("tasks %d, done at kill %d, killed worker %d, results reported %d (by worker: %d %d %d)%n",
                all.size(), doneAtKill, victim, reported, coordinator.finishedOn(0), coordinator.finishedOn(1), coordinator.finishedOn(2));
    }

    private WorkerJvm startWorker(int id, String cluster, int[] ports, File log) throws Exception {
        StringBuilder members = new StringBuilder();
        for (int p : ports) {
            members.append(members.length() == 0 ? "" : ",").append("127.0.0.1:").append(p);
        }
        // jvm.args (in the module directory, the tests' working directory) as the README shows it
        return WorkerJvm.startLogged(WorkerMain.class, List.of("@jvm.args", "-Xmx192m", "-Dhazelcast.logging.type=jdk"),
                Map.of("SPINDLE_SECRET", SECRET), List.of("--id", Integer.toString(id), "--threads", "2", "--cluster",
                        cluster, "--port", Integer.toString(ports[id + 1]), "--members", members.toString(),
                        "--failure-seconds", "8"), log);
    }
}
