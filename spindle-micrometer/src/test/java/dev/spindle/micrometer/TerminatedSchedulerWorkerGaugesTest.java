/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.async.AsyncRuntime;
import dev.spindle.pool.WorkSharingPool;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A terminated scheduler has no worker left, but its {@code workers} gauge read the size of its
 * worker array, the last live count, for as long as the scheduler was reachable (a dashboard
 * showed a closed pool as running). Its meters stay registered until a replacement is bound, so
 * the gauges must read 0.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TerminatedSchedulerWorkerGaugesTest {

    private final MeterRegistry registry = new SimpleMeterRegistry();

    private double gauge(String name, String tag, String value) {
        return registry.get(name).tag(tag, value).gauge().value();
    }

    @Test
    void aTerminatedPoolsWorkerGaugesReadZero() throws Exception {
        WorkSharingPool pool = WorkSharingPool.builder().workers(2).name("ended").build();
        SchedulerMetrics.of(pool).bindTo(registry);
        assertThat(gauge("spindle.pool.workers", "pool", "ended")).as("while it runs").isEqualTo(2.0);

        pool.shutdown();
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();

        assertThat(gauge("spindle.pool.workers", "pool", "ended")).as("workers, terminated").isEqualTo(0.0);
        assertThat(gauge("spindle.pool.workers.active", "pool", "ended")).isEqualTo(0.0);
        assertThat(gauge("spindle.pool.workers.spare", "pool", "ended")).isEqualTo(0.0);
        assertThat(gauge("spindle.pool.parallelism", "pool", "ended")).as("the configured target").isEqualTo(2.0);
    }

    @Test
    void aTerminatedAsyncRuntimesWorkerGaugeReadsZero() {
        AsyncRuntime runtime = AsyncRuntime.builder().workers(2).name("rt-ended").build();
        SchedulerMetrics.of(runtime).bindTo(registry);
        assertThat(gauge("spindle.async.workers", "runtime", "rt-ended")).as("while it runs").isEqualTo(2.0);

        runtime.close();                               // joins the workers
        assertThat(runtime.isTerminated()).isTrue();

        assertThat(gauge("spindle.async.workers", "runtime", "rt-ended")).as("workers, terminated").isEqualTo(0.0);
        assertThat(gauge("spindle.async.workers.active", "runtime", "rt-ended")).isEqualTo(0.0);
    }
}
