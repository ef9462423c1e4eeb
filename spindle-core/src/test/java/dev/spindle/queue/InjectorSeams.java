/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.queue;

/** Sets {@link Injector}'s package-private test seams from tests in other packages. */
public final class InjectorSeams {

    private InjectorSeams() {
    }

    /** Sets (or, with {@code null}, clears) {@code Injector.beforeNewSegment}. */
    public static void beforeNewSegment(Runnable hook) {
        Injector.beforeNewSegment = hook;
    }
}
