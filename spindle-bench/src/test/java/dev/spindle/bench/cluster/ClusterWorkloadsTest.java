/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.bench.workload.Size;
import dev.spindle.bench.workload.WrongResultException;
import dev.spindle.cluster.ClusterFuture;
import dev.spindle.cluster.LocalCluster;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClusterWorkloadsTest {

    @Test
    void everyShapeComputesTheKnownAnswer() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(2).threadsPerWorker(2).build()) {
            for (String shape : ClusterWorkloads.SHAPES) {
                ClusterWorkloads.Prepared p = ClusterWorkloads.shape(shape, cluster.client(), "t-", Size.TINY);
                for (ClusterFuture<?> f : p.submit()) {
                    f.get(30, TimeUnit.SECONDS);
                }
                p.check();
            }
        }
    }

    /** Each shape's check reads the results, so a result other than the known answer fails the run. */
    @Test
    @SuppressWarnings("unchecked")
    void aWrongResultFailsTheCheck() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(2).build()) {
            ClusterWorkloads.Checked<Long> tiny = (ClusterWorkloads.Checked<Long>) ClusterWorkloads.tiny(cluster.client(), "a-", 3);
            tiny.check(List.of(1L, 2L, 3L));
            assertThatThrownBy(() -> tiny.check(List.of(1L, 2L, 4L))).isInstanceOf(WrongResultException.class)
                    .hasMessageContaining("sum of inc(i)").hasMessageContaining("expected 6 but computed 7");
            ClusterWorkloads.Checked<Long> tree = (ClusterWorkloads.Checked<Long>) ClusterWorkloads.treeReduction(
                    cluster.client(), "b-", 4, 0);
            assertThatThrownBy(() -> tree.check(List.of(0L, 1L, 2L, 3L, 1L, 5L, 7L)))
                    .isInstanceOf(WrongResultException.class).hasMessageContaining("tree sum");
            ClusterWorkloads.Checked<Long> shuffle = (ClusterWorkloads.Checked<Long>) ClusterWorkloads.shuffle(
                    cluster.client(), "c-", 2, 1);
            shuffle.check(List.of(0L + 31, 1L + 32));
            assertThatThrownBy(() -> shuffle.check(List.of(31L, 31L))).isInstanceOf(WrongResultException.class)
                    .hasMessageContaining("combine 1");
            ClusterWorkloads.Checked<Integer> skewed = (ClusterWorkloads.Checked<Integer>) ClusterWorkloads.skewedSlow(
                    cluster.client(), "d-", 2, 1);
            assertThatThrownBy(() -> skewed.check(List.of(100, 100))).isInstanceOf(WrongResultException.class)
                    .hasMessageContaining("seed + i");
        }
    }

    @Test
    void unknownShapeIsRefusedByName() {
        assertThatThrownBy(() -> ClusterWorkloads.shape("ring", null, "t-", Size.TINY))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown shape 'ring'")
                .hasMessageContaining("tiny, tree, skewed, shuffle");
    }

    @Test
    void tcpBytesSumsTheSocketsOfTheGivenProcessesOnly() {
        String ss = "0 0 127.0.0.1:5701 127.0.0.1:40000 users:((\"java\",pid=11,fd=3))\n"
                + "\t cubic bytes_sent:100 bytes_acked:100 bytes_received:7\n"
                + "0 0 127.0.0.1:5702 127.0.0.1:40001 users:((\"java\",pid=12,fd=3))\n"
                + "\t cubic bytes_sent:2000 bytes_acked:2000\n"
                + "0 0 127.0.0.1:5703 127.0.0.1:40002 users:((\"python3\",pid=13,fd=9))\n"
                + "\t cubic bytes_acked:1 bytes_received:5\n"
                + "0 0 127.0.0.1:5704 127.0.0.1:40003 users:((\"java\",pid=11,fd=4))\n"
                + "\t cubic bytes_sent:30 bytes_acked:30\n";
        assertThat(TcpBytes.parse(ss, Set.of(11L, 13L))).isEqualTo(130);
        assertThat(TcpBytes.parse(ss, Set.of(12L))).isEqualTo(2000);
        assertThat(TcpBytes.parse(ss, Set.of(99L))).isZero();
    }
}
