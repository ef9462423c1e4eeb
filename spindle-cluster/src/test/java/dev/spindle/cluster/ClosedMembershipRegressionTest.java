/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Membership calls on a closed cluster are refused as closed, whatever their arguments (as scatter and retire are). */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClosedMembershipRegressionTest {

    @Test
    void addWorkerWithABadThreadCountOnAClosedClusterIsRejected() {
        LocalCluster cluster = LocalCluster.builder().workers(1).build();
        cluster.close();
        assertThatThrownBy(() -> cluster.addWorker(0)).isInstanceOf(RejectedExecutionException.class);
    }

    @Test
    void killWorkerWithAnUnknownIdOnAClosedClusterIsRejected() {
        LocalCluster cluster = LocalCluster.builder().workers(1).build();
        cluster.close();
        assertThatThrownBy(() -> cluster.killWorker(7)).isInstanceOf(RejectedExecutionException.class);
    }

    @Test
    void aBadArgumentOnAnOpenClusterIsStillAnIllegalArgument() {
        try (LocalCluster cluster = LocalCluster.builder().workers(1).build()) {
            assertThatThrownBy(() -> cluster.addWorker(0)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> cluster.killWorker(7)).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
