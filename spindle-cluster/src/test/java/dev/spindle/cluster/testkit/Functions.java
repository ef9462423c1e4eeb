/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.testkit;

import dev.spindle.cluster.TaskFunction;
import java.util.List;

/** Task functions compiled in a package the tests' allow-lists admit, for the codec's tests. */
public final class Functions {

    private Functions() {
    }

    /** {@code args -> v + scale * |name|}: a lambda capturing scalars only. */
    public static TaskFunction<Long> plus(long v, int scale, String name) {
        return args -> v + (long) scale * name.length();
    }

    /** A lambda capturing a list (not a scalar). */
    public static TaskFunction<Integer> sizeOf(List<Integer> list) {
        return args -> list.size();
    }

    /** A lambda capturing nothing. */
    public static TaskFunction<String> constant() {
        return args -> "constant";
    }
}
