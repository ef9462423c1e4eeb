/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Runs one worker member until the JVM is stopped or the member leaves the cluster.
 *
 * <pre>
 * SPINDLE_STORE_PASSWORD=... java -cp ... dev.spindle.cluster.pekko.WorkerMain \
 *     --id 0 --threads 2 --cluster jobs --key-store certs/worker-0.p12 --trust-store certs/truststore.p12 \
 *     --seed 127.0.0.1:25520 [--bind 127.0.0.1] [--port 0] [--allow com.example,org.acme] \
 *     [--failure-seconds 5] [--max-message-bytes 262144] [--password-file path]
 * </pre>
 *
 * <p>The store password comes from the environment variable {@code SPINDLE_STORE_PASSWORD} or a
 * file, never from the command line, where other users of the machine could read it. Prints
 * {@code spindle worker <id> joined <host:port>} once it is a member. With
 * {@code -Dspindle.exitWithParent=true} the worker exits when the process that started it does.
 * Exits with status 2 on bad arguments, 1 when it leaves the cluster (downed, or its coordinator
 * saw it as lost).
 */
public final class WorkerMain {

    static final String USAGE = "usage: WorkerMain --id N --cluster NAME --key-store FILE --trust-store FILE "
            + "--seed HOST:PORT [--threads N] [--bind ADDRESS] [--port N] [--allow PKG,...] [--failure-seconds N] "
            + "[--max-message-bytes N] [--password-file FILE]  (password from SPINDLE_STORE_PASSWORD or --password-file)";

    private WorkerMain() {
    }

    /** Entry point; exits with status 2 on bad arguments. */
    public static void main(String[] args) throws Exception {
        PekkoWorker worker;
        try {
            worker = start(args);
        } catch (IllegalArgumentException | NullPointerException e) {
            System.err.println("WorkerMain: " + e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(worker::close, "spindle-worker-shutdown"));
        if (Boolean.getBoolean("spindle.exitWithParent")) {
            // a worker started by a test or a supervisor must not outlive it
            ProcessHandle.current().parent().ifPresent(p -> p.onExit().thenRun(() -> System.exit(0)));
        }
        worker.joined().thenRun(() -> {
            System.out.println("spindle worker " + worker.id() + " joined " + worker.address());
            System.out.flush();
        });
        worker.terminated().toCompletableFuture().join();
        System.err.println("spindle worker " + worker.id() + " left the cluster; exiting");
        System.exit(1);
    }

    static PekkoWorker start(String[] args) throws IOException {
        Integer id = null;
        int threads = Runtime.getRuntime().availableProcessors();
        String cluster = null;
        String keyStore = null;
        String trustStore = null;
        String password = System.getenv("SPINDLE_STORE_PASSWORD");
        String bind = "127.0.0.1";
        int port = 0;
        String[] seeds = new String[0];
        String[] allow = new String[0];
        int failureSeconds = 5;
        Integer maxMessageBytes = null;
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            if (i + 1 == args.length) {
                throw new IllegalArgumentException("missing value after " + option);
            }
            String value = args[++i];
            switch (option) {
                case "--id" -> id = number(option, value);
                case "--threads" -> threads = number(option, value);
                case "--cluster" -> cluster = value;
                case "--key-store" -> keyStore = value;
                case "--trust-store" -> trustStore = value;
                case "--seed" -> seeds = value.split(",");
                case "--bind" -> bind = value;
                case "--port" -> port = number(option, value);
                case "--allow" -> allow = value.split(",");
                case "--failure-seconds" -> failureSeconds = number(option, value);
                case "--max-message-bytes" -> maxMessageBytes = number(option, value);
                case "--password-file" -> password = Files.readString(Path.of(value)).strip();
                default -> throw new IllegalArgumentException("unknown option " + option);
            }
        }
        if (id == null || cluster == null || keyStore == null || trustStore == null || seeds.length == 0) {
            throw new IllegalArgumentException("--id, --cluster, --key-store, --trust-store and --seed are required");
        }
        if (password == null) {
            throw new IllegalArgumentException("no store password: set SPINDLE_STORE_PASSWORD or pass --password-file");
        }
        PekkoClusterSettings.Builder b = PekkoClusterSettings.builder(cluster, Path.of(keyStore), Path.of(trustStore),
                password).bindAddress(bind).port(port).failureSeconds(failureSeconds);
        if (maxMessageBytes != null) {
            b.maxMessageBytes(maxMessageBytes);
        }
        for (String s : seeds) {
            b.seedNode(s.strip());
        }
        for (String p : allow) {
            b.allowPackage(p.strip());
        }
        return PekkoWorker.start(b.build(), id, threads);
    }

    private static int number(String option, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " needs a number, got '" + value + "'");
        }
    }
}
