/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.testkit;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A transport's {@code WorkerMain} in a JVM of its own, started as an operator would start it,
 * with this JVM's class path; for the multi-JVM tests of the transports (spindle-cluster's
 * test-jar). The JVM is small and quick to start (serial GC, C1 only) and exits with the test
 * JVM ({@code -Dspindle.exitWithParent=true}), so a failed test leaves no worker behind. Every
 * wait is bounded.
 */
public final class WorkerJvm implements AutoCloseable {

    private final Process process;
    private final File out;
    private final File err;
    private final boolean temporary;

    private WorkerJvm(Process process, File out, File err, boolean temporary) {
        this.process = process;
        this.out = out;
        this.err = err;
        this.temporary = temporary;
    }

    /**
     * Starts {@code main} with {@code args}, its output and errors in temporary files (deleted by
     * {@link #close}).
     *
     * @param jvmOptions options before the class path, such as {@code -Xmx128m}
     * @param env variables to set; a {@code null} value removes the variable
     */
    public static WorkerJvm start(Class<?> main, List<String> jvmOptions, Map<String, String> env, List<String> args)
            throws Exception {
        File out = Files.createTempFile("worker-main", ".out").toFile();
        File err = Files.createTempFile("worker-main", ".err").toFile();
        ProcessBuilder pb = builder(main, jvmOptions, env, args).redirectOutput(out).redirectError(err);
        return new WorkerJvm(pb.start(), out, err, true);
    }

    /** Same as {@link #start}, with output and errors together in {@code log}, which is kept. */
    public static WorkerJvm startLogged(Class<?> main, List<String> jvmOptions, Map<String, String> env,
                                        List<String> args, File log) throws Exception {
        ProcessBuilder pb = builder(main, jvmOptions, env, args).redirectErrorStream(true).redirectOutput(log);
        return new WorkerJvm(pb.start(), log, null, false);
    }

    private static ProcessBuilder builder(Class<?> main, List<String> jvmOptions, Map<String, String> env,
                                          List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Dspindle.exitWithParent=true",
                "-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(command);
        env.forEach((name, value) -> {
            if (value == null) {
                pb.environment().remove(name);
            } else {
                pb.environment().put(name, value);
            }
        });
        return pb;
    }

    /** The worker JVM's process id. */
    public long pid() {
        return process.pid();
    }

    /** Kills the JVM (SIGKILL: no goodbye to the cluster) and waits (bounded) until it is gone. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /**
     * Stops the JVM with SIGSTOP without ending it: its connections stay open and it answers
     * nothing, as a crashed host or a partitioned one looks to its peers until their heartbeat
     * timeout (a process killed on this host has its sockets closed at once, which its peers may
     * notice within a second). {@link #kill} still ends it. Needs a {@code kill} command (Unix).
     */
    public void freeze() throws Exception {
        Process stop = new ProcessBuilder("kill", "-STOP", Long.toString(pid())).redirectErrorStream(true).start();
        if (!stop.waitFor(30, TimeUnit.SECONDS) || stop.exitValue() != 0) {
            throw new AssertionError("could not stop process " + pid() + ": "
                    + new String(stop.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    /** Waits (bounded) for the JVM to exit and returns its status. */
    public int awaitExit(long seconds) throws Exception {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            throw new AssertionError("the worker did not exit within " + seconds + " s; out: " + out() + " err: " + err());
        }
        return process.exitValue();
    }

    /** Waits (bounded) until the worker prints a line containing {@code text}. */
    public void awaitOutput(String text, long seconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!out().contains(text)) {
            if (System.nanoTime() > deadline || !process.isAlive() && !out().contains(text)) {
                throw new AssertionError("no '" + text + "' from the worker; out: " + out() + " err: " + err());
            }
            Thread.sleep(50);
        }
    }

    /** What the worker printed so far (with its errors, if started with a log). */
    public String out() throws Exception {
        return Files.readString(out.toPath(), StandardCharsets.UTF_8);
    }

    /** The errors the worker printed so far; empty if started with a log. */
    public String err() throws Exception {
        return err == null ? "" : Files.readString(err.toPath(), StandardCharsets.UTF_8);
    }

    /** Kills the JVM if it still runs, and deletes temporary output files. */
    @Override
    public void close() throws Exception {
        kill();
        if (temporary) {
            Files.deleteIfExists(out.toPath());
            Files.deleteIfExists(err.toPath());
        }
    }
}
