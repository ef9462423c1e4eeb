/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.testkit.Await;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The scheduler's task records with {@code forgetReleased}: a long-running cluster must not keep
 * one record per task ever submitted. Records counts are read from the scheduler itself.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ForgetReleasedTest {

    private LocalCluster cluster;

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private Client start(boolean forget) {
        cluster = LocalCluster.builder().workers(2).threadsPerWorker(1).latency(Duration.ZERO).stealing(false)
                .forgetReleased(forget).build();
        return cluster.client();
    }


    @Test
    void releasedTasksNothingDependsOnAreForgotten() throws Exception {
        Client client = start(true);
        for (int i = 0; i < 500; i++) {
            int v = i;
            try (ClusterFuture<Integer> f = client.submit("once-" + i, args -> v)) {
                assertThat(f.get()).isEqualTo(i);
            }
        }
        Await.until("every record is forgotten", () -> cluster.taskRecords() == 0);
        assertThat(cluster.stats().tasksReleased()).isEqualTo(500);
        // a forgotten key is unknown again: it may be submitted anew, not depended on by key
        assertThat(client.submit("once-0", args -> 7).get()).isEqualTo(7);
        assertThatThrownBy(() -> client.submit(TaskSpec.builder("by-key", args -> 0).dependsOn("once-1").build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown key 'once-1'");
    }

    @Test
    void aDependencyIsKeptWhileADependentsRecordIsKeptThenForgottenWithIt() throws Exception {
        Client client = start(true);
        ClusterFuture<Integer> a = client.submit("a", args -> 1);
        ClusterFuture<Integer> b = client.submit("b", args -> (Integer) args.get(0) + 1, a);
        ClusterFuture<Integer> c = client.submit("c", args -> (Integer) args.get(0) + 1, b);
        assertThat(c.get()).isEqualTo(3);
        a.release();
        b.release();
        Await.until("a and b are released", () -> cluster.stats().tasksReleased() == 2);
        assertThat(cluster.taskRecords()).as("c may be lost and recomputed from b, and b from a").isEqualTo(3);
        c.release();
        Await.until("the whole chain is forgotten", () -> cluster.taskRecords() == 0);
    }

    @Test
    void withoutTheSettingEveryRecordStaysAsBefore() throws Exception {
        Client client = start(false);
        for (int i = 0; i < 20; i++) {
            int v = i;
            try (ClusterFuture<Integer> f = client.submit("kept-" + i, args -> v)) {
                f.get();
            }
        }
        Await.until("every result is released", () -> cluster.stats().tasksReleased() == 20);
        assertThat(cluster.taskRecords()).isEqualTo(20);
        assertThat(client.submit(TaskSpec.builder("again", args -> (Integer) args.get(0) + 1).dependsOn("kept-3")
                .build()).get()).isEqualTo(4);
    }
}
