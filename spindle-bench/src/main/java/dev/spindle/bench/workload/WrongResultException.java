/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.workload;

/** A workload computed a value other than the known answer. */
public final class WrongResultException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final long expected;
    private final long actual;

    public WrongResultException(String what, long expected, long actual) {
        super(what + ": expected " + expected + " but computed " + actual);
        this.expected = expected;
        this.actual = actual;
    }

    public long expected() {
        return expected;
    }

    public long actual() {
        return actual;
    }
}
