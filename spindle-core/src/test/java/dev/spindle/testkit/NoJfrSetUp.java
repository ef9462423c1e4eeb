/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.testkit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The check of the {@code NoRecordingLeavesJfrUnsetTest}s: a child JVM that never records runs
 * {@code child}'s paths, and its class-loading log must show neither JFR's own classes (beyond
 * {@code jdk.jfr.FlightRecorder}, which the gate reads) nor any Spindle event class, since the first
 * {@code jdk.jfr.Event} subclass a JVM initializes sets JFR up (see {@code JfrGate}). The child
 * prints {@link #DONE} once its paths have run.
 */
public final class NoJfrSetUp {

    /** What the child prints last. */
    public static final String DONE = "PATHS DONE";

    private NoJfrSetUp() {
    }

    /** Runs {@code child} in a JVM of its own and checks its class-loading log. */
    public static void check(Class<?> child) throws Exception {
        String out = ChildJvm.run(child, 120, "-Xlog:class+load=info");
        assertThat(out).as("the child finished its paths").contains(DONE);
        assertThat(out.lines()
                        .filter(l -> l.contains("jdk.jfr.") || l.contains("] dev.spindle.") && l.contains("Event source:"))
                        .filter(l -> !l.contains("jdk.jfr.FlightRecorder source:")))
                .as("JFR classes and Spindle event classes loaded")
                .isEmpty();
    }
}
