/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.testkit;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.function.BooleanSupplier;

/**
 * Waits, bounded, for a condition another thread makes true: a test's way to wait for what it
 * cannot be told of (a value freed, a member seen), in every module (the core's test-jar). Not a
 * timing assertion: the bound only turns a hang into a failure that names what never happened.
 */
public final class Await {

    private Await() {
    }

    /**
     * Returns once {@code condition} holds, looking every few milliseconds; fails with an
     * {@link AssertionError} naming {@code what} if it does not within {@code bound}.
     */
    public static void until(String what, Duration bound, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + bound + " waiting until " + what);
            }
            Thread.sleep(5);
        }
    }

    /** As {@link #until(String, Duration, BooleanSupplier)}, within 30 seconds. */
    public static void until(String what, BooleanSupplier condition) throws InterruptedException {
        until(what, Duration.ofSeconds(30), condition);
    }

    /**
     * Waits for {@code latch} without a bound, as a call that ignores interrupts does (a cluster's
     * wait for its scheduler thread, a stuck supplier): an interrupt neither ends the wait nor is
     * lost, it is set again once the latch opens. For a test's stand-in of such a call.
     */
    public static void ignoringInterrupts(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
