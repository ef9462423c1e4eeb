/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.workload;

import dev.spindle.bench.runtime.BenchRuntime;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Result checks and waits shared by the workloads. */
public final class Checks {

    /** How long a workload may take before it is reported as hung. */
    static final long TIMEOUT_SECONDS = 120;

    private Checks() {
    }

    /**
     * Returns {@code actual} if it equals {@code expected}.
     *
     * @throws WrongResultException otherwise
     */
    public static long expect(String what, long expected, long actual) {
        if (expected != actual) {
            throw new WrongResultException(what, expected, actual);
        }
        return actual;
    }

    /** Waits for {@code latch}, failing if it does not open within {@link #TIMEOUT_SECONDS}. */
    static void await(CountDownLatch latch, String what) {
        try {
            if (!latch.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException(what + " did not complete within "
                        + TIMEOUT_SECONDS + " s (" + latch.getCount() + " still pending)");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(what + " interrupted", e);
        }
    }

    static void requireSupported(Workload w, BenchRuntime rt) {
        if (!w.supports(rt.kind())) {
            throw new IllegalArgumentException(w.name() + " does not run on " + rt.kind()
                    + (rt.kind().supportsForkJoin() ? "" : " (it has no fork/join: joins would deadlock)"));
        }
    }

    static int positive(String what, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(what + " must be at least 1, was " + value);
        }
        return value;
    }
}
