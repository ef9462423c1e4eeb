/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Set;

/** The scheduler's record of one worker. Mutated on the scheduler thread only. */
final class WorkerState {

    final int id;
    final int threads;
    final Set<TaskState> processing = new LinkedHashSet<>();
    final Set<String> holds = new HashSet<>();
    boolean alive = true;

    WorkerState(int id, int threads) {
        this.id = id;
        this.threads = threads;
    }

    @Override
    public String toString() {
        return "worker-" + id;
    }
}
