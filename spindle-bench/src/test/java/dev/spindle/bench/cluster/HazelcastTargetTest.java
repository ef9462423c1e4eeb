/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** How the {@code processes} target starts its worker JVMs and waits for them. */
class HazelcastTargetTest {

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    /** A JVM that exits at once (status 3), as a worker that cannot start does. */
    private static Process exitingJvm() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                ExitWith.class.getName(), "3").start();
    }

    /** A main that exits with its argument as status. */
    static final class ExitWith {
        public static void main(String[] args) {
            System.exit(Integer.parseInt(args[0]));
        }
    }

    /**
     * A worker JVM that exits while the cluster forms ends the wait at once, naming the worker and
     * its status, instead of after the whole join timeout.
     */
    @Test
    void aWorkerThatExitsEndsTheWaitForTheClusterAndIsNamed() throws Exception {
        Process live = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Sleeper.class.getName()).start();
        try {
            List<Process> workers = List.of(live, exitingJvm());
            assertThatThrownBy(() -> {
                try (HazelcastTarget.EarlyExitWatch watch = new HazelcastTarget.EarlyExitWatch(workers)) {
                    try {
                        Thread.sleep(TimeUnit.MINUTES.toMillis(2));   // stands for the join's wait
                    } catch (InterruptedException e) {
                        throw watch.explain(e);
                    }
                }
            }).isInstanceOf(IllegalStateException.class)
                    .hasMessage("worker 1 exited with status 3 before the cluster formed");
            assertThat(Thread.currentThread().isInterrupted()).as("the watch's own interrupt, left set").isFalse();
        } finally {
            live.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** An interrupt from elsewhere is the caller's: it is rethrown as such and stays set. */
    @Test
    void anInterruptFromElsewhereIsKept() throws Exception {
        try (HazelcastTarget.EarlyExitWatch watch = new HazelcastTarget.EarlyExitWatch(List.of())) {
            Thread.currentThread().interrupt();
            try {
                Thread.sleep(10_000);
            } catch (InterruptedException e) {
                assertThat(watch.explain(e)).isSameAs(e);
            }
        }
        assertThat(Thread.interrupted()).as("the caller's interrupt, kept").isTrue();
    }

    /** A worker JVM that exits after the wait ended leaves no interrupt behind. */
    @Test
    void anExitAfterTheWaitLeavesNoInterrupt() throws Exception {
        Process p = exitingJvm();
        try (HazelcastTarget.EarlyExitWatch watch = new HazelcastTarget.EarlyExitWatch(List.of(p))) {
            assertThat(watch).isNotNull();
        }
        p.waitFor(30, TimeUnit.SECONDS);
        p.onExit().get(30, TimeUnit.SECONDS);
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    /** Stays alive until killed. */
    static final class Sleeper {
        public static void main(String[] args) throws InterruptedException {
            Thread.sleep(TimeUnit.MINUTES.toMillis(5));
        }
    }
}
