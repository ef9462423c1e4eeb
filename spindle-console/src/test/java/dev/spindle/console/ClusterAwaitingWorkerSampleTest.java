/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.ClusterFuture;
import dev.spindle.cluster.LocalCluster;
import dev.spindle.cluster.Restrictions;
import dev.spindle.cluster.TaskSpec;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A cluster's sample counts the tasks waiting for a worker to join (ready, but no live worker may
 * run them), so that a page shows work held up by a worker that is down.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClusterAwaitingWorkerSampleTest {

    private static final Pattern AWAITING = Pattern.compile("\"awaitingWorker\":(\\d+)");

    @Test
    void aTaskWaitingForItsWorkerIsCountedUntilTheWorkerRejoins() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(2).threadsPerWorker(1).stealing(false)
                .balanceInterval(Duration.ZERO).noWorkerTimeout(Duration.ofSeconds(50)).build()) {
            ClusterSource source = new ClusterSource("c", cluster);
            cluster.killWorker(1);
            ClusterFuture<Integer> g = cluster.client().submit(TaskSpec.builder("g", args -> 3)
                    .restrictions(Restrictions.strict(Set.of(1))).build());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (awaiting(source) == 0 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertThat(awaiting(source)).as("g waits for worker 1").isEqualTo(1);
            cluster.restartWorker(1);
            assertThat(g.get(30, TimeUnit.SECONDS)).isEqualTo(3);
            assertThat(awaiting(source)).isZero();
        }
    }

    private static long awaiting(ClusterSource source) {
        StringBuilder sb = new StringBuilder();
        source.sample(sb, System.nanoTime(), new ThreadCpu());
        Matcher m = AWAITING.matcher(sb);
        assertThat(m.find()).as("a count of tasks awaiting a worker in %s", sb).isTrue();
        return Long.parseLong(m.group(1));
    }
}
