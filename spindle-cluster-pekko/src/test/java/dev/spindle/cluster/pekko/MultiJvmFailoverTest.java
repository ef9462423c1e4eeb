/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

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
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Three worker members in their own JVMs and a coordinator in this one, all over mutual TLS, run
 * a tree reduction; one worker JVM, the first to have delivered results, is killed with
 * {@code kill -9} mid-run. The coordinator must see it unreachable, down it, reassign its running
 * tasks and recompute the results it held, and every task must still end with the right value.
 *
 * <p>What "exactly once" means here. Every execution of a task body is logged, under the task's
 * key, with an id unique to that execution (process id and a counter), and returns its value
 * tagged with that id. A task runs again only because its worker was lost (while running it, or
 * holding its result when a dependent still needed it); the scheduler never runs one attempt
 * twice, and stealing moves only tasks that have not started. So the test checks, for every key:
 * the value the client got was computed by an execution logged exactly once; no worker JVM ran
 * the key twice; and a key ran more than once only if one of its runs was on the killed worker.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class MultiJvmFailoverTest {

    private static final int LEAVES = 64;
    private static final int WORKERS = 3;
    private static final int UNGATED = 12;
    private static final AtomicLong EXECUTIONS = new AtomicLong();

    /** A value and the execution that computed it. */
    record Tagged(long value, String execution) implements Serializable {
    }

    private final Cleanup started = new Cleanup();
    private final List<WorkerJvm> workers = new ArrayList<>();

    @AfterEach
    void stopEverything() throws Exception {
        started.close();
    }

    /** Runs once per execution, in a worker JVM: logs the execution under its key and tags the value. */
    static Tagged execute(String key, long value, String logDir) {
        String execution = ProcessHandle.current().pid() + "-" + EXECUTIONS.incrementAndGet();
        try {
            // one small O_APPEND write per line: lines from several JVMs never interleave
            Files.writeString(Path.of(logDir, key), execution + "\n", StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Tagged(value, execution);
    }

    @Test
    void aTreeReductionSurvivesTheKillOfAWorkerJvm() throws Exception {
        int port = FreePorts.free();
        String cluster = "spindle-it-" + port;
        Path logs = Files.createDirectories(Path.of("target", "worker-logs").toAbsolutePath());
        Path executions = Files.createDirectories(logs.resolve("executions-" + port));
        String logDir = executions.toString();
        long start = System.nanoTime();
        // the coordinator starts the cluster while the worker JVMs start up
        CompletableFuture<PekkoCoordinator> starting = CompletableFuture.supplyAsync(() -> {
            try {
                return PekkoCoordinator.start(TestCerts.settings(cluster, "coordinator").port(port).build(),
                        CoordinatorSettings.builder().workers(WORKERS).threadsPerWorker(2).build(), Duration.ofSeconds(90));
            } catch (TimeoutException | InterruptedException e) {
                throw new CompletionException(e);
            }
        });
        for (int i = 0; i < WORKERS; i++) {
            workers.add(started.add(startWorker(i, cluster, port, logs.resolve("pekko-worker-" + i + ".log").toFile())));
        }
        PekkoCoordinator coordinator = started.add(starting.get(100, TimeUnit.SECONDS));
        long joined = System.nanoTime();
        Client client = coordinator.client();

        // leaves past the first few wait for the gate file, which appears only after the kill:
        // the kill then comes mid-run however slow the machine
        Path gateFile = logs.resolve("gate-" + port);
        Files.deleteIfExists(gateFile);
        String gate = gateFile.toString();
        List<String> keys = new ArrayList<>();
        List<ClusterFuture<Tagged>> all = new ArrayList<>();
        List<Long> expected = new ArrayList<>();
        List<ClusterFuture<Tagged>> level = new ArrayList<>();
        List<Long> expectedLevel = new ArrayList<>();
        for (int i = 0; i < LEAVES; i++) {
            String key = "leaf-" + i;
            long value = i;
            TaskFunction<Tagged> leaf = args -> {
                Thread.sleep(20);
                if (value >= UNGATED) {
                    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
                    while (!Files.exists(Path.of(gate)) && System.nanoTime() < until) {
                        Thread.sleep(5);
                    }
                }
                return execute(key, value, logDir);
            };
            level.add(client.submit(key, leaf));
            expectedLevel.add(value);
            keys.add(key);
        }
        all.addAll(level);
        expected.addAll(expectedLevel);
        for (int round = 0; level.size() > 1; round++) {
            List<ClusterFuture<Tagged>> next = new ArrayList<>();
            List<Long> nextExpected = new ArrayList<>();
            for (int i = 0; i + 1 < level.size(); i += 2) {
                String key = "sum" + round + "-" + i;
                next.add(client.submit(key, args -> execute(key,
                        ((Tagged) args.get(0)).value() + ((Tagged) args.get(1)).value(), logDir), level.get(i), level.get(i + 1)));
                nextExpected.add(expectedLevel.get(i) + expectedLevel.get(i + 1));
                keys.add(key);
            }
            all.addAll(next);
            expected.addAll(nextExpected);
            level = next;
            expectedLevel = nextExpected;
        }

        // kill the first worker to have delivered results (which one gets the ungated leaves is
        // up to the scheduler), while most of the graph is still to run
        int victim = MembershipScenario.awaitResultsFrom(coordinator::finishedOn, WORKERS, 2, Duration.ofSeconds(60));
        long doneAtKill = all.stream().filter(f -> f.toCompletableFuture().isDone()).count();
        long killedPid = workers.get(victim).pid();
        long killed = System.nanoTime();
        workers.get(victim).kill();                            // SIGKILL: no goodbye to the cluster
        Files.createFile(gateFile);

        Tagged root = level.get(0).get(100, TimeUnit.SECONDS);
        long done = System.nanoTime();
        assertThat(root.value()).isEqualTo((long) LEAVES * (LEAVES - 1) / 2);
        assertThat(doneAtKill).as("the kill came mid-run").isLessThan(all.size());
        assertThat(coordinator.isLost(victim)).as("worker " + victim + " was declared lost").isTrue();
        assertThat(coordinator.rejectedFrames()).isZero();
        assertThat(coordinator.refusedMembers()).isZero();

        int recomputed = 0;
        for (int i = 0; i < all.size(); i++) {
            String key = keys.get(i);
            Tagged t = all.get(i).get(30, TimeUnit.SECONDS);
            assertThat(t.value()).as(key).isEqualTo(expected.get(i));
            List<String> runs = Files.readAllLines(executions.resolve(key));
            assertThat(runs).as("executions of " + key).doesNotHaveDuplicates();
            assertThat(runs).as("the execution that computed " + key + " ran once").containsOnlyOnce(t.execution());
            List<String> pids = runs.stream().map(r -> r.substring(0, r.indexOf('-'))).toList();
            assertThat(pids).as("no worker JVM ran " + key + " twice").doesNotHaveDuplicates();
            if (runs.size() > 1) {
                assertThat(pids).as(key + " ran again only because its worker was killed")
                        .hasSize(2).contains(Long.toString(killedPid));
                recomputed++;
            }
        }
        System.out.printf("tasks %d, done at kill %d, killed worker %d, recomputed after the kill %d, "
                + "results by worker: %d %d %d; "
                + "s to join %.1f, to the kill %.1f, to the root %.1f%n", all.size(), doneAtKill, victim, recomputed,
                coordinator.finishedOn(0), coordinator.finishedOn(1), coordinator.finishedOn(2), (joined - start) / 1e9,
                (killed - joined) / 1e9, (done - killed) / 1e9);
    }

    private WorkerJvm startWorker(int id, String cluster, int coordinatorPort, File log) throws Exception {
        DevCertificates certs = TestCerts.get();
        return WorkerJvm.startLogged(WorkerMain.class, List.of("-Xmx160m", "-Xss1m"),
                Map.of("SPINDLE_STORE_PASSWORD", TestCerts.PASSWORD), List.of("--id", Integer.toString(id), "--threads",
                        "2", "--cluster", cluster, "--key-store", certs.memberStore("worker").toString(),
                        "--trust-store", certs.trustStore().toString(), "--seed", "127.0.0.1:" + coordinatorPort,
                        "--failure-seconds", "3"), log);
    }
}
