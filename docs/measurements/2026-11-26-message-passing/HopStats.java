/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
import dev.spindle.bench.runtime.BenchRuntime;
import dev.spindle.bench.runtime.RuntimeKind;
import dev.spindle.bench.runtime.Runtimes;
import dev.spindle.bench.workload.ChainedSpawn;
import dev.spindle.bench.workload.MessageWorkload;
import dev.spindle.bench.workload.PingPong;
import dev.spindle.bench.workload.Skynet;
import dev.spindle.bench.workload.SpawnMany;
import dev.spindle.bench.workload.YieldMany;
import dev.spindle.SchedulerStats;
import java.lang.reflect.Field;

/**
 * Per hop (task) of a message-passing workload: wall time, and on Spindle the parks, wake-ups
 * (unparks by notifyWork) and steals; on ForkJoinPool its steal count. Measurement aid only.
 *
 * usage: java -cp spindle.jar:. HopStats WORKERS ROUNDS [WORKLOAD,...] [KIND,...]
 */
public final class HopStats {
    /** CPU time of the runtime's worker threads so far. */
    static long cpu(BenchRuntime rt) {
        var mx = java.lang.management.ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (rt.ownsThread(t)) {
                sum += Math.max(0, mx.getThreadCpuTime(t.getId()));
            }
        }
        return sum;
    }

    public static void main(String[] a) throws Exception {
        int workers = Integer.parseInt(a[0]);
        int rounds = Integer.parseInt(a[1]);
        MessageWorkload[] ws = {new PingPong(1000, 20), new ChainedSpawn(1000), new YieldMany(200, 1000),
                SpawnMany.local(10_000), new Skynet(1_000_000, 10)};
        long[] tasks = {1000L * 21, 1000, 200L * 1000, 10_001, 1_111_111};
        java.util.List<String> only = a.length > 2 ? java.util.List.of(a[2].split(",")) : null;
        java.util.List<String> kinds = a.length > 3 ? java.util.List.of(a[3].split(",")) : java.util.List.of("spindle", "fjp", "fjp-async");
        for (int i = 0; i < ws.length; i++) {
            if (only != null && !only.contains(ws[i].name())) {
                continue;
            }
            for (RuntimeKind k : new RuntimeKind[] {RuntimeKind.SPINDLE, RuntimeKind.FJP, RuntimeKind.FJP_ASYNC}) {
                if (!kinds.contains(k.id())) {
                    continue;
                }
                try (BenchRuntime rt = Runtimes.create(k, workers)) {
                    rt.prestart();
                    for (int r = 0; r < 100; r++) ws[i].run(rt);
                    long p0 = 0, w0 = 0, s0 = 0;
                    Object idle = null;
                    if (k == RuntimeKind.SPINDLE) {
                        Field f = rt.spindle().getClass().getDeclaredField("idle");
                        f.setAccessible(true);
                        idle = f.get(rt.spindle());
                        SchedulerStats st = rt.spindle().stats();
                        p0 = st.parks(); s0 = st.steals();
                        w0 = (long) idle.getClass().getMethod("wakes").invoke(idle);
                    } else {
                        s0 = rt.forkJoinPool().getStealCount();
                    }
                    long cpu0 = cpu(rt);
                    long[] ns = new long[rounds];
                    for (int r = 0; r < rounds; r++) {
                        long t0 = System.nanoTime();
                        ws[i].run(rt);
                        ns[r] = System.nanoTime() - t0;
                    }
                    long cpu = cpu(rt) - cpu0;
                    java.util.Arrays.sort(ns);
                    double n = (double) tasks[i] * rounds;
                    String extra;
                    if (k == RuntimeKind.SPINDLE) {
                        SchedulerStats st = rt.spindle().stats();
                        long w1 = (long) idle.getClass().getMethod("wakes").invoke(idle);
                        extra = String.format("parks/task %.4f wakes/task %.4f steals/task %.4f",
                                (st.parks() - p0) / n, (w1 - w0) / n, (st.steals() - s0) / n);
                    } else {
                        extra = String.format("steals/task %.4f", (rt.forkJoinPool().getStealCount() - s0) / n);
                    }
                    System.out.printf("%-16s %-10s median %8.1f us  %6.1f ns/task  cpu %6.1f ns/task  %s%n", ws[i].name(), k.id(),
                            ns[rounds / 2] / 1e3, ns[rounds / 2] / (double) tasks[i], cpu / n, extra);
                }
            }
        }
    }
}
