/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import java.util.List;

/**
 * The live tasks that held their workers longest and that were woken most, from
 * {@link AsyncRuntime#busiestTasks}. Both lists are immutable and hold at most the number of
 * tasks asked for; a task may be in both.
 *
 * @param longestPolls the tasks by longest single poll, longest first
 * @param mostWoken the tasks by wake-ups, most first
 * @param examined the live-task entries looked at to find them (bounded by
 *     {@link AsyncRuntime#MAX_TASKS_EXAMINED}; tasks beyond the bound are not considered)
 */
public record BusiestTasks(List<TaskStats> longestPolls, List<TaskStats> mostWoken, int examined) {

    /**
     * Copies the lists, so the record stays immutable.
     *
     * @param longestPolls the tasks by longest single poll, longest first
     * @param mostWoken the tasks by wake-ups, most first
     * @param examined the live-task entries looked at to find them
     * @throws NullPointerException if a list or one of its elements is null
     */
    public BusiestTasks {
        longestPolls = List.copyOf(longestPolls);
        mostWoken = List.copyOf(mostWoken);
    }
}
