/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.WorkerMemory;
import dev.spindle.cluster.testkit.FreePorts;
import dev.spindle.cluster.testkit.WorkerJvm;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link WorkerMain} as an operator meets it, in its own JVM: bad command lines get one line,
 * the usage and status 2; a worker that cannot take part (wrong secret, worker id taken, wrong
 * cluster name) says why and exits with status 1 instead of printing "ready" and idling.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class WorkerMainTest {

    private static final String SECRET = "worker-main-secret-0123456789";
    /**
     * The coordinator wait of the two workers refused when it ends, which each waits out: long
     * enough for a loaded machine to bring the refusal's reason (a verdict) within it.
     */
    private static final String REFUSED_WAIT_SECONDS = "15";
    /** The coordinator's, worker 0's, and one for each launched worker that may run beside another. */
    private static int[] ports;
    private static String cluster;
    private static HazelcastWorker worker0;
    private static HazelcastCoordinator coordinator;
    /**
     * The two workers refused only when their wait ends, launched together at the start so that
     * their waits overlap rather than follow each other (they hold ports of their own); each
     * test checks its own.
     */
    private static CompletableFuture<Result> wrongSecret;
    private static CompletableFuture<Result> idTaken;

    /**
     * A cluster of one worker (id 0) and its coordinator, which the launched workers try to join;
     * and the launches of the two workers that wait out their coordinator wait.
     */
    @BeforeAll
    static void start() throws Exception {
        ports = FreePorts.free(5);
        cluster = "spindle-main-" + ports[0];
        worker0 = HazelcastWorker.start(settings(ports[1]).build(), 0, 1);
        coordinator = HazelcastCoordinator.start(settings(ports[0]).build(),
                CoordinatorSettings.builder().workers(1).threadsPerWorker(1).build(), Duration.ofSeconds(60));
        List<String> wrong = worker(1, cluster, ports[2]);
        wrong.addAll(List.of("--coordinator-wait-seconds", REFUSED_WAIT_SECONDS));   // reported when the wait ends
        wrongSecret = runAside("the-wrong-secret-0123456789", wrong);
        // the holder lives: the claim waits for it to be lost, which it is not within the wait
        List<String> taken = worker(0, cluster, ports[3]);
        taken.addAll(List.of("--coordinator-wait-seconds", REFUSED_WAIT_SECONDS));
        idTaken = runAside(SECRET, taken);
    }

    private static HazelcastClusterSettings.Builder settings(int port) {
        return InProcessClusterTest.settings(cluster, SECRET, port, ports);
    }

    @AfterAll
    static void stop() throws Exception {
        // the launched workers end before the cluster they wait on does (each is bounded)
        for (CompletableFuture<Result> launched : new CompletableFuture[] {wrongSecret, idTaken}) {
            if (launched != null) {
                try {
                    launched.get(120, TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException checkedByItsTest) {
                    // its test reported it
                }
            }
        }
        if (coordinator != null) {
            coordinator.close();
        }
        if (worker0 != null) {
            worker0.close();
        }
    }

    @Test
    void helpPrintsTheUsageOnStdoutAndSucceeds() throws Exception {
        Result r = run(SECRET, "--help");
        assertThat(r.status).isZero();
        assertThat(r.out).contains("usage:").contains("--secret-file");
        assertThat(r.err).isEmpty();
    }

    @Test
    void aBadNumberSaysWhichOptionAndShowsTheUsage() throws Exception {
        assertUsageError(run(SECRET, "--id", "0", "--cluster", "c", "--port", "abc"),
                "WorkerMain: --port needs a whole number, got 'abc'");
    }

    @Test
    void aMissingSecretFileIsOneLineAndTheUsage() throws Exception {
        assertUsageError(run(null, "--id", "0", "--cluster", "c", "--secret-file", "/nonexistent/spindle-secret"),
                "WorkerMain: --secret-file /nonexistent/spindle-secret: no such file");
    }

    @Test
    void aPortInUseIsOneLineAndTheUsage() throws Exception {
        try (ServerSocket taken = new ServerSocket(FreePorts.free(1)[0], 1, InetAddress.getLoopbackAddress())) {
            Result r = run(SECRET, "--id", "0", "--cluster", "c", "--port", Integer.toString(taken.getLocalPort()));
            assertThat(r.status).isEqualTo(2);
            assertThat(firstLine(r.err)).startsWith("WorkerMain: cannot listen on 127.0.0.1:" + taken.getLocalPort());
            assertThat(r.err).contains("usage:").doesNotContain("\tat ");
        }
    }

    @Test
    void theMemoryOptionsReachTheWorkerAndABadLimitIsNamed(@TempDir Path dir) {
        Map<String, String> env = Map.of("SPINDLE_SECRET", SECRET);
        WorkerMain.Options o = WorkerMain.Options.parse(new String[] {"--id", "0", "--cluster", "c",
            "--memory-limit", "64m", "--spill-dir", dir.toString()}, env);
        assertThat(o.memory).isEqualTo(new WorkerMemory(64L << 20, dir));
        assertThat(WorkerMain.Options.parse(new String[] {"--id", "0", "--cluster", "c"}, env).memory)
                .isEqualTo(WorkerMemory.NONE);
        assertThatThrownBy(() -> WorkerMain.Options.parse(new String[] {"--id", "0",
            "--cluster", "c", "--memory-limit", "-5"}, env)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--memory-limit needs a size in bytes of at least 1, such as 512m or 2g, got '-5'");
        assertThat(WorkerMain.USAGE_TEXT).contains("--memory-limit").contains("--spill-dir");
    }

    @Test
    void anIdNoClusterCanHaveIsAUsageError() {
        // named at once, rather than by the coordinator's verdict once the member has joined
        assertThatThrownBy(() -> WorkerMain.Options.parse(new String[] {"--id", "4096", "--cluster", "c"},
                Map.of("SPINDLE_SECRET", SECRET))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--id must be below 4096 (the most workers a cluster may have), got 4096");
    }

    @Test
    void anUnknownOptionIsNamed() throws Exception {
        assertUsageError(run(SECRET, "--id", "0", "--cluster", "c", "--colour", "red"),
                "WorkerMain: unknown option --colour");
    }

    @Test
    void aWorkerWithTheWrongSecretExitsWithTheReason() throws Exception {
        Result r = wrongSecret.get(120, TimeUnit.SECONDS);   // launched by start()
        assertThat(r.status).as(r.toString()).isEqualTo(1);
        assertThat(r.out).doesNotContain("ready");
        assertThat(r.err).contains("worker 1 refused").contains("secret");
    }

    @Test
    void aWorkerWhoseIdIsTakenExitsWithTheReason() throws Exception {
        Result r = idTaken.get(120, TimeUnit.SECONDS);       // launched by start()
        assertThat(r.status).as(r.toString()).isEqualTo(1);
        assertThat(r.out).doesNotContain("ready");
        assertThat(r.err).contains("worker 0 refused").contains("worker id 0 is taken by")
                .contains("did not within " + REFUSED_WAIT_SECONDS + " s");
        assertThat(worker0.isRunning()).isTrue();
    }

    @Test
    void aWorkerWithAnotherClusterNameGivesUpAfterItsWait() throws Exception {
        List<String> args = worker(1, cluster + "-other", ports[4]);
        args.addAll(List.of("--coordinator-wait-seconds", "3"));
        Result r = run(SECRET, args.toArray(new String[0]));
        assertThat(r.status).as(r.toString()).isEqualTo(1);
        assertThat(r.out).doesNotContain("ready")
                .contains("spindle worker 1 started its member on 127.0.0.1:")
                .contains("waiting up to 3 s for the coordinator of cluster '" + cluster + "-other'");
        assertThat(r.err).contains("no coordinator of cluster '" + cluster + "-other' joined within 3 s");
    }

    private static List<String> worker(int id, String clusterName, int port) {
        StringBuilder members = new StringBuilder();
        for (int p : ports) {
            members.append(members.length() == 0 ? "" : ",").append("127.0.0.1:").append(p);
        }
        return new ArrayList<>(List.of("--id", Integer.toString(id), "--threads", "1", "--cluster", clusterName,
                "--port", Integer.toString(port), "--members", members.toString(), "--failure-seconds", "8"));
    }

    private static Result run(String secret, List<String> args) throws Exception {
        return run(secret, args.toArray(new String[0]));
    }

    /**
     * Starts WorkerMain in a JVM of its own, as an operator starts it, with {@code SPINDLE_SECRET}
     * set to {@code secret} unless null.
     */
    static WorkerJvm launch(String secret, List<String> args) throws Exception {
        Map<String, String> env = new HashMap<>();
        env.put("SPINDLE_SECRET", secret);              // null: removed
        return WorkerJvm.start(WorkerMain.class, List.of("@jvm.args", "-Xmx128m"), env, args);
    }

    /** {@link #run(String, String...)} on a thread of its own. */
    private static CompletableFuture<Result> runAside(String secret, List<String> args) {
        CompletableFuture<Result> result = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                result.complete(run(secret, args));
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        }, "worker-main-launch");
        t.setDaemon(true);
        t.start();
        return result;
    }

    /** Runs WorkerMain in a JVM of its own and waits (bounded) for it to exit. */
    private static Result run(String secret, String... args) throws Exception {
        try (WorkerJvm jvm = launch(secret, List.of(args))) {
            int status = jvm.awaitExit(90);
            return new Result(status, jvm.out(), jvm.err());
        }
    }

    /** Status 2, exactly {@code line} first, then the usage, and no stack trace. */
    private static void assertUsageError(Result r, String line) {
        assertThat(r.status).as(r.toString()).isEqualTo(2);
        assertThat(firstLine(r.err)).isEqualTo(line);
        assertThat(r.err).contains("usage:").doesNotContain("Exception").doesNotContain("\tat ");
    }

    private static String firstLine(String text) {
        return text.lines().findFirst().orElse("");
    }

    private record Result(int status, String out, String err) {
    }
}
