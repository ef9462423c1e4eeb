/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.workload;

import dev.spindle.bench.runtime.BenchRuntime;
import dev.spindle.bench.runtime.RuntimeKind;
import dev.spindle.bench.runtime.Runtimes;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;

/**
 * CPU that an idle pool burns: creates a pool, starts all its workers, lets it settle, then
 * sums the CPU time of the pool's own threads ({@link ThreadMXBean#getThreadCpuTime}) over a
 * window and reports it as a percentage of one core. A pool whose idle workers park reads
 * close to 0%; one that spins or polls reads higher.
 */
public final class IdleCpuProbe {

    /**
     * What one probe saw.
     *
     * @param runtime the runtime probed
     * @param threads pool threads seen in the window
     * @param windowNanos the window's length
     * @param cpuNanos CPU time those threads used in the window
     */
    public record Result(RuntimeKind runtime, int threads, long windowNanos, long cpuNanos) {
        /** CPU used as a percentage of one core over the window. */
        public double percentOfCore() {
            return windowNanos == 0 ? 0 : 100.0 * cpuNanos / windowNanos;
        }
    }

    private final long settleMillis;
    private final long windowMillis;

    public IdleCpuProbe(long settleMillis, long windowMillis) {
        if (settleMillis < 0 || windowMillis < 1) {
            throw new IllegalArgumentException("settleMillis must be >= 0 and windowMillis >= 1");
        }
        this.settleMillis = settleMillis;
        this.windowMillis = windowMillis;
    }

    /** Whether this JVM can measure thread CPU time at all. */
    public static boolean supported() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        return mx.isThreadCpuTimeSupported();
    }

    /**
     * Probes a fresh runtime of {@code kind} with {@code workers} threads, closed afterwards.
     *
     * @throws UnsupportedOperationException if thread CPU time cannot be measured here
     */
    public Result measure(RuntimeKind kind, int workers) {
        try (BenchRuntime rt = Runtimes.create(kind, workers)) {
            return measure(rt);
        }
    }

    /**
     * Probes {@code rt}, which should have no work: starts its workers, lets it settle, and
     * measures. The caller closes it.
     *
     * @throws UnsupportedOperationException if thread CPU time cannot be measured here
     */
    public Result measure(BenchRuntime rt) {
        if (!supported()) {
            throw new UnsupportedOperationException("this JVM does not measure thread CPU time");
        }
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        if (!mx.isThreadCpuTimeEnabled()) {
            mx.setThreadCpuTimeEnabled(true);
        }
        rt.prestart();
        sleep(settleMillis);
        Map<Long, Long> before = cpuTimes(rt, mx);
        long t0 = System.nanoTime();
        sleep(windowMillis);
        Map<Long, Long> after = cpuTimes(rt, mx);
        long window = System.nanoTime() - t0;
        long cpu = 0;
        for (Map.Entry<Long, Long> e : after.entrySet()) {
            // a thread started inside the window used all its CPU time there
            cpu += e.getValue() - before.getOrDefault(e.getKey(), 0L);
        }
        return new Result(rt.kind(), after.size(), window, Math.max(0, cpu));
    }

    private static Map<Long, Long> cpuTimes(BenchRuntime rt, ThreadMXBean mx) {
        Map<Long, Long> times = new HashMap<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (rt.ownsThread(t)) {
                long cpu = mx.getThreadCpuTime(t.getId());
                if (cpu >= 0) {
                    times.put(t.getId(), cpu);
                }
            }
        }
        return times;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
