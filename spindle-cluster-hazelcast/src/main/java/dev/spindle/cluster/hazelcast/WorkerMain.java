/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import java.io.IOException;
import java.io.ObjectInputFilter;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs one worker member until the JVM is stopped.
 *
 * <pre>
 * SPINDLE_SECRET=... java -cp ... dev.spindle.cluster.hazelcast.WorkerMain \
 *     --id 0 --threads 2 --cluster jobs --port 5702 \
 *     --members 127.0.0.1:5701,127.0.0.1:5702 [--bind 127.0.0.1] [--allow com.example,org.acme] \
 *     [--failure-seconds 5] [--coordinator-wait-seconds 60] [--secret-file path]
 * </pre>
 *
 * <p>With {@code -Dspindle.exitWithParent=true} the worker exits when the process that started it
 * does. The secret comes from the environment variable {@code SPINDLE_SECRET} or a file, never from
 * the command line, where other users of the machine could read it. Prints
 * {@code spindle worker <id> ready} once a coordinator that proves the secret is known.
 *
 * <p>Exit status: 0 after {@code --help}; 2 for a bad command line (a one-line reason and the
 * usage on stderr), including an unreadable secret file and a port that is taken; 1 when the
 * worker cannot take part or stops (refused by the coordinator, no coordinator in time, or its
 * member shut down from elsewhere), with the reason on stderr.
 */
public final class WorkerMain {

    static final int OK = 0;
    static final int FAILED = 1;
    static final int USAGE = 2;

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
            "  --help                          print this help");

    private WorkerMain() {
    }

    /** Entry point: runs the worker, and exits with the status described in the class comment. */
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
            o = Options.parse(args, env.get("SPINDLE_SECRET"));
        } catch (IllegalArgumentException e) {
            return usage(err, e.getMessage());
        }
        if (o == null) {
            out.println(USAGE_TEXT);
            return OK;
        }
        String portProblem = portProblem(o.settings.bindAddress(), o.settings.port());
        if (portProblem != null) {
            return usage(err, portProblem);
        }
        HazelcastWorker worker;
        try {
            worker = HazelcastWorker.start(o.settings, o.id, o.threads);
        } catch (RuntimeException e) {
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
        try {
            worker.awaitCoordinator(o.coordinatorWait);
        } catch (MemberRefusedException | TimeoutException e) {
            err.println("WorkerMain: " + e.getMessage());
            worker.close();
            return FAILED;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            worker.close();
            return FAILED;
        }
        if (Boolean.getBoolean("spindle.exitWithParent")) {
            // a worker started by a test or a supervisor must not outlive it
            ProcessHandle.current().parent().ifPresent(p -> p.onExit().thenRun(() -> System.exit(OK)));
        }
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
        err.println("WorkerMain: worker " + o.id + " stopped: its Hazelcast member was shut down "
                + "(by another member of the cluster, or by the JVM)");
        return FAILED;
    }

    private static int usage(PrintStream err, String problem) {
        err.println("WorkerMain: " + problem);
        err.println(USAGE_TEXT);
        return USAGE;
    }

    /** Why the member could not listen on {@code bind:port}, or {@code null} if it can. */
    private static String portProblem(String bind, int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getByName(bind))) {
            return null;
        } catch (IOException e) {
            return "cannot listen on " + bind + ":" + port + " (" + e.getMessage() + "): is another member "
                    + "using the port? choose another with --port";
        }
    }

    /** The parsed command line. */
    static final class Options {
        final int id;
        final int threads;
        final Duration coordinatorWait;
        final HazelcastClusterSettings settings;

        private Options(int id, int threads, Duration coordinatorWait, HazelcastClusterSettings settings) {
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
        static Options parse(String[] args, String envSecret) {
            Integer id = null;
            int threads = Runtime.getRuntime().availableProcessors();
            String cluster = null;
            String secret = envSecret;
            String bind = "127.0.0.1";
            int port = 5701;
            String[] members = new String[0];
            String[] allow = new String[0];
            int failureSeconds = 5;
            int coordinatorWait = 60;
            for (int i = 0; i < args.length; i++) {
                String option = args[i];
                if (option.equals("--help") || option.equals("-h")) {
                    return null;
                }
                if (!option.startsWith("--")) {
                    throw new IllegalArgumentException("unexpected argument '" + option + "'");
                }
                if (i + 1 == args.length) {
                    throw new IllegalArgumentException("missing value after " + option);
                }
                String value = args[++i];
                switch (option) {
                    case "--id" -> id = number(option, value, 0);
                    case "--threads" -> threads = number(option, value, 1);
                    case "--cluster" -> cluster = value;
                    case "--bind" -> bind = value;
                    case "--port" -> port = number(option, value, 1);
                    case "--members" -> members = value.split(",");
                    case "--allow" -> allow = value.split(",");
                    case "--failure-seconds" -> failureSeconds = number(option, value, 2);
                    case "--coordinator-wait-seconds" -> coordinatorWait = number(option, value, 1);
                    case "--secret-file" -> secret = readSecret(value);
                    default -> throw new IllegalArgumentException("unknown option " + option);
                }
            }
            if (id == null || cluster == null) {
                throw new IllegalArgumentException("--id and --cluster are required");
            }
            if (secret == null) {
                throw new IllegalArgumentException("no secret: set SPINDLE_SECRET or pass --secret-file");
            }
            HazelcastClusterSettings.Builder b = HazelcastClusterSettings.builder(cluster, secret)
                    .bindAddress(bind).port(port).failureSeconds(failureSeconds);
            for (String m : members) {
                b.member(m.strip());
            }
            for (String p : allow) {
                b.allowPackage(p.strip());
            }
            return new Options(id, threads, Duration.ofSeconds(coordinatorWait), b.build());
        }

        private static int number(String option, String value, int min) {
            int n;
            try {
                n = Integer.parseInt(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(option + " needs a whole number, got '" + value + "'");
            }
            if (n < min) {
                throw new IllegalArgumentException(option + " must be at least " + min + ", got " + n);
            }
            return n;
        }

        private static String readSecret(String file) {
            try {
                return Files.readString(Path.of(file)).strip();
            } catch (NoSuchFileException e) {
                throw new IllegalArgumentException("--secret-file " + file + ": no such file");
            } catch (IOException | RuntimeException e) {
                throw new IllegalArgumentException("--secret-file " + file + ": cannot read it (" + e + ")");
            }
        }
    }
}
