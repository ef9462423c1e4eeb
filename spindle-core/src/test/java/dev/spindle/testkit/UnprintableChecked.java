/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.testkit;

/** The checked sibling of {@link Unprintable}: {@code toString()} and {@code getMessage()} throw. */
public final class UnprintableChecked extends Exception {

    private static final long serialVersionUID = 1L;

    @Override
    public String toString() {
        throw new IllegalArgumentException("toString() of an UnprintableChecked");
    }

    @Override
    public String getMessage() {
        throw new IllegalArgumentException("getMessage() of an UnprintableChecked");
    }
}
