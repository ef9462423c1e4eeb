/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

/**
 * Something registered with the console: a scheduler, an actor system or a cluster. The sampler
 * thread alone calls {@link #sample}, so a source may keep the previous reading (for rates) in
 * plain fields.
 */
interface Source {

    /** The name the application registered it under. */
    String name();

    /**
     * Appends one JSON object describing the source now.
     *
     * @param nanos {@link System#nanoTime()} of this sample, the same for every source
     * @param cpu the worker threads' CPU clocks, refreshed once per sample
     */
    void sample(StringBuilder sb, long nanos, ThreadCpu cpu);

    /**
     * A per-second rate from two readings of a counter; NaN when there is no earlier reading.
     */
    static double rate(long now, long before, long elapsedNanos) {
        if (elapsedNanos <= 0 || before < 0) {
            return Double.NaN;
        }
        return (now - before) * 1e9 / elapsedNanos;
    }
}
