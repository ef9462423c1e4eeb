/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.SchedulerStats;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A closed runtime has no worker thread left, so its snapshot must report no live worker, as a
 * terminated pool's does. It reported the length of its worker array, so the console, the
 * command-line demo and any other reader of {@code stats()} showed its workers as live for as
 * long as it was reachable.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TerminatedRuntimeStatsTest {

    @Test
    void aClosedRuntimeReportsNoLiveWorker() {
        AsyncRuntime rt = AsyncRuntime.builder().workers(2).name("stats-terminated").build();
        String result = rt.run(cx -> Poll.ready("x"));
        assertThat(result).isEqualTo("x");
        assertThat(rt.stats().liveWorkers()).as("while it runs").isEqualTo(2);

        rt.close();                                    // joins the workers
        assertThat(rt.isTerminated()).isTrue();

        SchedulerStats s = rt.stats();
        assertThat(s.liveWorkers()).as("live workers of a terminated runtime: %s", s).isZero();
        assertThat(s.activeWorkers()).isZero();
        assertThat(s.parkedWorkers()).isZero();
        assertThat(s.searchingWorkers()).isZero();
        assertThat(s.parallelism()).as("the configured worker count stays").isEqualTo(2);
        assertThat(s.workers()).as("the workers' counters stay").hasSize(2);
        assertThat(s.polls()).as("the poll counted").isGreaterThanOrEqualTo(1);
    }
}
