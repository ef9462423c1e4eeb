/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

/**
 * Text for a failure that came out of a user's code (a task, a value's serialisation, its size):
 * the exception's class is the user's too, and its {@code getMessage()} or {@code toString()} may
 * throw. Where that text is made, a throw would escape code that must not throw (a worker's report
 * of the task, a coordinator's batch), leaving a task unreported and its future waiting for good;
 * so each method here falls back on the class name and says what threw.
 */
final class Failures {

    private Failures() {
    }

    /** {@code t.getMessage()} (which may be null), or what it threw. */
    static String messageOf(Throwable t) {
        try {
            return t.getMessage();
        } catch (Throwable e) {
            return "(its getMessage() threw " + e.getClass().getName() + ")";
        }
    }

    /** {@code t.toString()}, or {@code t}'s class name and what that threw. */
    static String describe(Throwable t) {
        try {
            return t.toString();
        } catch (Throwable e) {
            return t.getClass().getName() + " (its toString() threw " + e.getClass().getName() + ")";
        }
    }

    /** {@code t}'s message, else its {@code toString()}; its class name and what threw if those throw. */
    static String messageOrDescription(Throwable t) {
        try {
            return t.getMessage() != null ? t.getMessage() : t.toString();
        } catch (Throwable e) {
            return t.getClass().getName() + " (its message threw " + e.getClass().getName() + ")";
        }
    }
}
