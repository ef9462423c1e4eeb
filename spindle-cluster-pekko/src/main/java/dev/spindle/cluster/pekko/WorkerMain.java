/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import dev.spindle.cluster.TransportSettings;
import dev.spindle.cluster.WorkerCommandLine;
import dev.spindle.cluster.WorkerMemory;
import java.net.BindException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * Runs one worker member until the JVM is stopped or the member leaves the cluster.
 *
 * <pre>
 * SPINDLE_STORE_PASSWORD=... java -cp ... dev.spindle.cluster.pekko.WorkerMain \
 *     --id 0 --threads 2 --cluster jobs --key-store certs/worker-0.p12 --trust-store certs/truststore.p12 \
 *     --seed 127.0.0.1:25520 [--bind 127.0.0.1] [--port 0] [--allow com.example,org.acme] \
 *     [--failure-seconds 5] [--max-message-bytes 262144] [--password-file path] \
 *     [--memory-limit 512m] [--spill-dir path]
 * </pre>
 *
 * <p>The store password comes from the environment variable {@code SPINDLE_STORE_PASSWORD} or a
 * file, never from the command line, where other users of the machine could read it. Prints
 * {@code spindle worker <id> started on <host:port>; joining cluster '<name>' through <seeds>}
 * once its member is up, and {@code spindle worker <id> joined <host:port>} once it is a member
 * (a worker whose seeds never answer keeps trying, and says no more). With
 * {@code -Dspindle.exitWithParent=true} the worker exits when the process that started it does.
 * Exits with status 2 on bad arguments (a one-line reason and the usage on stderr), including an
 * unreadable password file, a {@code --bind} address that does not resolve, a {@code --port}
 * that is taken (before the member starts, or by the time it binds), and a store that does not
 * open with the store password (or a key store without a key); 1 when the member cannot start for
 * another reason (with the stack trace), and when it leaves the cluster (downed, its coordinator saw it as
 * lost, or it is refused for a message limit other than the coordinator's, which it says at once
 * as {@code spindle worker <id> refused: <why>}), 0 after {@code --help} and when the coordinator retired it (it prints
 * {@code spindle worker <id> retired: ...} and leaves once its data has moved).
 */
public final class WorkerMain {

    static final String USAGE = "usage: WorkerMain --id N --cluster NAME --key-store FILE --trust-store FILE "
            + "--seed HOST:PORT [--threads N] [--bind ADDRESS] [--port N] [--allow PKG,...] [--failure-seconds N] "
            + "[--max-message-bytes N] [--password-file FILE] [--memory-limit BYTES] [--spill-dir DIR] [--help]  "
            + "(password from SPINDLE_STORE_PASSWORD or --password-file, a file its owner's alone; --memory-limit: spill "
            + "values to disk above 60 % of it in memory, start no task above 80 %, suffix k, m or g)";

    /** Run just before the worker's member starts, after the checks; tests take the port there. */
    static volatile Runnable beforeStartForTests = () -> { };

    private WorkerMain() {
    }

    private static final Set<String> OPTIONS = WorkerCommandLine.withMemoryOptions("--id", "--threads", "--cluster", "--key-store",
            "--trust-store", "--seed", "--bind", "--port", "--allow", "--failure-seconds", "--max-message-bytes",
            "--password-file");

    /**
     * Entry point; exits with status 2 on bad arguments, 0 after {@code --help}.
     *
     * @param args the options described in the class comment ({@code --help} lists them)
     */
    public static void main(String[] args) {
        Launch launch;
        try {
            launch = start(args, System.getenv());
        } catch (IllegalArgumentException | NullPointerException e) {
            System.exit(WorkerCommandLine.usageError(System.err, e.getMessage(), USAGE));
            return;
        }
        if (launch == null) {
            System.out.println(USAGE);
            System.exit(WorkerCommandLine.OK);
            return;
        }
        PekkoWorker worker = launch.worker();
        Runtime.getRuntime().addShutdownHook(new Thread(worker::close, "spindle-worker-shutdown"));
        WorkerCommandLine.exitWithParentIfAsked();
        // Said before the join, which lasts until a seed answers (retried without end), so that
        // whoever started this JVM sees it is up and what it waits for.
        System.out.println("spindle worker " + worker.id() + " started on " + worker.address() + "; joining cluster '"
                + launch.settings().clusterName() + "' through " + String.join(", ", launch.settings().seedNodes()));
        System.out.flush();
        worker.joined().thenRun(() -> {
            System.out.println("spindle worker " + worker.id() + " joined " + worker.address());
            System.out.flush();
        });
        worker.terminated().toCompletableFuture().join();
        if (worker.retired()) {
            System.out.println("spindle worker " + worker.id() + " retired: the coordinator moved its data to other "
                    + "workers; it left the cluster");
            System.out.flush();
            System.exit(WorkerCommandLine.OK);
            return;
        }
        String refusal = worker.refusal();
        if (refusal != null) {
            System.err.println("spindle worker " + worker.id() + " refused: " + refusal + "; it left the cluster");
        } else if (worker.coordinatorLost()) {
            System.err.println("spindle worker " + worker.id() + " stopped: its coordinator left the cluster (it closed, "
                    + "or it was lost or downed); a worker serves one coordinator");
        } else {
            System.err.println("spindle worker " + worker.id() + " left the cluster; exiting");
        }
        System.exit(WorkerCommandLine.FAILED);
    }

