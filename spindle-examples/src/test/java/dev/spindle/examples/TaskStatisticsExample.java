/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.examples;

import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.BusiestTasks;

/** docs/OBSERVABILITY.md, "Async task statistics": the runtime is returned for the caller to close. */
final class TaskStatisticsExample {
    private TaskStatisticsExample() {
    }

    static AsyncRuntime run() {
        AsyncRuntime rt = AsyncRuntime.builder().taskStatistics(true).build();   // from the start
        rt.enableTaskStatistics();                                                 // or later; stays on
        BusiestTasks b = rt.busiestTasks(10);
        b.longestPolls();   // TaskStats, longest single poll first
        b.mostWoken();      // TaskStats, most wake-ups first
        return rt;
    }
}
