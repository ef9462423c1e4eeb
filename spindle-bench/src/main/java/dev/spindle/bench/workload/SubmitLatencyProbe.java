/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.workload;

import dev.spindle.bench.runtime.BenchRuntime;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * Latency from an external submission to the start of the task, at low load: one task at a
 * time, with a pause between tasks long enough for the workers to go idle. What it sees is
 * mostly how fast an idle pool notices new work and wakes a worker.
 *
 * <p>The calling thread reads {@link System#nanoTime()}, submits a task that reads it again
 * first thing, waits for that task, records the difference, and pauses. Every task must run
 * exactly once or the probe throws.
 */
public final class SubmitLatencyProbe {

    /** Highest latency the histogram tracks; longer samples are clamped to it. */
    static final long MAX_TRACKED_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final long gapNanos;

    /** @param gapNanos pause between one task's completion and the next submission */
    public SubmitLatencyProbe(long gapNanos) {
        if (gapNanos < 0) {
            throw new IllegalArgumentException("gapNanos must not be negative, was " + gapNanos);
        }
        this.gapNanos = gapNanos;
    }

    /** A histogram of nanoseconds with the range and precision the probe records at. */
    public static Histogram newHistogram() {
        return new Histogram(MAX_TRACKED_NANOS, 3);
    }

    /**
     * Takes {@code samples} samples on {@code rt} into {@code into} (nanoseconds).
     *
     * @throws WrongResultException if a task did not run exactly once
     */
    public void measure(BenchRuntime rt, int samples, Histogram into) {
        Checks.positive("samples", samples);
        Thread caller = Thread.currentThread();
        long ran = 0;
        for (int i = 0; i < samples; i++) {
            Sample s = new Sample(caller);
            s.submitted = System.nanoTime();
            rt.execute(s);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Checks.TIMEOUT_SECONDS);
            while (s.runs == 0) {
                LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(1));
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("latency probe: task not started on " + rt.kind());
                }
            }
            into.recordValue(Math.min(Math.max(0, s.started - s.submitted), MAX_TRACKED_NANOS));
            ran += s.runs;
            if (gapNanos > 0) {
                LockSupport.parkNanos(gapNanos);
            }
        }
        Checks.expect("latency probe on " + rt.kind() + ": tasks run", samples, ran);
    }

    /** Converts a histogram percentile from nanoseconds to microseconds. */
    public static double micros(Histogram h, double percentile) {
        return h.getValueAtPercentile(percentile) / 1_000.0;
    }

    private static final class Sample implements Runnable {
        final Thread waiter;
        long submitted;
        long started;
        volatile int runs;

        Sample(Thread waiter) {
            this.waiter = waiter;
        }

        @Override
        public void run() {
            long now = System.nanoTime();
            started = now;
            runs = runs + 1;               // publishes started; only one task writes
            LockSupport.unpark(waiter);
        }
    }
}
