/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.quick;

import dev.spindle.bench.runtime.BenchRuntime;
import java.lang.management.ManagementFactory;

/**
 * The process's CPU time and a runtime's live threads, for telling per-task cost from idle
 * workers or extra threads. The pools of a run take turns and the idle ones use no CPU (0 % in
 * the idle probe), so the CPU used over one pool's turn is that pool's, plus the JVM's own
 * threads (JIT, GC): "busy cores" (CPU time over wall time) near the worker count with a long
 * time means per-task cost, well below it means workers that found nothing to do, and above it
 * means the pool ran more threads than its parallelism (a {@code ForkJoinPool}'s compensation
 * threads stay and keep taking work until they time out).
 */
final class ProcessCpu {

    private ProcessCpu() {
    }

    /** CPU time of the whole process so far (every thread, JIT and GC included), or 0 where the JVM does not report it. */
    static long nanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return Math.max(0, os.getProcessCpuTime());
        }
        return 0;
    }

    /** The live threads {@code rt} owns now (its workers and any spare or compensation threads). */
    static int liveThreads(BenchRuntime rt) {
        int n = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.isAlive() && rt.ownsThread(t)) {
                n++;
            }
        }
        return n;
    }
}
