/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */

/**
 * The core's JDK Flight Recorder events, one class per event, named {@code dev.spindle.*}
 * (the table is in {@code docs/OBSERVABILITY.md}; {@code dev/spindle/spindle.jfc} enables them).
 *
 * <h2>Why a disabled event costs nothing</h2>
 *
 * <p>A call site first asks {@link dev.spindle.internal.jfr.JfrGate#open()} whether the JVM's
 * Flight Recorder is initialized at all: until it is, no event can be enabled, and the event class
 * is not even initialized (the first {@code jdk.jfr.Event} subclass a JVM initializes sets up JFR's
 * metadata, 140-210 ms measured, paid by a worker's first park before the gate: see there). Then
 * each class holds one instance of itself in a {@code static final} field and answers
 * {@code enabled()} with that instance's {@link jdk.jfr.Event#isEnabled()}, as the JDK's own
 * {@code jdk.internal.event} classes do. While no recording has started in the JVM, JFR leaves the
 * class uninstrumented and {@code isEnabled()} is a method returning {@code false}: the JIT
 * folds the hook's test to a constant and drops the branch, so the hot path neither allocates
 * nor reads anything beyond the gate's one field. (Once a recording has run, a disabled event's test reads its type's
 * enabled flag: a load or two.) Call sites therefore test {@code enabled()} before they compute any field
 * (a queue size, a name) and allocate the event only inside that branch. Duration events are
 * begun only when enabled and committed through {@link jdk.jfr.Event#shouldCommit()}, which
 * applies the recording's threshold.
 *
 * <p>The package depends on {@code jdk.jfr} alone and takes plain values (names, indices,
 * counts), so the pools ({@code dev.spindle.pool}), the idle protocol ({@code dev.spindle.internal})
 * and the async runtime use it without a package cycle. Not API: the module does not export it
 * except to {@code dev.spindle.async}.
 */
package dev.spindle.internal.jfr;
