/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.workload;

import dev.spindle.bench.runtime.BenchRuntime;
import java.util.concurrent.CountDownLatch;

/**
 * A chain of {@code length} tasks, each submitting the next one and nothing else: there is
 * never more than one task to run, so this measures the latency of handing a task to the pool
 * and having it start, with workers that go idle between links. The result is the sum of the
 * links' indices, {@code length * (length - 1) / 2}.
 */
public final class ChainedSpawn extends MessageWorkload {

    public static final int FULL_LENGTH = 1_000;

    private final int length;

    public ChainedSpawn(int length) {
        this.length = Checks.positive("length", length);
    }

    @Override
    public String name() {
        return "chained-spawn";
    }

    @Override
    public String describe() {
        return "chained-spawn(" + length + " links)";
    }

    @Override
    public long expected() {
        return (long) length * (length - 1) / 2;
    }

    @Override
    protected long runUnchecked(BenchRuntime rt) {
        CountDownLatch done = new CountDownLatch(1);
        long[] result = new long[1];
        rt.execute(new Link(rt, length, 0, 0, result, done));
        Checks.await(done, describe());
        return result[0];          // written before countDown, read after await
    }

    private static final class Link implements Runnable {
        private final BenchRuntime rt;
        private final int length;
        private final int index;
        private final long sumBefore;
        private final long[] result;
        private final CountDownLatch done;

        Link(BenchRuntime rt, int length, int index, long sumBefore, long[] result, CountDownLatch done) {
            this.rt = rt;
            this.length = length;
            this.index = index;
            this.sumBefore = sumBefore;
            this.result = result;
            this.done = done;
        }

        @Override
        public void run() {
            long sum = sumBefore + index;
            if (index + 1 < length) {
                rt.execute(new Link(rt, length, index + 1, sum, result, done));
            } else {
                result[0] = sum;
                done.countDown();
            }
        }
    }
}
