/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.Serializable;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker measures a result by serialising it. A result whose serialisation throws an
 * {@link Error} (a long chain of nodes, each writing the next, overflows the stack) escaped the
 * worker's thread: the task was never reported, and its caller waited for good.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ResultMeasureRegressionTest {

    /** A node of a singly linked chain serialised by default: one nested call per node. */
    static final class Link implements Serializable {
        private static final long serialVersionUID = 1L;
        Link next;

        static Link chain(int length) {
            Link head = new Link();
            Link n = head;
            for (int i = 1; i < length; i++) {
                n.next = new Link();
                n = n.next;
            }
            return head;
        }
    }

    @Test
    void aResultWhoseSerialisationOverflowsTheStackFailsItsTaskNamingTheKey() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(1).latency(Duration.ZERO).bandwidth(1e12)
                .stealing(false).balanceInterval(Duration.ZERO).retries(0).build()) {
            ClusterFuture<Link> deep = cluster.client().submit("rm-deep", args -> Link.chain(1_000_000));
            assertThatThrownBy(() -> deep.get(30, TimeUnit.SECONDS)).as("the caller is told")
                    .isInstanceOf(ExecutionException.class).cause()
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rm-deep")
                    .hasRootCauseInstanceOf(StackOverflowError.class);
            // the worker goes on: its thread was not lost with the task
            assertThat(cluster.client().submit("rm-after", args -> 1).get(30, TimeUnit.SECONDS)).isEqualTo(1);
        }
    }
}
