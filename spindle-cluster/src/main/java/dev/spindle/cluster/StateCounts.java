/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

/**
 * How many of the scheduler's task records (one per key, the map GraphScheduler keeps) are in
 * MEMORY and how many ERRED, kept as a record changes state ({@link TaskState#setState}) and as
 * records enter and leave that map, so that the stats read two numbers: the console and the meters
 * ask for the stats every second, and a walk of every record on the scheduler thread at each ask
 * grew with the graph. Scheduler thread only; checked against a walk of the records by
 * GraphScheduler's checkCounts.
 */
final class StateCounts {

    int inMemory;
    int erred;

    /** Counts a record in {@code state} {@code delta} more times (+1 in, -1 out). */
    void count(TaskState.State state, int delta) {
        if (state == TaskState.State.MEMORY) {
            inMemory += delta;
        } else if (state == TaskState.State.ERRED) {
            erred += delta;
        }
    }
}
