/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import dev.spindle.cluster.TransportSettings;
import dev.spindle.cluster.WorkerCommandLine;
import dev.spindle.cluster.WorkerMemory;
import java.io.ObjectInputFilter;
import java.io.PrintStream;
import java.net.BindException;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs one worker member until the JVM is stopped, its coordinator leaves, or its coordinator
 * retires it or cuts it off.
 *
 * <pre>
 * SPINDLE_SECRET=... java -cp ... dev.spindle.cluster.hazelcast.WorkerMain \
 *     --id 0 --threads 2 --cluster jobs --port 5702 \
 *     --members 127.0.0.1:5701,127.0.0.1:5702 [--bind 127.0.0.1] [--allow com.example,org.acme] \
 *     [--failure-seconds 5] [--coordinator-wait-seconds 60] [--secret-file path] \
 *     [--memory-limit 512m] [--spill-dir path]
 * </pre>
 *
 * <p>With {@code -Dspindle.exitWithParent=true} the worker exits when the process that started it
 * does. The secret comes from the environment variable {@code SPINDLE_SECRET} or a file, never from
 * the command line, where other users of the machine could read it. Prints
 * {@code spindle worker <id> ready} once a coordinator that proves the secret is known.
 *
 * <p>Exit status: 0 after {@code --help}, and when the coordinator retired the worker (it prints
 * {@code spindle worker <id> retired: ...} and leaves once its data has moved); 2 for a bad command line (a one-line reason and the
 * usage on stderr), including an unreadable secret file, a --bind address that does not resolve and a port
 * that is taken (before the member starts, or by the time it binds); 1 when the
 * worker cannot take part or stops (refused by the coordinator, no coordinator in time, its
 * coordinator left the cluster, the coordinator cut it off, it could not send its reports to the
 * coordinator, or its member
 * shut down from elsewhere), with the reason on
 * stderr.
 */
public final class WorkerMain {

    static final int OK = WorkerCommandLine.OK;
    static final int FAILED = WorkerCommandLine.FAILED;
    static final int USAGE = WorkerCommandLine.USAGE;

    private static final Set<String> OPTIONS = WorkerCommandLine.withMemoryOptions("--id", "--threads", "--cluster", "--bind", "--port",
            "--members", "--allow", "--failure-seconds", "--coordinator-wait-seconds", "--secret-file");

    /**
     * The JVM-wide limits on Java deserialisation that a worker JVM sets (unless
     * {@code -Djdk.serialFilter} already set a filter): they bound any stream that has no filter
     * of its own, Hazelcast's included. Spindle's frames have their own, signed-only filter.
     */
    static final String SERIAL_LIMITS = "maxdepth=20;maxrefs=100000;maxarray=1000000;maxbytes=16777216";

    static final String USAGE_TEXT = String.join(System.lineSeparator(),
            "usage: SPINDLE_SECRET=... java -cp <classpath> " + WorkerMain.class.getName() + " \\",
            "           --id <n> --cluster <name> [options]",
            "  --id <n>                        worker id, 0..workers-1 (required)",
            "  --cluster <name>                Hazelcast cluster name (required)",
            "  --threads <n>                   worker threads (default: available processors)",
            "  --port <n>                      this member's port (default 5701)",
            "  --bind <address>                address to bind and announce (default 127.0.0.1)",
            "  --members <h:p,h:p,...>         members to join through (default: this member)",
            "  --allow <pkg,pkg,...>           packages task functions and values may come from",
            "  --failure-seconds <n>           heartbeat silence before a member is dead (default 5)",
            "  --coordinator-wait-seconds <n>  how long to wait for the coordinator (default 60)",
            "  --secret-file <path>            read the shared secret from a file instead of SPINDLE_SECRET",
            "                                  (readable by its owner alone, chmod 600; at most 64 KiB)",
            WorkerCommandLine.MEMORY_USAGE,
            "  --help                          print this help");

    /** Run just before the worker's member starts, after the checks; tests take the port there. */
    static volatile Runnable beforeStartForTests = () -> { };

    private WorkerMain() {
    }

    /**
     * Entry point: runs the worker, and exits with the status described in the class comment.
     *
     * @param args the options described in the class comment ({@code --help} lists them)
     */
    public static void main(String[] args) {
        System.exit(run(args, System.getenv(), System.out, System.err));
    }

