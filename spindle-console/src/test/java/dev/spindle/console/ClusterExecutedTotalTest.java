/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.ClusterFuture;
import dev.spindle.cluster.LocalCluster;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The console's total of tasks a cluster executed is the cluster's own count,
 * {@code ClusterStats.tasksExecuted()}, which never goes down: the page summed the workers'
 * {@code executed} instead, and a worker restarted under its id (as for a crashed worker JVM)
 * starts its slot again from zero, so the total shown fell by all that the lost incarnation ran.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClusterExecutedTotalTest {

    private static final Pattern TOTAL = Pattern.compile("\"tasksExecuted\":(\\d+)");

    @Test
    void theExecutedTotalSentDoesNotGoDownWhenAWorkerIsRestartedUnderItsId() throws Exception {
        LocalCluster cluster = LocalCluster.builder().workers(2).threadsPerWorker(1)
                .latency(Duration.ZERO).bandwidth(1e12).stealing(false).balanceInterval(Duration.ZERO).build();
        try {
            ClusterSource source = new ClusterSource("c", cluster);
            ClusterFuture<byte[]> data = cluster.client().scatter("data", new byte[10], 1);
            ClusterFuture<Integer> len = cluster.client().submit("len", in -> ((byte[]) in.get(0)).length, data);
            assertThat(len.get(10, TimeUnit.SECONDS)).isEqualTo(10);
            assertThat(cluster.stats().workers().get(1).executed()).as("worker 1 ran the task").isPositive();
            long before = total(source);
            assertThat(before).as("executed before the restart").isPositive();

            cluster.killWorker(1);
            cluster.restartWorker(1);

            assertThat(total(source)).as("executed after the restart (before: %s)", before)
                    .isGreaterThanOrEqualTo(before);
        } finally {
            cluster.close();
        }
    }

    /** The cluster's executed total in one sample of {@code source}. */
    private static long total(ClusterSource source) {
        StringBuilder sb = new StringBuilder();
        source.sample(sb, System.nanoTime(), new ThreadCpu());
        Matcher m = TOTAL.matcher(sb);
        assertThat(m.find()).as("a total of tasks executed in %s", sb).isTrue();
        return Long.parseLong(m.group(1));
    }
}
