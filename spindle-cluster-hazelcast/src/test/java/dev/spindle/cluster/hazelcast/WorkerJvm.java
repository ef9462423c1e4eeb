/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** {@link WorkerMain} in a JVM of its own, with its output in files, as an operator starts it. */
final class WorkerJvm implements AutoCloseable {

    private final Process process;
    private final File out;
    private final File err;

    private WorkerJvm(Process process, File out, File err) {
        this.process = process;
        this.out = out;
        this.err = err;
    }

    /** Starts WorkerMain with {@code args}, and {@code SPINDLE_SECRET} set to {@code secret} unless null. */
    static WorkerJvm start(String secret, List<String> args) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "@jvm.args", "-Xmx128m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-Dspindle.exitWithParent=true", "-cp", System.getProperty("java.class.path"),
                WorkerMain.class.getName()));
        command.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().remove("SPINDLE_SECRET");
        if (secret != null) {
            pb.environment().put("SPINDLE_SECRET", secret);
        }
        File out = Files.createTempFile("worker-main", ".out").toFile();
        File err = Files.createTempFile("worker-main", ".err").toFile();
        pb.redirectOutput(out).redirectError(err);
        return new WorkerJvm(pb.start(), out, err);
    }

    /** Waits (bounded) for the JVM to exit and returns its status. */
    int awaitExit(long seconds) throws Exception {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            throw new AssertionError("WorkerMain did not exit within " + seconds + " s; out: " + out() + " err: " + err());
        }
        return process.exitValue();
    }

    /** Waits (bounded) until the worker prints a line containing {@code text}. */
    void awaitOutput(String text, long seconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!out().contains(text)) {
            if (System.nanoTime() > deadline || !process.isAlive() && !out().contains(text)) {
                throw new AssertionError("no '" + text + "' from WorkerMain; out: " + out() + " err: " + err());
            }
            Thread.sleep(50);
        }
    }

    String out() throws Exception {
        return Files.readString(out.toPath(), StandardCharsets.UTF_8);
    }

    String err() throws Exception {
        return Files.readString(err.toPath(), StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws Exception {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
        Files.deleteIfExists(out.toPath());
        Files.deleteIfExists(err.toPath());
    }
}
