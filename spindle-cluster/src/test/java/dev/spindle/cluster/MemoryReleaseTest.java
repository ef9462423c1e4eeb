/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.testkit.Await;
import java.io.Serializable;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Results are freed on their workers once no client future and no pending task needs them, as
 * Dask's scheduler releases keys by reference counting. Assertions are on store sizes and
 * counters; waits for the asynchronous release messages are bounded.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MemoryReleaseTest {

    /** A value of {@code bytes} real bytes whose size is declared, so it is not serialised to be measured. */
    record Chunk(byte[] data) implements Sized, Serializable {
        static Chunk of(int bytes) {
            return new Chunk(new byte[bytes]);
        }

        @Override
        public long sizeInBytes() {
            return data.length;
        }
    }

    private LocalCluster cluster;

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private Client start(int workers) {
        cluster = LocalCluster.builder().workers(workers).threadsPerWorker(1).latency(Duration.ZERO)
                .bandwidth(1e12).stealing(false).balanceInterval(Duration.ZERO).build();
        return cluster.client();
    }

    /** Waits (at most 10 s) for a condition on asynchronous releases. */

    private int keysHeld() {
        return cluster.stats().workers().stream().mapToInt(ClusterStats.WorkerStats::keysHeld).sum();
    }

    @Test
    void aChainKeepsOnlyWhatIsStillNeeded() throws Exception {
        Client client = start(2);
        int steps = 300;
        int size = 100_000;
        ClusterFuture<Chunk> previous = client.submit("chain-0", args -> Chunk.of(size));
        int maxKeys = 0;
        for (int i = 1; i < steps; i++) {
            ClusterFuture<Chunk> next = client.submit("chain-" + i,
                    args -> Chunk.of(((Chunk) args.get(0)).data().length), previous);
            previous.release();               // the client is done with it; the next step is not
            previous = next;
            if (i % 10 == 0) {
                previous.get();
                maxKeys = Math.max(maxKeys, keysHeld());
            }
        }
        assertThat(previous.get().data()).hasSize(size);
        // the last result, and at most the one before it while its release is in flight
        assertThat(maxKeys).isLessThanOrEqualTo(4);
        Await.until("only the last result is held", Duration.ofSeconds(10), () -> keysHeld() == 1);
        ClusterStats stats = cluster.stats();
        assertThat(stats.memoryBytes()).isEqualTo(size);
        assertThat(stats.tasksReleased()).isEqualTo(steps - 1);
        java.lang.ref.Reference.reachabilityFence(previous);   // a collected future would be released too
    }

    @Test
    void aReleasedFutureLosesItsValueButAPendingDependentKeepsIt() throws Exception {
        Client client = start(1);
        CountDownLatch gate = new CountDownLatch(1);
        ClusterFuture<Chunk> x = client.submit("x", args -> Chunk.of(1_000));
        x.get();
        ClusterFuture<Integer> y = client.submit("y", args -> {
            gate.await(30, TimeUnit.SECONDS);
            return ((Chunk) args.get(0)).data().length;
        }, x);
        x.release();
        assertThatThrownBy(x::get).isInstanceOf(IllegalStateException.class).hasMessageContaining("'x' was released");
        assertThatThrownBy(() -> client.submit("z", args -> 0, x))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'x' was released");
        assertThat(cluster.stats().tasksReleased()).isZero();      // y still needs it
        assertThat(keysHeld()).isEqualTo(1);
        gate.countDown();
        assertThat(y.get()).isEqualTo(1_000);
        Await.until("x is dropped once y has it", Duration.ofSeconds(10), () -> keysHeld() == 1 && cluster.stats().tasksReleased() == 1);
        assertThat(cluster.stats().memoryBytes()).isLessThan(1_000);    // y's Integer only
        java.lang.ref.Reference.reachabilityFence(y);
    }

    @Test
    void aResultReleasedAndNeededAgainIsRecomputed() throws Exception {
        Client client = start(1);
        ClusterFuture<Integer> x = client.submit("rx", args -> LocalClusterTest.count("rx"));
        assertThat(x.get()).isEqualTo(1);
        x.close();
        Await.until("rx is dropped", Duration.ofSeconds(10), () -> keysHeld() == 0);
        ClusterFuture<Integer> y = client.submit(TaskSpec.builder("ry", args -> (Integer) args.get(0) * 10)
                .dependsOn("rx").build());
        assertThat(y.get()).isEqualTo(20);                      // rx ran a second time
    }

    @Test
    void anUnreachableFutureIsReleasedAfterGarbageCollection() throws Exception {
        Client client = start(1);
        submitAndDrop(client);
        assertThat(keysHeld()).isEqualTo(1);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (keysHeld() != 0) {
            assertThat(System.nanoTime() - deadline).as("the dropped future was never released").isNegative();
            System.gc();
            Thread.sleep(20);
        }
        assertThat(cluster.stats().tasksReleased()).isEqualTo(1);
    }

    private static void submitAndDrop(Client client) throws Exception {
        ClusterFuture<Chunk> dropped = client.submit("dropped", args -> Chunk.of(1_000));
        assertThat(dropped.get().data()).hasSize(1_000);
    }
}
