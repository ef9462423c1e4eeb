/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.workload;

import dev.spindle.bench.runtime.BenchRuntime;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code pairs} pairs of actors, each pair passing one message back and forth {@code bounces}
 * times; every hand-off is a new task submitted to the pool, so the message is always handled
 * in a fresh task, as a reply would be. A task inside the pool starts all pairs. The result is
 * the number of messages handled, {@code pairs * (bounces + 1)}; each pair also checks that
 * its two sides took turns.
 */
public final class PingPong extends MessageWorkload {

    public static final int FULL_PAIRS = 1_000;
    public static final int FULL_BOUNCES = 20;

    private final int pairs;
    private final int bounces;

    public PingPong(int pairs, int bounces) {
        this.pairs = Checks.positive("pairs", pairs);
        this.bounces = Checks.positive("bounces", bounces);
    }

    @Override
    public String name() {
        return "ping-pong";
    }

    @Override
    public String describe() {
        return "ping-pong(" + pairs + " pairs x " + bounces + " bounces)";
    }

    @Override
    public long expected() {
        return (long) pairs * (bounces + 1);
    }

    @Override
    protected long runUnchecked(BenchRuntime rt) {
        AtomicLong handled = new AtomicLong();
        AtomicInteger remaining = new AtomicInteger(pairs);
        AtomicInteger mismatched = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(1);
        rt.execute(() -> {
            for (int i = 0; i < pairs; i++) {
                Pair p = new Pair(rt, bounces, handled, remaining, mismatched, done);
                rt.execute(() -> p.ping(bounces));
            }
        });
        Checks.await(done, describe());
        Checks.expect(describe() + ": pairs whose sides did not take turns", 0, mismatched.get());
        return handled.get();
    }

    private static final class Pair {
        private final BenchRuntime rt;
        private final int bounces;
        private final AtomicLong handled;
        private final AtomicInteger remaining;
        private final AtomicInteger mismatched;
        private final CountDownLatch done;
        /** Messages each side received; one task at a time touches them. */
        private int pings;
        private int pongs;

        Pair(BenchRuntime rt, int bounces, AtomicLong handled, AtomicInteger remaining,
                AtomicInteger mismatched, CountDownLatch done) {
            this.rt = rt;
            this.bounces = bounces;
            this.handled = handled;
            this.remaining = remaining;
            this.mismatched = mismatched;
            this.done = done;
        }

        void ping(int left) {
            pings++;
            if (left == 0) {
                finish();
            } else {
                rt.execute(() -> pong(left - 1));
            }
        }

        void pong(int left) {
            pongs++;
            if (left == 0) {
                finish();
            } else {
                rt.execute(() -> ping(left - 1));
            }
        }

        private void finish() {
            int messages = bounces + 1;
            if (pings != (messages + 1) / 2 || pongs != messages / 2) {
                mismatched.incrementAndGet();
            }
            handled.addAndGet(pings + pongs);
            if (remaining.decrementAndGet() == 0) {
                done.countDown();
            }
        }
    }
}
