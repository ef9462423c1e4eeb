/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.SchedulerStats;
import org.junit.jupiter.api.Test;

/**
 * The fork/join worker counts the tasks it takes, while joining, from the worker running the
 * awaited task ({@code Worker.runnerHelps}), but {@link SchedulerStats} did not report the count:
 * no accessor, and not in the snapshot's {@code toString} (with the accessors left out, the
 * joiner's line in {@code HelpingJoinTest.aJoinerRunsTheSubtasksOfTheTaskAPeerStole}, which now
 * checks the snapshot, lacked {@code runnerHelps=1}). Here: the schedulers that do not help.
 */
class StatsRegressionTest {

    /** Schedulers that do not help report zero, and the eleven-counter constructor counts none. */
    @Test
    void schedulersThatDoNotHelpReportZero() {
        try (WorkSharingPool pool = WorkSharingPool.builder().workers(1).build()) {
            assertThat(pool.stats().runnerHelps()).isZero();
        }
        assertThat(new SchedulerStats.WorkerStats(0, false, 1, 0, 0, 1, 0, 0, 1, 0, 1).runnerHelps()).isZero();
    }
}
