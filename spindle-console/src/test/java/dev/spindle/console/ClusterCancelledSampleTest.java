/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.ClusterFuture;
import dev.spindle.cluster.LocalCluster;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A cluster's sample counts the tasks a cancel kept from running ({@code ClusterStats.tasksCancelled()}),
 * as it counts the ones that erred or were released: the page showed none of them, so a cancel
 * that forgot a task left no trace there.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClusterCancelledSampleTest {

    private static final Pattern CANCELLED = Pattern.compile("\"cancelled\":(\\d+)");

    @Test
    void aTaskCancelledBeforeItStartedIsCounted() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(1).threadsPerWorker(1)
                .latency(Duration.ZERO).stealing(false).balanceInterval(Duration.ZERO).build()) {
            ClusterSource source = new ClusterSource("c", cluster);
            assertThat(cancelled(source)).isZero();
            CountDownLatch gate = new CountDownLatch(1);
            ClusterFuture<Integer> input = cluster.client().submit("input", args -> {
                gate.await(30, TimeUnit.SECONDS);
                return 1;
            });
            // waits for its input, so it is on no worker yet: the cancel forgets it at once
            ClusterFuture<Integer> after = cluster.client().submit("after", args -> (Integer) args.get(0) + 1, input);
            assertThat(after.cancel(false)).isTrue();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (cancelled(source) == 0 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertThat(cancelled(source)).as("'after', forgotten unstarted").isEqualTo(1);
            gate.countDown();
            assertThat(input.get(30, TimeUnit.SECONDS)).isEqualTo(1);
            assertThat(cancelled(source)).as("'input' ran: not counted").isEqualTo(1);
        }
    }

    private static long cancelled(ClusterSource source) {
        StringBuilder sb = new StringBuilder();
        source.sample(sb, System.nanoTime(), new ThreadCpu());
        Matcher m = CANCELLED.matcher(sb);
        assertThat(m.find()).as("a count of cancelled tasks in %s", sb).isTrue();
        return Long.parseLong(m.group(1));
    }
}
