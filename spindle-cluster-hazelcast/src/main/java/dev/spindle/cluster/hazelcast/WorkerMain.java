/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * Runs one worker member until the JVM is stopped.
 *
 * <pre>
 * SPINDLE_SECRET=... java -cp ... dev.spindle.cluster.hazelcast.WorkerMain \
 *     --id 0 --threads 2 --cluster jobs --port 5702 \
 *     --members 127.0.0.1:5701,127.0.0.1:5702 [--bind 127.0.0.1] [--allow com.example,org.acme] \
 *     [--failure-seconds 5] [--secret-file path]
 * </pre>
 *
 * <p>With {@code -Dspindle.exitWithParent=true} the worker exits when the process that started it
 * does. The secret comes from the environment variable {@code SPINDLE_SECRET} or a file, never from
 * the command line, where other users of the machine could read it. Prints
 * {@code spindle worker <id> ready} once it has joined.
 */
public final class WorkerMain {

    private WorkerMain() {
    }

    /** Entry point; exits with status 2 on bad arguments. */
    public static void main(String[] args) throws Exception {
        HazelcastWorker worker;
        try {
            worker = start(args);
        } catch (IllegalArgumentException | NullPointerException e) {
            System.err.println("WorkerMain: " + e.getMessage());
            System.exit(2);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(worker::close, "spindle-worker-shutdown"));
        if (Boolean.getBoolean("spindle.exitWithParent")) {
            // a worker started by a test or a supervisor must not outlive it
            ProcessHandle.current().parent().ifPresent(p -> p.onExit().thenRun(() -> System.exit(0)));
        }
        System.out.println("spindle worker " + worker.id() + " ready");
        System.out.flush();
        new CountDownLatch(1).await();
    }

    static HazelcastWorker start(String[] args) throws IOException {
        Integer id = null;
        int threads = Runtime.getRuntime().availableProcessors();
        String cluster = null;
        String secret = System.getenv("SPINDLE_SECRET");
        String bind = "127.0.0.1";
        int port = 5701;
        String[] members = new String[0];
        String[] allow = new String[0];
        int failureSeconds = 5;
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            if (value == null) {
                throw new IllegalArgumentException("missing value after " + args[i]);
            }
            switch (args[i++]) {
                case "--id" -> id = Integer.parseInt(value);
                case "--threads" -> threads = Integer.parseInt(value);
                case "--cluster" -> cluster = value;
                case "--bind" -> bind = value;
                case "--port" -> port = Integer.parseInt(value);
                case "--members" -> members = value.split(",");
                case "--allow" -> allow = value.split(",");
                case "--failure-seconds" -> failureSeconds = Integer.parseInt(value);
                case "--secret-file" -> secret = Files.readString(Path.of(value)).strip();
                default -> throw new IllegalArgumentException("unknown option " + args[i - 1]);
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
        return HazelcastWorker.start(b.build(), id, threads);
    }
}
