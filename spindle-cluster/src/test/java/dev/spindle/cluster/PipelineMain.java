/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.time.Duration;

/**
 * A chain of {@code tasks} steps, each making a fresh {@code bytes}-byte value from the previous
 * one, run in its own JVM by {@link BoundedMemoryPipelineTest} with a small heap: it completes
 * only if intermediate results are freed. Prints one line with the figures; exits 1 if the
 * workers ever held more than a few values.
 */
final class PipelineMain {

    private PipelineMain() {
    }

    public static void main(String[] args) throws Exception {
        int tasks = Integer.parseInt(args[0]);
        int bytes = Integer.parseInt(args[1]);
        long start = System.nanoTime();
        long maxHeld = 0;
        try (LocalCluster cluster = LocalCluster.builder().workers(2).threadsPerWorker(1).latency(Duration.ZERO)
                .bandwidth(1e12).stealing(false).balanceInterval(Duration.ZERO).build()) {
            Client client = cluster.client();
            ClusterFuture<MemoryReleaseTest.Chunk> previous =
                    client.submit("step-0", a -> MemoryReleaseTest.Chunk.of(bytes));
            for (int i = 1; i < tasks; i++) {
                ClusterFuture<MemoryReleaseTest.Chunk> next = client.submit("step-" + i,
                        a -> MemoryReleaseTest.Chunk.of(((MemoryReleaseTest.Chunk) a.get(0)).data().length), previous);
                previous.release();
                previous = next;
                if (i % 1_000 == 0) {
                    previous.get();           // keeps the client at most 1,000 steps ahead
                    maxHeld = Math.max(maxHeld, cluster.stats().memoryBytes());
                }
            }
            int last = previous.get().data().length;
            ClusterStats stats = cluster.stats();
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf("pipeline tasks=%d bytes=%d seconds=%.1f maxHeldBytes=%d released=%d last=%d heapMax=%d%n",
                    tasks, bytes, seconds, maxHeld, stats.tasksReleased(), last, Runtime.getRuntime().maxMemory());
            // the last future is still held: unreachable, its cleaner could release it meanwhile
            java.lang.ref.Reference.reachabilityFence(previous);
            if (maxHeld > 8L * bytes || stats.tasksReleased() != tasks - 1) {
                System.exit(1);
            }
        }
    }
}
