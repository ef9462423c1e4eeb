/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.workload;

import dev.spindle.bench.runtime.BenchRuntime;
import dev.spindle.bench.runtime.RuntimeKind;

/**
 * A message-passing workload: tasks only submit other tasks through
 * {@link BenchRuntime#execute(Runnable)} and never wait for one, so it runs on every runtime,
 * a {@code ThreadPoolExecutor} included. Completion is counted with atomics and signalled to
 * the calling thread with a latch.
 */
public abstract class MessageWorkload implements Workload {

    @Override
    public final boolean supports(RuntimeKind kind) {
        return true;
    }

    @Override
    public final long run(BenchRuntime rt) {
        Checks.requireSupported(this, rt);
        return Checks.expect(describe() + " on " + rt.kind(), expected(), runUnchecked(rt));
    }

    /** The known answer. */
    public abstract long expected();

    /** Runs once and returns what was computed, unchecked. */
    protected abstract long runUnchecked(BenchRuntime rt);
}
