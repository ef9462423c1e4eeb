/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A bind that meets an id held for a cluster asks that cluster whether it is closed, one read in
 * flight per cluster; the reads were kept per cluster by the cluster's {@code equals}, which is
 * the user's. A view that called itself equal to another (a wrapper comparing what it wraps, or
 * a careless equals) shared that one's reads: while the other was stuck, the view was not asked
 * at all, and a closed view's name could not be taken by a new cluster, the bind refused as if
 * the closed one were still live (and one asked while the other's read was about to say "closed"
 * was taken as closed, its meters given to another). Kept by identity now; a view whose hash
 * changes keeps one entry.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClustersThatCallThemselvesEqualTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void release() {
        release.countDown();                  // no reader thread stays stuck after the test
    }

    /** A view equal to every other of its class: a {@link GatedCluster} with that equals. */
    private static final class Alike extends GatedCluster {
        @Override
        public boolean equals(Object o) {
            return o instanceof Alike;
        }

        @Override
        public int hashCode() {
            return 1;
        }
    }

    @Test
    void aClosedClusterIsAskedItselfNotAStuckOneThatCallsItselfEqualToIt() {
        Alike stuck = new Alike();
        new ClusterMetrics(stuck, "s").bindTo(registry);
        stuck.gate = release;
        Alike closed = new Alike();
        new ClusterMetrics(closed, "c").bindTo(registry);
        closed.closed = new IllegalStateException("closed");
        // the stuck cluster's read is in flight, past its deadline, for as long as the test runs
        assertThatThrownBy(() -> new ClusterMetrics(new GatedCluster(), "s").bindTo(registry))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("has not answered");
        int callsBefore = closed.calls.get();

        // refused before, "has not answered": the stuck one's read was the closed one's
        assertThatCode(() -> new ClusterMetrics(new GatedCluster(), "c").bindTo(registry))
                .as("a bind that takes the name of a closed cluster").doesNotThrowAnyException();
        assertThat(closed.calls.get()).as("the closed cluster was asked").isGreaterThan(callsBefore);
        assertThat(release.getCount()).as("while the other is still stuck").isEqualTo(1);
    }

    @Test
    void keysAreTheirOwnHoweverTheirEqualsAndHashCodeAnswer() {
        WeakIdentityMap<Object, String> map = new WeakIdentityMap<>();
        Object a = new Alike();
        Object b = new Alike();
        AtomicInteger hashes = new AtomicInteger();
        Object shifting = new Object() {
            @Override
            public int hashCode() {
                return hashes.incrementAndGet();
            }
        };

        assertThat(map.computeIfAbsent(a, () -> "a")).isEqualTo("a");
        assertThat(map.computeIfAbsent(b, () -> "b")).isEqualTo("b");
        assertThat(map.computeIfAbsent(a, () -> "again")).isEqualTo("a");
        for (int i = 0; i < 10; i++) {
            assertThat(map.computeIfAbsent(shifting, () -> "shifting")).isEqualTo("shifting");
        }
        assertThat(map.size()).isEqualTo(3);
    }
}
