/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@code spindle demo} printed the pool's stats only after it had terminated, when a pool reports
 * no live, blocked or parked worker: every demo said "live workers 0" of the pool that had just
 * run fib on two workers. The workers' figures must be those of the running pool, and the
 * counters (complete only once the pool has terminated) said to be taken after shutdown.
 */
class DemoShowsWorkersAsTheyWereWhileRunningTest {

    @Test
    void theDemoShowsTheLiveWorkersOfTheRunningPoolAndSaysWhenItsCountersWereRead() {
        CliOutcome r = CliOutcome.run("demo", "--workers", "2", "--n", "18");
        assertThat(r.exit()).as(r.err()).isZero();
        String header = r.out().lines().filter(l -> l.startsWith("pool demo")).findFirst().orElseThrow();
        assertThat(header).contains("live workers 2").doesNotContain("live workers 0");
        assertThat(r.out()).contains("after shutdown");
        // the counters are still the final ones: every spawned task and the root ran exactly once
        assertThat(r.out().lines().filter(l -> l.startsWith("total")).findFirst().orElseThrow()).contains("4,181");
    }
}
