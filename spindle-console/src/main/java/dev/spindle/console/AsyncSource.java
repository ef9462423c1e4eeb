/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.BusiestTasks;
import dev.spindle.async.TaskStats;
import java.util.List;

/**
 * An async runtime: what {@link SchedulerSource} shows for it, and the tasks with the longest
 * polls and the most wake-ups ({@link AsyncRuntime#busiestTasks}), as tokio-console lists them.
 * Task class names and spawn sites come from the application: they are escaped like every
 * string in the JSON, and cut to {@value Source#MAX_TEXT} characters so a sample stays bounded.
 */
final class AsyncSource extends SchedulerSource {

    /** Tasks sent per table and sample. */
    static final int TASKS = 10;

    private final AsyncRuntime runtime;

    AsyncSource(String name, AsyncRuntime runtime) {
        super(name, runtime::stats);
        this.runtime = runtime;
    }

    @Override
    void moreFields(StringBuilder sb) {
        BusiestTasks b = runtime.busiestTasks(TASKS);
        Json.key(sb, "taskStatistics").append(runtime.taskStatisticsEnabled()).append(',');
        tasks(sb, "longestPolls", b.longestPolls());
        tasks(sb, "mostWoken", b.mostWoken());
    }

    /** Appends {@code "key":[...],} with one object per task. */
    static void tasks(StringBuilder sb, String key, List<TaskStats> tasks) {
        Json.array(sb, key, tasks, (o, t) -> {
            Json.field(o, "id", t.id());
            Json.field(o, "taskClass", clip(t.taskClass()));
            if (t.spawnSite() != null) {
                Json.field(o, "spawnSite", clip(t.spawnSite()));
            }
            Json.field(o, "state", t.state().name());
            Json.field(o, "polls", t.polls());
            Json.field(o, "longestNanos", t.longestPollNanos());
            Json.field(o, "meanNanos", t.meanPollNanos());
            Json.field(o, "wakes", t.wakes());
        });
    }
}
