/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs a test's {@code main} class in a child JVM with JVM flags of its own (a direct-memory
 * limit, say) and this JVM's class path, for tests whose condition would disturb every other
 * test sharing their JVM.
 */
public final class ChildJvm {

    private ChildJvm() {
    }

    /**
     * Runs {@code main} with {@code jvmFlags}, waits up to {@code timeoutSeconds}, and returns its
     * output (stdout and stderr), after asserting that it finished in time.
     */
    public static String run(Class<?> main, int timeoutSeconds, String... jvmFlags) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(jvmFlags));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        // read while it runs: a child that fills the pipe would otherwise block and time out
        CompletableFuture<String> output = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (java.io.IOException e) {
                return "(output unreadable: " + e + ")";
            }
        });
        boolean done = p.waitFor(timeoutSeconds, TimeUnit.SECONDS);
        if (!done) {
            p.destroyForcibly();
        }
        String out = output.get(10, TimeUnit.SECONDS);
        assertThat(done).as("child finished; output:%n%s", out).isTrue();
        return out;
    }
}
