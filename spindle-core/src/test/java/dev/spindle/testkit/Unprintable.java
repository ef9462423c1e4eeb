/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.testkit;

/**
 * An unchecked exception that cannot be printed: its {@code toString()} and {@code getMessage()}
 * throw. A task failing with one tests that a runtime never prints a user's exception on the
 * way to reporting it (the JDK's cause constructors do, and a wrapper made with one would throw
 * the printing's failure in place of the task's).
 */
public final class Unprintable extends RuntimeException {

    private static final long serialVersionUID = 1L;

    @Override
    public String toString() {
        throw new IllegalArgumentException("toString() of an Unprintable");
    }

    @Override
    public String getMessage() {
        throw new IllegalArgumentException("getMessage() of an Unprintable");
    }
}
