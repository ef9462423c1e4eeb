/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * ClusterBench's makespan table: each cell is the median of its rounds, an even count included
 * (failed before its fix: docs/measurements/2026-11-29-s26/bench-harness-review-before-after.txt).
 */
class ClusterBenchRegressionTest {

    @Test
    void theMedianOfAnEvenNumberOfRoundsIsTheMeanOfTheMiddleTwo() {
        // ClusterBench 2 (or 4): the upper middle value was taken, for 2 rounds the slower one
        assertThat(ClusterBench.median(new double[] {0.500, 0.250})).isEqualTo(0.375);
        assertThat(ClusterBench.median(new double[] {4.0, 1.0, 3.0, 2.0})).isEqualTo(2.5);
    }

    @Test
    void theMedianOfAnOddNumberOfRoundsIsTheMiddleOne() {
        assertThat(ClusterBench.median(new double[] {3.0, 1.0, 2.0})).isEqualTo(2.0);
        assertThat(ClusterBench.median(new double[] {7.0})).isEqualTo(7.0);
    }
}
