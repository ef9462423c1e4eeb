/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code spindle demo} printed the pool's stats only after it had terminated, when a pool reports
 * no live, blocked or parked worker: every demo said "live workers 0" of the pool that had just
 * run fib on two workers. The workers' figures must be those of the running pool, and the
 * counters (complete only once the pool has terminated) said to be taken after shutdown.
 *
 * <p>The running pool may hold more live workers than its parallelism: a join that waits longer
 * than {@code Worker.COMPENSATE_AFTER_NANOS} (a thief preempted on a busy machine) starts a spare,
 * which is still live when the computation ends. Asserting exactly two failed a CI run that way
 * ("live workers 3"); the figure must be the running pool's, at least its parallelism.
 */
class DemoShowsWorkersAsTheyWereWhileRunningTest {

    @Test
    void theDemoShowsTheLiveWorkersOfTheRunningPoolAndSaysWhenItsCountersWereRead() {
        CliOutcome r = CliOutcome.run("demo", "--workers", "2", "--n", "18");
        assertThat(r.exit()).as(r.err()).isZero();
        String header = r.out().lines().filter(l -> l.startsWith("pool demo")).findFirst().orElseThrow();
        Matcher live = Pattern.compile("parallelism (\\d+), live workers (\\d+),").matcher(header);
        assertThat(live.find()).as(header).isTrue();
        assertThat(Integer.parseInt(live.group(1))).isEqualTo(2);
        assertThat(Integer.parseInt(live.group(2))).as(header).isGreaterThanOrEqualTo(2);
        assertThat(r.out()).contains("after shutdown");
        // the counters are still the final ones: every spawned task and the root ran exactly once
        assertThat(r.out().lines().filter(l -> l.startsWith("total")).findFirst().orElseThrow()).contains("4,181");
    }
}