    /**
     * Runs a worker until its member stops and returns the exit status; returns at once for
     * {@code --help} and for errors. Separate from {@link #main} so that tests can call it.
     */
    static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
        if (ObjectInputFilter.Config.getSerialFilter() == null) {
            ObjectInputFilter.Config.setSerialFilter(ObjectInputFilter.Config.createFilter(SERIAL_LIMITS));
        }
        Options o;
        try {
            o = Options.parse(args, env);
        } catch (IllegalArgumentException e) {
            return WorkerCommandLine.usageError(err, e.getMessage(), USAGE_TEXT);
        }
        if (o == null) {
            out.println(USAGE_TEXT);
            return OK;
        }
        String portProblem = WorkerCommandLine.listenProblem(o.settings.bindAddress(), o.settings.port());
        if (portProblem != null) {
            return WorkerCommandLine.usageError(err, portProblem, USAGE_TEXT);
        }
        beforeStartForTests.run();
        HazelcastWorker worker;
        try {
            worker = HazelcastWorker.start(o.settings, o.id, o.threads, o.memory);
        } catch (RuntimeException e) {
            // the port taken since the check (another process starting at the same moment): the
            // check's usage error, not a worker that could not take part
            BindException bind = WorkerCommandLine.bindFailure(e);
            if (bind != null) {
                return WorkerCommandLine.usageError(err, WorkerCommandLine.cannotListen(o.settings.bindAddress(),
                        o.settings.port(), bind), USAGE_TEXT);
            }
            err.println("WorkerMain: worker " + o.id + " could not start its member: " + e.getMessage());
            return FAILED;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        AtomicBoolean exiting = new AtomicBoolean();
        worker.onMemberShutdown(stopped::countDown);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            exiting.set(true);
            worker.close();
        }, "spindle-worker-shutdown"));
        // Said before the wait, which lasts until the coordinator starts (up to the limit), so
        // that whoever started this JVM sees it is up and what it waits for.
        out.println("spindle worker " + o.id + " started its member on " + o.settings.bindAddress() + ":"
                + o.settings.port() + "; waiting up to " + o.coordinatorWait.toSeconds()
                + " s for the coordinator of cluster '" + o.settings.clusterName() + "'");
        out.flush();
        try {
            worker.awaitCoordinator(o.coordinatorWait);
        } catch (MemberRefusedException | TimeoutException e) {
            err.println("WorkerMain: " + e.getMessage());
            worker.close();
            return FAILED;
        } catch (IllegalStateException memberDown) {
            worker.close();
            if (exiting.get()) {
                return OK;                    // the JVM is exiting (a signal): nothing to report
            }
            err.println("WorkerMain: worker " + o.id + " stopped: its Hazelcast member was shut down "
                    + "(by another member of the cluster, or by the JVM) while it waited for the coordinator");
            return FAILED;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            worker.close();
            return FAILED;
        }
        WorkerCommandLine.exitWithParentIfAsked();
        out.println("spindle worker " + o.id + " ready");
        out.flush();
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (exiting.get()) {
            return OK;                        // the JVM is exiting (a signal): nothing to report
        }
        if (worker.retired()) {
            out.println("spindle worker " + o.id + " retired: the coordinator moved its data to other workers; "
                    + "it left the cluster");
            out.flush();
            return OK;
        }
        if (worker.coordinatorLost()) {
            err.println("WorkerMain: worker " + o.id + " stopped: its coordinator left the cluster (it closed, "
                    + "or it was lost or declared this worker dead); a worker serves one coordinator");
            return FAILED;
        }
        if (worker.cutOff()) {
            err.println("WorkerMain: worker " + o.id + " stopped: the coordinator cut it off (a frame to it was not "
                    + "delivered, its scheduler could not reach it, or it joined late and the workers did not all answer "
                    + "the coordinator within the join timeout) and placed its tasks again; it left the cluster "
                    + "and may be started again");
            return FAILED;
        }
        if (worker.reportsUnsent()) {
            err.println("WorkerMain: worker " + o.id + " stopped: it could not send its reports to the coordinator, "
                    + "and left the cluster so that the coordinator places its tasks again");
            return FAILED;
        }
        if (worker.executorShutDown()) {
            err.println("WorkerMain: worker " + o.id + " stopped: a Hazelcast executor of its member was shut down "
                    + "by a member of the cluster, so it could no longer take part; it left the cluster");
            return FAILED;
        }
        err.println("WorkerMain: worker " + o.id + " stopped: its Hazelcast member was shut down "
                + "(by another member of the cluster, or by the JVM)");
        return FAILED;
    }

    /** The parsed command line. */
    static final class Options {
        final int id;
        final int threads;
        final Duration coordinatorWait;
        final HazelcastClusterSettings settings;
        final WorkerMemory memory;

        private Options(int id, int threads, Duration coordinatorWait, HazelcastClusterSettings settings,
                        WorkerMemory memory) {
            this.memory = memory;
            this.id = id;
            this.threads = threads;
            this.coordinatorWait = coordinatorWait;
            this.settings = settings;
        }

        /**
         * Parses the command line; {@code null} for {@code --help}.
         *
         * @throws IllegalArgumentException with a one-line reason for anything wrong
         */
        static Options parse(String[] args, Map<String, String> env) {
            WorkerCommandLine line = WorkerCommandLine.parse(args, OPTIONS);
            if (line.help()) {
                return null;
            }
            int id = line.workerId();
            int threads = line.threads();
            int port = line.port(5701, 1);
            int failureSeconds = line.number("--failure-seconds", TransportSettings.DEFAULT_FAILURE_SECONDS,
                    TransportSettings.MIN_FAILURE_SECONDS);
            int coordinatorWait = line.number("--coordinator-wait-seconds", 60, 1);
            line.require("--id", "--cluster");
            WorkerMemory memory = line.memory();
            String secret = line.secret("--secret-file", env, "SPINDLE_SECRET", "secret");
            HazelcastClusterSettings.Builder b = WorkerCommandLine.asOption("--cluster", "clusterName ",
                    () -> HazelcastClusterSettings.builder(line.text("--cluster", null), secret))
                    .port(port).failureSeconds(failureSeconds);
            WorkerCommandLine.asOption("--bind", () -> b.bindAddress(line.text("--bind",
                    TransportSettings.DEFAULT_BIND_ADDRESS)));
            WorkerCommandLine.asOption("--members", () -> line.list("--members").forEach(b::member));
            WorkerCommandLine.asOption("--allow", () -> line.list("--allow").forEach(b::allowPackage));
            return new Options(id, threads, Duration.ofSeconds(coordinatorWait), b.build(), memory);
        }
    }
}
