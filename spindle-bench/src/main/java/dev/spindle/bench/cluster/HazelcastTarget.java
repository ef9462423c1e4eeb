/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.cluster;

import dev.spindle.cluster.Client;
import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.hazelcast.HazelcastClusterSettings;
import dev.spindle.cluster.hazelcast.HazelcastCoordinator;
import dev.spindle.cluster.hazelcast.WorkerMain;
import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * {@code processes}: one {@link WorkerMain} JVM per worker and a {@link HazelcastCoordinator} in
 * this JVM, on loopback, against Dask's {@code LocalCluster} with worker processes.
 *
 * <p>This is the benchmark's one use of spindle-cluster-hazelcast's API (settings, coordinator,
 * the worker's command line), kept here so that a change of how the coordinator is configured
 * touches this class only. The workers run this JVM's class path (the benchmark's task
 * functions live in {@code dev.spindle.bench.cluster}, which every member allows), with the
 * {@code --add-opens}/{@code --add-exports} flags this JVM was given (pass
 * {@code @spindle-cluster-hazelcast/jvm.args} in {@code SPINDLE_JAVA_OPTS}); a fresh random
 * secret per run reaches them through their environment, never their command line. They exit
 * with this JVM ({@code -Dspindle.exitWithParent=true}) and are killed on {@link #close}.
 *
 * <p>The distributed coordinator has no statistics API yet, so bytes moved between workers and
 * steals are not reported for this target; {@link TcpBytes} measures what the worker JVMs send.
 */
final class HazelcastTarget implements ClusterTarget {

    private static final Duration JOIN_TIMEOUT = Duration.ofSeconds(120);

    private final HazelcastCoordinator coordinator;
    private final List<Process> processes;
    private final List<File> logs;
    private final int threads;

    private HazelcastTarget(HazelcastCoordinator coordinator, List<Process> processes, List<File> logs, int threads) {
        this.coordinator = coordinator;
        this.processes = processes;
        this.logs = logs;
        this.threads = threads;
    }

    static HazelcastTarget start(int workers, int threads) throws Exception {
        int[] ports = freePorts(workers + 1);
        String cluster = "spindle-bench-" + ports[0];
        byte[] random = new byte[24];
        new SecureRandom().nextBytes(random);
        String secret = HexFormat.of().formatHex(random);
        List<String> members = new ArrayList<>();
        for (int p : ports) {
            members.add("127.0.0.1:" + p);
        }
        List<Process> processes = new ArrayList<>();
        List<File> logs = new ArrayList<>();
        try {
            for (int id = 0; id < workers; id++) {
                File log = Files.createTempFile("spindle-bench-worker-" + id + "-", ".log").toFile();
                log.deleteOnExit();
                logs.add(log);
                processes.add(worker(id, threads, cluster, ports[id + 1], String.join(",", members), secret, log));
            }
            HazelcastClusterSettings.Builder settings = HazelcastClusterSettings.builder(cluster, secret)
                    .port(ports[0]).allowPackage(ClusterTarget.class.getPackageName());
            members.forEach(settings::member);
            HazelcastCoordinator coordinator;
            try (EarlyExitWatch watch = new EarlyExitWatch(processes)) {
                try {
                    coordinator = HazelcastCoordinator.start(settings.build(),
                            CoordinatorSettings.builder().workers(workers).threadsPerWorker(threads)
                                    .balanceInterval(BALANCE_INTERVAL).build(), JOIN_TIMEOUT);
                } catch (InterruptedException e) {
                    throw watch.explain(e);
                }
            }
            return new HazelcastTarget(coordinator, processes, logs, threads);
        } catch (Exception | Error e) {
            String tails = tails(logs);
            processes.forEach(Process::destroyForcibly);
            throw new IllegalStateException("the worker JVMs did not form a cluster: " + e + tails, e);
        }
    }

    /** Starts worker {@code id}'s JVM, its output in {@code log}. */
    private static Process worker(int id, int threads, String cluster, int port, String members, String secret,
                                  File log) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (a.startsWith("--add-opens") || a.startsWith("--add-exports") || a.startsWith("--add-modules")) {
                command.add(a);
            }
        }
        command.addAll(List.of("-Xmx512m", "-Dspindle.exitWithParent=true", "-cp", System.getProperty("java.class.path"),
                WorkerMain.class.getName(), "--id", Integer.toString(id), "--threads", Integer.toString(threads),
                "--cluster", cluster, "--port", Integer.toString(port), "--members", members,
                "--allow", ClusterTarget.class.getPackageName()));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log);
        // this JVM's options from these variables are not the workers' (a debugger agent's port,
        // a flight recording's file would clash between the workers), as for the CLI's forks
        pb.environment().keySet().removeAll(JVM_OPTION_VARIABLES);
        pb.environment().put("SPINDLE_SECRET", secret);
        return pb.start();
    }

    /** The environment variables the JVM takes options from. */
    static final List<String> JVM_OPTION_VARIABLES = List.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS");

    /**
     * Interrupts the thread that waits for the workers to join as soon as one worker's JVM exits:
     * it will never join, and the wait would last the whole {@link #JOIN_TIMEOUT}. An interrupt
     * this watch made is cleared again when the wait ended otherwise (the JVM exited just as the
     * cluster formed), so that it does not reach the benchmark's later waits; one from elsewhere
     * is left alone.
     */
    static final class EarlyExitWatch implements AutoCloseable {
        private final Thread waiter = Thread.currentThread();
        private final List<Process> processes;
        private boolean watching = true;          // guarded by this
        private boolean interrupted;              // guarded by this: this watch interrupted the waiter

        EarlyExitWatch(List<Process> processes) {
            this.processes = processes;
            for (Process p : processes) {
                p.onExit().thenRun(this::exited);
            }
        }

        private synchronized void exited() {
            if (watching && !interrupted) {
                interrupted = true;
                waiter.interrupt();
            }
        }

        /** What an interrupted wait means: a worker that exited, or an interrupt from elsewhere. */
        Exception explain(InterruptedException e) {
            synchronized (this) {
                watching = false;
                if (!interrupted) {
                    Thread.currentThread().interrupt();     // not ours: keep it for the caller
                    return e;
                }
            }
            StringBuilder exits = new StringBuilder();
            for (int i = 0; i < processes.size(); i++) {
                Process p = processes.get(i);
                if (!p.isAlive()) {
                    exits.append(exits.length() == 0 ? "" : ", ").append("worker ").append(i)
                            .append(" exited with status ").append(p.exitValue());
                }
            }
            return new IllegalStateException(exits + " before the cluster formed", e);
        }

        @Override
        public synchronized void close() {
            watching = false;
            if (interrupted) {
                Thread.interrupted();                        // ours, and the wait ended without it
            }
        }
    }

    private static int[] freePorts(int n) throws IOException {
        int[] ports = new int[n];
        List<ServerSocket> held = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                held.add(s);
                ports[i] = s.getLocalPort();
            }
        } finally {
            for (ServerSocket s : held) {
                s.close();
            }
        }
        return ports;
    }

    /** The last lines each worker printed, for an error message. */
    private static String tails(List<File> logs) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < logs.size(); i++) {
            try {
                List<String> lines = Files.readAllLines(logs.get(i).toPath(), StandardCharsets.UTF_8);
                sb.append("\n  worker ").append(i).append(": ")
                        .append(String.join("\n    ", lines.subList(Math.max(0, lines.size() - 5), lines.size())));
            } catch (IOException e) {
                sb.append("\n  worker ").append(i).append(": (no log: ").append(e.getMessage()).append(')');
            }
        }
        return sb.toString();
    }

    @Override
    public String config() {
        return "processes";
    }

    @Override
    public int workers() {
        return processes.size();
    }

    @Override
    public int threadsPerWorker() {
        return threads;
    }

    @Override
    public Client client() {
        return coordinator.client();
    }

    @Override
    public OptionalLong dataBytes() {
        return OptionalLong.empty();
    }

    @Override
    public OptionalLong steals() {
        return OptionalLong.empty();
    }

    @Override
    public Set<Long> workerPids() {
        Set<Long> pids = new LinkedHashSet<>();
        for (Process p : processes) {
            pids.add(p.pid());
        }
        return pids;
    }

    @Override
    public void close() {
        try {
            coordinator.close();
        } finally {
            for (Process p : processes) {
                p.destroyForcibly();
            }
            for (Process p : processes) {
                try {
                    p.waitFor(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            logs.forEach(File::delete);
        }
    }
}
