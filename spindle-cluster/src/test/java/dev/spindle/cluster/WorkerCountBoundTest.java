/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * Worker ids are indexes below {@link ClusterCoordinator#MAX_WORKERS}: a join, a restart or an
 * added worker of a higher id is refused. The initial worker count was not bounded, so a cluster
 * of more workers started with ids above the bound, and one of those, once killed, could never
 * be restarted ({@code restartWorker} threw "worker id must be in 0..4095" for a worker that
 * exists, which its contract keeps for an unknown one). The count is now refused above the bound,
 * where the other knobs' bad values are, as {@link IllegalArgumentException}.
 */
class WorkerCountBoundTest {

    @Test
    void aWorkerCountAboveTheIdBoundIsRefused() {
        int max = ClusterCoordinator.MAX_WORKERS;
        assertThatThrownBy(() -> LocalCluster.builder().workers(max + 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(String.valueOf(max));
        assertThatThrownBy(() -> CoordinatorSettings.builder().workers(Integer.MAX_VALUE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(String.valueOf(max));
        assertThat(CoordinatorSettings.builder().workers(max).build().workers()).as("the bound itself").isEqualTo(max);
    }
}
