/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.workload;

import dev.spindle.bench.runtime.BenchRuntime;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Skynet: a tree of tasks with fan-out {@code fanout} and {@code leaves} leaves; leaf {@code i}
 * reports the number {@code i}, and every inner node sums its children's reports and reports
 * the sum to its parent. With a million leaves that is 1,111,111 tasks and the answer
 * 499,999,500,000.
 *
 * <p>Nodes never wait: each child adds its sum to its parent's and the last child to report
 * completes the parent, so the workload runs on every runtime.
 */
public final class Skynet extends MessageWorkload {

    public static final int FULL_LEAVES = 1_000_000;
    public static final int FULL_FANOUT = 10;

    private final int leaves;
    private final int fanout;

    /**
     * @throws IllegalArgumentException unless {@code leaves} is a power of {@code fanout}
     */
    public Skynet(int leaves, int fanout) {
        if (fanout < 2) {
            throw new IllegalArgumentException("fanout must be at least 2, was " + fanout);
        }
        long p = 1;
        while (p < leaves) {
            p *= fanout;
        }
        if (p != leaves) {
            throw new IllegalArgumentException("leaves (" + leaves + ") must be a power of fanout (" + fanout + ")");
        }
        this.leaves = leaves;
        this.fanout = fanout;
    }

    @Override
    public String name() {
        return "skynet";
    }

    @Override
    public String describe() {
        return "skynet(" + leaves + " leaves, fan-out " + fanout + ")";
    }

    @Override
    public long expected() {
        return (long) leaves * (leaves - 1) / 2;
    }

    /** Tasks one run submits: every node of the tree. */
    public long tasks() {
        long total = 0;
        for (long level = 1; level <= leaves; level *= fanout) {
            total += level;
        }
        return total;
    }

    @Override
    protected long runUnchecked(BenchRuntime rt) {
        CountDownLatch done = new CountDownLatch(1);
        Parent root = new Parent(null, 1, done);
        rt.execute(new Node(rt, fanout, 0, leaves, root));
        Checks.await(done, describe());
        return root.sum.get();
    }

    /** Collects the reports of {@code pending} children. */
    private static final class Parent {
        final Parent up;
        final AtomicInteger pending;
        final AtomicLong sum = new AtomicLong();
        final CountDownLatch done;

        Parent(Parent up, int children, CountDownLatch done) {
            this.up = up;
            this.pending = new AtomicInteger(children);
            this.done = done;
        }

        void report(long value) {
            Parent p = this;
            long v = value;
            // climb while this report was the last one a parent waited for
            while (true) {
                p.sum.addAndGet(v);
                if (p.pending.decrementAndGet() != 0) {
                    return;
                }
                if (p.up == null) {
                    p.done.countDown();
                    return;
                }
                v = p.sum.get();       // every sibling added before it decremented
                p = p.up;
            }
        }
    }

    private static final class Node implements Runnable {
        private final BenchRuntime rt;
        private final int fanout;
        private final long first;
        private final int size;
        private final Parent parent;

        Node(BenchRuntime rt, int fanout, long first, int size, Parent parent) {
            this.rt = rt;
            this.fanout = fanout;
            this.first = first;
            this.size = size;
            this.parent = parent;
        }

        @Override
        public void run() {
            if (size == 1) {
                parent.report(first);
                return;
            }
            int part = size / fanout;
            Parent me = new Parent(parent, fanout, null);
            for (int i = 0; i < fanout; i++) {
                rt.execute(new Node(rt, fanout, first + (long) i * part, part, me));
            }
        }
    }
}
