/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.workload;

import dev.spindle.bench.runtime.BenchRuntime;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code tasks} tasks each "yield" {@code yields} times: a task runs a step, then submits
 * itself again to go to the back of the line, and finishes after its last step. Measures
 * rescheduling a task that is already known to the pool. The result is the total number of
 * steps, {@code tasks * yields}.
 */
public final class YieldMany extends MessageWorkload {

    public static final int FULL_TASKS = 200;
    public static final int FULL_YIELDS = 1_000;

    private final int tasks;
    private final int yields;

    public YieldMany(int tasks, int yields) {
        this.tasks = Checks.positive("tasks", tasks);
        this.yields = Checks.positive("yields", yields);
    }

    @Override
    public String name() {
        return "yield-many";
    }

    @Override
    public String describe() {
        return "yield-many(" + tasks + " tasks x " + yields + " yields)";
    }

    @Override
    public long expected() {
        return (long) tasks * yields;
    }

    @Override
    protected long runUnchecked(BenchRuntime rt) {
        AtomicLong steps = new AtomicLong();
        AtomicInteger remaining = new AtomicInteger(tasks);
        CountDownLatch done = new CountDownLatch(1);
        for (int i = 0; i < tasks; i++) {
            rt.execute(new Yielder(rt, yields, steps, remaining, done));
        }
        Checks.await(done, describe());
        return steps.get();
    }

    private static final class Yielder implements Runnable {
        private final BenchRuntime rt;
        private final int yields;
        private final AtomicLong steps;
        private final AtomicInteger remaining;
        private final CountDownLatch done;
        /** Touched by one step at a time; submission orders the steps. */
        private int step;

        Yielder(BenchRuntime rt, int yields, AtomicLong steps, AtomicInteger remaining, CountDownLatch done) {
            this.rt = rt;
            this.yields = yields;
            this.steps = steps;
            this.remaining = remaining;
            this.done = done;
        }

        @Override
        public void run() {
            if (++step < yields) {
                rt.execute(this);
                return;
            }
            steps.addAndGet(step);
            if (remaining.decrementAndGet() == 0) {
                done.countDown();
            }
        }
    }
}
