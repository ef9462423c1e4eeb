/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.Test;

/**
 * Scatter on a closed cluster is refused with {@link RejectedExecutionException}, as documented,
 * whatever its arguments: it checked the worker and the value first, and answered a bad worker or
 * a value that cannot travel with {@link IllegalArgumentException}, and an empty list with an
 * empty list, as if the cluster were open.
 */
class ScatterAfterCloseTest {

    @Test
    void aClosedClusterRefusesEveryScatter() {
        LocalCluster cluster = LocalCluster.builder().workers(2).build();
        Client client = cluster.client();
        cluster.close();
        assertThatThrownBy(() -> client.scatter("p", List.of())).isInstanceOf(RejectedExecutionException.class);
        assertThatThrownBy(() -> client.scatter("k", 1, 7)).isInstanceOf(RejectedExecutionException.class);
        assertThatThrownBy(() -> client.scatter("k", new Object(), 0)).isInstanceOf(RejectedExecutionException.class);
        assertThatThrownBy(() -> client.scatter("k", 1, 0)).isInstanceOf(RejectedExecutionException.class);
        assertThatThrownBy(() -> client.scatter(null, 1, 0)).isInstanceOf(NullPointerException.class);
    }
}
