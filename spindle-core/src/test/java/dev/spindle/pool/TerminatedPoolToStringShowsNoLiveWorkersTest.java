/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A terminated pool's stats report no live worker ({@code PoolCore.snapshot}), but
 * {@link WorkStealingPool#toString()} read the spare manager's count, which never drops below the
 * core workers: a terminated pool showed {@code live=2} beside {@code terminated}, and its stats
 * {@code live=0}. The two must agree.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TerminatedPoolToStringShowsNoLiveWorkersTest {

    @Test
    void aTerminatedWorkStealingPoolShowsNoLiveWorkerAsItsStatsDo() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(2).build();
        assertThat(pool.submit(() -> 1).get(10, TimeUnit.SECONDS)).isEqualTo(1);
        assertThat(pool.toString()).as("running").contains("running").contains("live=2");

        pool.shutdown();
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();

        assertThat(pool.stats().liveWorkers()).isZero();
        assertThat(pool.toString()).contains("terminated").contains("live=0");
    }
}
