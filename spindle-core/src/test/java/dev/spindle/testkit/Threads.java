/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.testkit;

/**
 * Starts threads and joins them: the body of the small concurrent programs that Lincheck's
 * {@code runConcurrentTest} explores, in every module (the core's test-jar).
 */
public final class Threads {

    private Threads() {
    }

    /** Starts every thread, then joins every one; an interrupt of the caller fails the test. */
    public static void runAll(Thread... threads) {
        for (Thread t : threads) {
            t.start();
        }
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
