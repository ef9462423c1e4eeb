/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.testkit;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The live threads whose names start with a prefix (a worker's pool, {@code cluster-worker-0})
 * that were not there when this was taken: what a test checks is started while a worker serves
 * and gone once it has ended, in the tests of every transport.
 */
public final class PoolThreads {

    private final String prefix;
    private final Set<Thread> before;

    private PoolThreads(String prefix) {
        this.prefix = prefix;
        this.before = live(prefix);
    }

    /** Notes the threads named {@code prefix}… that are alive now, so that only later ones count. */
    public static PoolThreads since(String prefix) {
        return new PoolThreads(prefix);
    }

    /** The live threads named with the prefix that started since this was taken. */
    public Set<Thread> started() {
        Set<Thread> now = live(prefix);
        now.removeAll(before);
        return now;
    }

    /**
     * Waits up to {@code bound} for the threads started since to exit (exiting takes a moment after
     * a pool is stopped; the bound only catches threads that stay), then returns the names of those
     * still alive, sorted: empty if all went.
     */
    public List<String> lingeringAfter(Duration bound) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (!started().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        return started().stream().map(Thread::getName).sorted().collect(Collectors.toList());
    }

    private static Set<Thread> live(String prefix) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith(prefix))
                .collect(Collectors.toSet());
    }
}
