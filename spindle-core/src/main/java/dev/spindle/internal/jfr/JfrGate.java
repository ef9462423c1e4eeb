/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.internal.jfr;

import jdk.jfr.FlightRecorder;

/**
 * Whether any Spindle event can be wanted yet: the test every call site makes before it touches an
 * event class.
 *
 * <h2>Why</h2>
 *
 * <p>The first time a JVM initializes a subclass of {@link jdk.jfr.Event}, JFR sets up its
 * metadata (about 80 classes of {@code jdk.jfr}, the event's annotations read through reflection),
 * whether or not a recording will ever run: 140-170 ms on JDK 17 and 180-210 ms on JDK 25 on a
 * 2-core machine, measured for a class with no fields. Every event class here is initialized by
 * its own {@code enabled()} (a static method), so a pool paid that on its first worker's first
 * park, holding that worker, and every thread that reached an event class meanwhile, while the
 * pool's first tasks waited: a burst of 100,000 small tasks from outside took 210-230 ms (JDK 17)
 * in a fresh JVM against 70-110 ms for {@code ForkJoinPool}, and 80-110 ms with this gate.
 *
 * <h2>How</h2>
 *
 * <p>{@link FlightRecorder#isInitialized()} reads one volatile field, and turns true before any
 * recording can start: a recording made by {@code -XX:StartFlightRecording}, {@code jcmd
 * JFR.start}, the management bean, {@code new Recording()} or a {@code RecordingStream} first
 * initializes the recorder. So while it is false no event can be enabled, and a call site that
 * tests it first ({@code JfrGate.open() && WorkerParkEvent.enabled()}) leaves every event class
 * untouched. Once it is true the event's own test decides, as before; a recording started while
 * the pools run is seen at their next test (each call reads the field afresh), and an event class
 * initialized then is instrumented as it loads, as JFR does for any class loaded during a
 * recording. The cost while closed: a load of a field that is never written, with no fence on
 * x86 or ARM beyond the load's own ordering.
 */
public final class JfrGate {

    private JfrGate() {
    }

    /** Whether the JVM's Flight Recorder is initialized: false means no event can be enabled. */
    public static boolean open() {
        return FlightRecorder.isInitialized();
    }

    /**
     * Records the rejection that {@code e} reports if a recording wants it (see
     * {@link RejectedSubmitEvent#record}), and returns {@code e} for the caller to throw.
     */
    public static <X extends RuntimeException> X rejected(String scheduler, X e) {
        return open() ? RejectedSubmitEvent.record(scheduler, e) : e;
    }
}