    /** A started worker and the settings it was started with. */
    record Launch(PekkoWorker worker, PekkoClusterSettings settings) {
    }

    /**
     * Starts the worker the command line describes; {@code null} for {@code --help}.
     *
     * @throws IllegalArgumentException with a one-line reason for anything wrong with the command
     *     line, a port taken by the time the member binds included
     * @throws IllegalStateException if the member could not start for another reason, the cause
     */
    static Launch start(String[] args, Map<String, String> env) {
        WorkerCommandLine line = WorkerCommandLine.parse(args, OPTIONS);
        if (line.help()) {
            return null;
        }
        int id = line.workerId();
        int threads = line.threads();
        int port = line.port(0, 0);
        // the settings' range, checked here so that the error names the option
        int failureSeconds = line.number("--failure-seconds", TransportSettings.DEFAULT_FAILURE_SECONDS,
                TransportSettings.MIN_FAILURE_SECONDS, PekkoClusterSettings.MAX_FAILURE_SECONDS);
        int maxMessageBytes = line.number("--max-message-bytes", -1, 1);  // the builder checks the range
        line.require("--id", "--cluster", "--key-store", "--trust-store", "--seed");
        WorkerMemory memory = line.memory();
        String password = line.secret("--password-file", env, "SPINDLE_STORE_PASSWORD", "store password");
        Path keyStore = line.file("--key-store");
        Path trustStore = line.file("--trust-store");
        PekkoClusterSettings.Builder b = WorkerCommandLine.asOption("--cluster", "clusterName ",
                () -> PekkoClusterSettings.builder(line.text("--cluster", null), keyStore, trustStore, password))
                .port(port).failureSeconds(failureSeconds);
        WorkerCommandLine.asOption("--bind", () -> b.bindAddress(line.text("--bind", TransportSettings.DEFAULT_BIND_ADDRESS)));
        if (maxMessageBytes != -1) {
            WorkerCommandLine.asOption("--max-message-bytes", () -> b.maxMessageBytes(maxMessageBytes));
        }
        WorkerCommandLine.asOption("--seed", () -> line.list("--seed").forEach(b::seedNode));
        WorkerCommandLine.asOption("--allow", () -> line.list("--allow").forEach(b::allowPackage));
        PekkoClusterSettings settings = b.build();
        String listenProblem = WorkerCommandLine.listenProblem(settings.bindAddress(), settings.port());
        if (listenProblem != null) {
            throw new IllegalArgumentException(listenProblem);
        }
        String keyStoreProblem = StoreFiles.openProblem(settings.checkedKeyStore(), password, true);
        if (keyStoreProblem != null) {
            throw new IllegalArgumentException("--key-store " + line.text("--key-store", null) + ": " + keyStoreProblem);
        }
        String trustStoreProblem = StoreFiles.openProblem(settings.checkedTrustStore(), password, false);
        if (trustStoreProblem != null) {
            throw new IllegalArgumentException("--trust-store " + line.text("--trust-store", null) + ": "
                    + trustStoreProblem);
        }
        beforeStartForTests.run();
        try {
            return new Launch(PekkoWorker.start(settings, id, threads, memory), settings);
        } catch (RuntimeException e) {
            // the port taken since the check (another process starting at the same moment): the
            // check's usage error, not Pekko's RemoteTransportException and its stack trace;
            // anything else is a failure of the start, shown with its stack trace: wrapped, so
            // that main does not take an IllegalArgumentException or NullPointerException of the
            // start's for a bad command line (one line and the usage, the stack trace lost)
            BindException bind = WorkerCommandLine.bindFailure(e);
            if (bind == null) {
                throw new IllegalStateException("worker " + id + " could not start its member", e);
            }
            throw new IllegalArgumentException(WorkerCommandLine.cannotListen(settings.bindAddress(), settings.port(),
                    bind), e);
        }
    }
}
