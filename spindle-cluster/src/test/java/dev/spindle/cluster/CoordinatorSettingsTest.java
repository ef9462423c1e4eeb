/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The coordinator's own settings, and {@link LocalCluster.Builder} building on the same knobs. */
class CoordinatorSettingsTest {

    @Test
    void defaultsAreDocumented() {
        CoordinatorSettings s = CoordinatorSettings.builder().build();
        assertThat(s.workers()).isEqualTo(2);
        assertThat(s.threadsPerWorker()).isEqualTo(1);
        assertThat(s.bandwidth()).isEqualTo(100e6);
        assertThat(s.latency()).isEqualTo(Duration.ofMillis(1));
        assertThat(s.stealing()).isTrue();
        assertThat(s.balanceInterval()).isEqualTo(Duration.ofMillis(100));
        assertThat(s.retries()).isEqualTo(3);
        assertThat(s.minStealDuration()).isEqualTo(Duration.ofMillis(1));
        assertThat(s.saturatedOccupancy()).isEqualTo(Duration.ofMillis(400));
        assertThat(s.defaultDuration()).isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void settingsAreImmutableOnceBuilt() {
        CoordinatorSettings.Builder b = CoordinatorSettings.builder().workers(3);
        CoordinatorSettings first = b.build();
        b.workers(5).retries(0);
        assertThat(first.workers()).isEqualTo(3);
        assertThat(first.retries()).isEqualTo(3);
        assertThat(b.build().workers()).isEqualTo(5);
    }

    @Test
    void badValuesNameTheParameter() {
        CoordinatorSettings.Builder b = CoordinatorSettings.builder();
        assertThatThrownBy(() -> b.workers(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("workers");
        assertThatThrownBy(() -> b.threadsPerWorker(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("threadsPerWorker");
        assertThatThrownBy(() -> b.bandwidth(Double.NaN)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bandwidth");
        assertThatThrownBy(() -> b.bandwidth(Double.POSITIVE_INFINITY)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bandwidth");
        assertThatThrownBy(() -> b.latency(Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("latency");
        assertThatThrownBy(() -> b.balanceInterval(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("balanceInterval");
        assertThatThrownBy(() -> b.retries(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("retries");
        assertThatThrownBy(() -> b.minStealDuration(Duration.ofNanos(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("minStealDuration");
        assertThatThrownBy(() -> b.saturatedOccupancy(Duration.ofNanos(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("saturatedOccupancy");
        assertThatThrownBy(() -> b.defaultDuration(Duration.ofNanos(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("defaultDuration");
        assertThatThrownBy(() -> b.latency(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("latency");
        assertThatThrownBy(() -> b.from(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("settings");
    }

    @Test
    void aLocalClusterBuilderSharesTheKnobsAndTheirChecks() {
        CoordinatorSettings s = CoordinatorSettings.builder().workers(3).threadsPerWorker(2).bandwidth(1e9)
                .latency(Duration.ZERO).stealing(false).balanceInterval(Duration.ZERO).retries(1)
                .minStealDuration(Duration.ofMillis(2)).saturatedOccupancy(Duration.ofMillis(300))
                .defaultDuration(Duration.ofMillis(50)).build();
        assertThat(LocalCluster.builder().from(s).settings()).usingRecursiveComparison().isEqualTo(s);
        assertThat(CoordinatorSettings.builder().from(s).build()).usingRecursiveComparison().isEqualTo(s);
        assertThatThrownBy(() -> LocalCluster.builder().threadsPerWorker(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("threadsPerWorker");
        try (LocalCluster cluster = LocalCluster.builder().from(s).build()) {
            assertThat(cluster.workers()).isEqualTo(3);
        }
    }
}
