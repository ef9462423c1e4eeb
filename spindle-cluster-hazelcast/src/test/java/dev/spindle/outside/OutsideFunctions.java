/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.outside;

import dev.spindle.cluster.TaskFunction;

/** Task functions declared in a package that the test cluster does not allow. */
public final class OutsideFunctions {

    private OutsideFunctions() {
    }

    /** A function whose lambda class lives in this package. */
    public static TaskFunction<Integer> constant(int value) {
        return args -> value;
    }
}
