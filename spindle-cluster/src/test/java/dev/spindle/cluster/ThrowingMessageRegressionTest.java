/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A result that cannot be measured, whose failure's getMessage() and toString() throw too: the
 * task still errs, instead of its report escaping the worker's thread unsent.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ThrowingMessageRegressionTest {

    /** A failure that cannot describe itself. */
    static final class Mute extends RuntimeException {
        @Override
        public String getMessage() {
            throw new IllegalStateException("getMessage");
        }

        @Override
        public String toString() {
            throw new IllegalStateException("toString");
        }
    }

    /** Its serialisation throws a {@link Mute}. */
    static final class Unwritable implements Serializable {
        private static final long serialVersionUID = 1L;

        private void writeObject(ObjectOutputStream out) {
            throw new Mute();
        }
    }

    /** Its size throws a {@link Mute}. */
    static final class Unsized implements Sized {
        @Override
        public long sizeInBytes() {
            throw new Mute();
        }
    }

    @Test
    void aResultWhoseSerialisationFailureCannotDescribeItselfErrsTheTask() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(1).retries(0).build()) {
            ClusterFuture<Object> f = cluster.client().submit("bad-0", args -> new Unwritable());
            // before the fix the report escaped the worker's thread: the wait timed out
            assertThatThrownBy(() -> f.get(20, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(IllegalArgumentException.class).hasCauseInstanceOf(Mute.class);
            assertThat(cluster.client().submit("ok-0", args -> 1).get(20, TimeUnit.SECONDS)).isEqualTo(1);
        }
    }

    @Test
    void aResultWhoseSizeFailureCannotDescribeItselfErrsTheTask() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(1).retries(0).build()) {
            ClusterFuture<Object> f = cluster.client().submit("bad-0", args -> new Unsized());
            assertThatThrownBy(() -> f.get(20, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(IllegalArgumentException.class).hasCauseInstanceOf(Mute.class);
        }
    }
}
