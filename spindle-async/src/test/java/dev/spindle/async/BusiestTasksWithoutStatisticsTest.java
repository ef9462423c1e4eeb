/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link AsyncRuntime#busiestTasks} promises empty lists while task statistics are off. A flight
 * recording that enables {@code dev.spindle.LongPoll} (from JMC, say, or {@code spindle.jfc})
 * gives every task spawned meanwhile an insight, for its spawn site, and busiestTasks listed
 * those tasks, with no polls and no poll time: a "longest polls" list of zeros ordered by id,
 * which the console showed as if it were measured.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BusiestTasksWithoutStatisticsTest {

    @Test
    void aLongPollRecordingDoesNotListTasksWhileStatisticsAreOff() throws Exception {
        try (Recording r = new Recording()) {
            r.enable("dev.spindle.LongPoll").withThreshold(Duration.ofSeconds(10));
            r.start();
            try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).name("busiest-off").build()) {
                TaskStatisticsTest.Parked parked = new TaskStatisticsTest.Parked();
                rt.spawn(parked);
                while (parked.polls.get() < 1) {
                    Thread.onSpinWait();       // the test's timeout bounds it
                }
                assertThat(rt.taskStatisticsEnabled()).isFalse();
                BusiestTasks b = rt.busiestTasks(10);
                assertThat(b.longestPolls()).as("statistics are off").isEmpty();
                assertThat(b.mostWoken()).as("statistics are off").isEmpty();
            } finally {
                r.stop();
            }
        }
    }
}
