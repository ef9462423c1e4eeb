/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Timeout;

/**
 * End-to-end checks of the stealing behaviours taken from Dask distributed, with the numbers of
 * its own cases: steal counts and placements are asserted, never wall-clock times.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DaskStealingTest {

    private LocalCluster cluster;

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static TaskFunction<Integer> sleeping(long millis, int value) {
        return args -> {
            Thread.sleep(millis);
            return value;
        };
    }

    /**
     * n tasks of 250 ms piled on one of two workers of {@code threads} threads each: one round
     * moves half of them, as Dask's balance() does, so each worker runs n / 2 tasks on its n / 2
     * threads and the job takes one task's time, its lower bound.
     */
    @ParameterizedTest(name = "{0} threads per worker, {1} tasks")
    @CsvSource({"2, 4", "4, 8"})
    void anIdleMultiThreadedWorkerTakesHalfTheBacklog(int threads, int n) throws Exception {
        cluster = LocalCluster.builder().workers(2).threadsPerWorker(threads).latency(Duration.ZERO)
                .bandwidth(1e12).stealing(false).balanceInterval(Duration.ZERO).build();
        Client client = cluster.client();
        List<ClusterFuture<Integer>> fs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            fs.add(client.submit(TaskSpec.builder("backlog" + threads + "-" + i, sleeping(250, i))
                    .restrictions(Restrictions.loose(Set.of(0))).durationHint(Duration.ofMillis(250)).build()));
        }
        assertThat(cluster.rebalance()).isEqualTo(n / 2);
        assertThat(client.gather(fs)).hasSize(n);
        ClusterStats stats = cluster.stats();
        assertThat(stats.stealsConfirmed()).isEqualTo(n / 2);
        assertThat(stats.workers()).extracting(ClusterStats.WorkerStats::executed)
                .containsExactly((long) n / 2, (long) n / 2);
    }
}
