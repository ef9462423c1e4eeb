/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.bench.runtime.BenchRuntime;
import dev.spindle.bench.runtime.RuntimeKind;
import dev.spindle.bench.runtime.Runtimes;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProbesTest {

    @ParameterizedTest
    @EnumSource(RuntimeKind.class)
    void latencyProbeRecordsOneSamplePerTask(RuntimeKind kind) {
        try (BenchRuntime rt = Runtimes.create(kind, 2)) {
            rt.prestart();
            Histogram h = SubmitLatencyProbe.newHistogram();
            new SubmitLatencyProbe(TimeUnit.MICROSECONDS.toNanos(50)).measure(rt, 40, h);
            assertThat(h.getTotalCount()).isEqualTo(40);
            assertThat(h.getMinValue()).isGreaterThanOrEqualTo(0);
            assertThat(SubmitLatencyProbe.micros(h, 50)).isLessThanOrEqualTo(SubmitLatencyProbe.micros(h, 99.9));
        }
    }

    @ParameterizedTest
    @EnumSource(RuntimeKind.class)
    void idleCpuProbeSeesThePoolThreads(RuntimeKind kind) {
        IdleCpuProbe.Result r = new IdleCpuProbe(20, 100).measure(kind, 2);
        assertThat(r.runtime()).isEqualTo(kind);
        assertThat(r.threads()).isEqualTo(2);
        assertThat(r.windowNanos()).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(100));
        assertThat(r.percentOfCore()).isBetween(0.0, 200.0 + 1e-9);
    }
}
