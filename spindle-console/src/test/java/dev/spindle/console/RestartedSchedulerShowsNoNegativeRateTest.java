/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.SchedulerStats;
import dev.spindle.SchedulerStats.WorkerStats;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A stats supplier may read whichever scheduler is current ({@code () -> holder.get().stats()}),
 * and a scheduler restarted under its name counts from zero again. The rates were taken from the
 * old scheduler's last reading to the new one's first: the page showed thousands of tasks, steals
 * and parks a second below zero, for the scheduler and each worker. A counter that went down says
 * nothing of the interval: no rate, as before a first reading.
 */
class RestartedSchedulerShowsNoNegativeRateTest {

    @Test
    void countersThatWentDownGiveNoRate() {
        AtomicReference<SchedulerStats> current = new AtomicReference<>(stats(50_000));
        SchedulerSource source = new SchedulerSource("p", current::get);
        source.sample(new StringBuilder(), 0, new ThreadCpu());
        source.delivered();              // each sample sent, as the console does

        current.set(stats(10));          // restarted: its counters start again
        StringBuilder sb = new StringBuilder();
        source.sample(sb, TimeUnit.SECONDS.toNanos(1), new ThreadCpu());
        source.delivered();
        assertThat(sb.toString()).as("%s", sb).doesNotContain("PerSec\":-")
                .contains("\"stealsPerSec\":null").contains("\"donePerSec\":null").contains("\"parksPerSec\":null");

        current.set(stats(110));         // from the new scheduler's own readings on, rates again
        sb.setLength(0);
        source.sample(sb, TimeUnit.SECONDS.toNanos(2), new ThreadCpu());
        assertThat(sb.toString()).as("%s", sb).contains("\"donePerSec\":100,").doesNotContain("PerSec\":null");
    }

    private static SchedulerStats stats(long count) {
        return new SchedulerStats("p", 1, 1, 0, 0, List.of(new WorkerStats(0, false, count, 0, 0, count, 0, 0, count, 0)));
    }
}
