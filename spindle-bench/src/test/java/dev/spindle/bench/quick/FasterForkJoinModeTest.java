/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.quick;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.bench.runtime.RuntimeKind;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The baseline {@code ./spindle bench} compares Spindle with is the faster ForkJoinPool mode of
 * the warm-up rounds: the lower median time (the higher throughput), not the lower mean, first
 * sample or last.
 */
class FasterForkJoinModeTest {

    /** FIFO's median 9 ms beats LIFO's 10 ms, though LIFO has the single fastest sample and the lower mean. */
    @Test
    void theModeWithTheLowerMedianTimeIsChosen() {
        Map<RuntimeKind, List<Double>> warm = Map.of(
                RuntimeKind.SPINDLE, List.of(1.0, 1.0, 1.0),
                RuntimeKind.FJP, List.of(10.0, 2.0, 10.0),
                RuntimeKind.FJP_ASYNC, List.of(9.0, 9.0, 9.5));
        assertThat(QuickHarness.fasterForkJoinMode(warm)).isEqualTo(RuntimeKind.FJP_ASYNC);
    }

    /** An even count of samples: medians 4.5 (LIFO) against 5 (FIFO). */
    @Test
    void evenCountsAreComparedByTheirMedians() {
        Map<RuntimeKind, List<Double>> warm = Map.of(
                RuntimeKind.FJP, List.of(3.0, 6.0, 4.0, 5.0),
                RuntimeKind.FJP_ASYNC, List.of(5.0, 5.0, 1.0, 9.0));
        assertThat(QuickHarness.fasterForkJoinMode(warm)).isEqualTo(RuntimeKind.FJP);
    }

    @Test
    void aTieKeepsTheDefaultLifoMode() {
        Map<RuntimeKind, List<Double>> warm = Map.of(
                RuntimeKind.FJP, List.of(2.0, 4.0),
                RuntimeKind.FJP_ASYNC, List.of(3.0, 3.0));
        assertThat(QuickHarness.fasterForkJoinMode(warm)).isEqualTo(RuntimeKind.FJP);
    }
}
