/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.jmh;

import dev.spindle.bench.runtime.BenchRuntime;
import dev.spindle.bench.runtime.RuntimeKind;
import dev.spindle.bench.runtime.Runtimes;

/** Creating and closing the runtime a benchmark state holds. */
final class RuntimeState {

    private RuntimeState() {
    }

    /**
     * Creates and prestarts the runtime {@code id} with {@code workers} threads, or one per
     * available processor when {@code workers <= 0}.
     */
    static BenchRuntime open(String id, int workers) {
        int n = workers > 0 ? workers : Runtime.getRuntime().availableProcessors();
        BenchRuntime rt = Runtimes.create(RuntimeKind.byId(id), n);
        rt.prestart();
        return rt;
    }
}
