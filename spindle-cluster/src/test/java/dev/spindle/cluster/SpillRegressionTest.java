/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Defects found in the session-25 review of spilling and the worker's store. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SpillRegressionTest {

    private static final int MB = 1_000_000;

    /** Loads {@code type} itself (child first), as an application server or a plugin loader does. */
    private static Class<?> loadedApart(Class<?> type) throws Exception {
        String name = type.getName();
        byte[] bytes;
        try (InputStream in = type.getResourceAsStream(type.getSimpleName() + ".class")) {
            bytes = in.readAllBytes();
        }
        ClassLoader apart = new ClassLoader("apart", SpillRegressionTest.class.getClassLoader()) {
            @Override
            protected Class<?> loadClass(String n, boolean resolve) throws ClassNotFoundException {
                synchronized (getClassLoadingLock(n)) {
                    if (n.equals(name)) {
                        Class<?> c = findLoadedClass(n);
                        return c != null ? c : defineClass(n, bytes, 0, bytes.length);
                    }
                    return super.loadClass(n, resolve);
                }
            }
        };
        Class<?> c = apart.loadClass(name);
        assertThat(c).isNotSameAs(type);
        return c;
    }

    private static Object payload(Class<?> type, int n) throws Exception {
        return type.getDeclaredConstructor(int.class, byte[].class).newInstance(n, new byte[MB]);
    }

    // ---- 1. a spilled value of a class from another loader comes back as another class ------------

    @Test
    void aSpilledValueComesBackAsAnInstanceOfItsOwnClass(@TempDir Path parent) throws Exception {
        Class<?> apart = loadedApart(SpillRegressionPayload.class);
        DataStore store = new DataStore(new WorkerMemory(2L * MB, parent));
        try {
            store.put("a", payload(apart, 7), MB);
            store.put("b", payload(apart, 8), MB);          // over the 60 % target: a spills
            assertThat(store.spilledBytes()).isEqualTo(MB);
            Object back = store.get("a");
            assertThat(back.getClass()).as("read back as the class it was written as (loader %s)",
                    back.getClass().getClassLoader()).isSameAs(apart);
        } finally {
            store.clear();
        }
    }

    @Test
    void aTaskReadsASpilledDependencyOfAUserClassAsItsOwnClass() throws Exception {
        Class<?> apart = loadedApart(SpillRegressionPayload.class);
        try (LocalCluster cluster = LocalCluster.builder().workers(1).threadsPerWorker(1).latency(Duration.ZERO)
                .bandwidth(1e12).stealing(false).balanceInterval(Duration.ZERO).memoryLimitPerWorker(2L * MB)
                .build()) {
            Client client = cluster.client();
            ClusterFuture<Object> a = client.submit("a", args -> payload(apart, 7));
            a.get();
            ClusterFuture<Object> b = client.submit("b", args -> payload(apart, 8));
            b.get();
            assertThat(cluster.stats().workers().get(0).spilledBytes()).as("a spilled").isEqualTo(MB);
            ClusterFuture<String> c = client.submit("c", args -> args.get(0).getClass() == apart ? "same class"
                    : "another class: " + args.get(0).getClass().getClassLoader(), a);
            assertThat(c.get()).isEqualTo("same class");
        }
    }

    // ---- 2. a killed worker's values and spill files are never dropped ------------------------

    // ---- 5. a spill file lost under the worker fails its dependent for good -------------------

    @Test
    void aDependencyWhoseSpillFileWasLostIsComputedAgain(@TempDir Path tmp) throws Exception {
        String before = System.getProperty("java.io.tmpdir");
        System.setProperty("java.io.tmpdir", tmp.toString());
        java.util.concurrent.atomic.AtomicInteger runsOfA = new java.util.concurrent.atomic.AtomicInteger();
        try (LocalCluster cluster = LocalCluster.builder().workers(1).threadsPerWorker(1).latency(Duration.ZERO)
                .bandwidth(1e12).stealing(false).balanceInterval(Duration.ZERO).memoryLimitPerWorker(2L * MB)
                .retries(1).build()) {
            Client client = cluster.client();
            ClusterFuture<SpillRegressionPayload> a = client.submit("a", args -> {
                runsOfA.incrementAndGet();
                return new SpillRegressionPayload(7, new byte[MB]);
            });
            a.get();
            ClusterFuture<SpillRegressionPayload> b = client.submit("b", args -> new SpillRegressionPayload(8, new byte[MB]));
            b.get();                          // held to the end (an unreachable future releases its result)
            assertThat(cluster.stats().workers().get(0).spilledBytes()).as("a spilled").isEqualTo(MB);
            for (Path f : spillFiles(tmp)) {
                Files.delete(f);              // a tmp cleaner, a full disk: the copy is gone
            }
            ClusterFuture<Integer> c = client.submit("c", args -> ((SpillRegressionPayload) args.get(0)).n(), a);
            assertThat(c.get(30, TimeUnit.SECONDS)).as("c, whose input a was lost on disk").isEqualTo(7);
            assertThat(runsOfA.get()).as("a computed again").isEqualTo(2);
            assertThat(b.get().n()).isEqualTo(8);
        } finally {
            System.setProperty("java.io.tmpdir", before);
        }
    }

    @Test
    void aKilledAndRestartedWorkerLeavesNoSpillFilesBehind(@TempDir Path tmp) throws Exception {
        String before = System.getProperty("java.io.tmpdir");
        System.setProperty("java.io.tmpdir", tmp.toString());
        try (LocalCluster cluster = LocalCluster.builder().workers(2).threadsPerWorker(1).latency(Duration.ZERO)
                .bandwidth(1e12).stealing(false).balanceInterval(Duration.ZERO).memoryLimitPerWorker(2L * MB)
                .build()) {
            Client client = cluster.client();
            // held to the end: a future the garbage collector finds unreachable releases its
            // result, and the release deletes its spill file (on JDK 25 before the first assertion)
            java.util.List<ClusterFuture<SpillRegressionPayload>> held = new java.util.ArrayList<>();
            for (int i = 0; i < 3; i++) {
                int n = i;
                held.add(client.submit(TaskSpec.builder("p-" + i, args -> new SpillRegressionPayload(n, new byte[MB]))
                        .restrictions(Restrictions.strict(java.util.Set.of(0))).build()));
                held.get(i).get();
            }
            assertThat(spillFiles(tmp)).as("worker 0 spilled").isNotEmpty();
            cluster.killWorker(0);
            cluster.restartWorker(0);
            assertThat(spillFiles(tmp)).as("the killed worker's spill files").isEmpty();
            assertThat(held).hasSize(3);
        } finally {
            System.setProperty("java.io.tmpdir", before);
        }
    }

    // ---- 3. a value that cannot be written stops all spilling and leaves a partial file each time ---

    /** Sized and serialisable, but one of its fields is not: writing it fails half-way. */
    record HalfSerializable(long sizeInBytes, Object notSerializable) implements Sized, Serializable {
    }

    @Test
    void aValueThatFailsToSpillNeitherStopsSpillingNorLeavesFilesBehind(@TempDir Path parent) throws Exception {
        DataStore store = new DataStore(new WorkerMemory(10L * MB, parent));
        store.put("half", new HalfSerializable(MB, new Object()), MB);      // the least recently used
        for (int i = 0; i < 9; i++) {
            store.put("k-" + i, new MemoryReleaseTest.Chunk(new byte[MB]), MB);
        }
        org.assertj.core.api.SoftAssertions soft = new org.assertj.core.api.SoftAssertions();
        soft.assertThat(store.memoryBytes()).as("in memory: the 60 % target plus the value that cannot spill")
                .isLessThanOrEqualTo(7L * MB);
        soft.assertThat(store.paused()).as("paused, though eight values could spill").isFalse();
        soft.assertThat(spillFiles(parent)).as("spill files: one per spilled value (%d bytes spilled)",
                store.spilledBytes()).hasSize((int) (store.spilledBytes() / MB));
        store.clear();
        soft.assertThat(spillFiles(parent)).as("files left after clear()").isEmpty();
        soft.assertAll();
    }

    // ---- 4. a task still running when its worker stops spills into a directory nobody deletes --------

    @Test
    void aResultStoredAfterTheWorkerStoppedLeavesNoSpillFilesBehind(@TempDir Path parent) throws Exception {
        RecordingTransport transport = new RecordingTransport();
        ClusterWorker worker = new ClusterWorker(0, 2, transport, new WorkerMemory(2L * MB, parent), false);
        java.util.concurrent.atomic.AtomicBoolean go = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(2);
        TaskFunction<Object> blocked = args -> {
            started.countDown();
            while (!go.get()) {
                Thread.onSpinWait();          // deaf to the interrupt of shutdownNow, as most user code is
            }
            return new MemoryReleaseTest.Chunk(new byte[MB]);
        };
        for (String key : java.util.List.of("x", "y")) {
            worker.receive(new Message.Compute(key, 1, blocked, java.util.List.of(), java.util.Map.of(), 0));
        }
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        worker.shutdown();                    // LocalCluster.close() / WorkerNode.close() with tasks running
        go.set(true);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (worker.executed() < 2 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(worker.executed()).isEqualTo(2);
        assertThat(spillFiles(parent)).as("spill files after the worker stopped").isEmpty();
    }

    private static java.util.List<Path> spillFiles(Path dir) throws Exception {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).toList();
        }
    }
}
