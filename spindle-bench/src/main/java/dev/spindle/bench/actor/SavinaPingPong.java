/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.actor;

import java.util.Locale;
import java.util.concurrent.CountDownLatch;

/**
 * Savina "pingpong": two actors pass a ball back and forth, {@code pings} times each way; the
 * latency of one message hand-off between two actors, nothing running in parallel. The ping
 * actor sends ball {@code n}, the pong actor returns ball {@code n - 1}. The result is the number
 * of balls handled, {@code 2 * pings}; both sides also check that each ball carried the number
 * they expected (no loss, duplicate or reordering).
 */
public final class SavinaPingPong extends ActorWorkload {

    public static final int FULL_PINGS = 40_000;

    private final int pings;

    public SavinaPingPong(int pings) {
        this.pings = positive("pings", pings);
    }

    @Override
    public String name() {
        return "pingpong";
    }

    @Override
    public String describe() {
        return String.format(Locale.ROOT, "pingpong(%,d pings)", pings);
    }

    @Override
    public long expected() {
        return 2L * pings;
    }

    @Override
    public long messages() {
        return 2L * pings + 1;
    }

    /** A ball; pings count down, each pong carries the next number the ping side expects. */
    record Ball(int n) {
    }

    @Override
    protected long runUnchecked(Run run) {
        CountDownLatch done = new CountDownLatch(1);
        Ping ping = new Ping(pings, done);
        Pong pong = new Pong(pings);
        Addr<Ball> pingAddr = run.spawn(self -> ping);
        pong.ping = pingAddr;
        ping.pong = run.spawn(self -> pong);        // both fields are set before the first tell
        pingAddr.tell(new Ball(pings));
        run.await(done);
        // the pong side's last handler call happened before its last reply, and so before the latch
        run.expect("balls out of order", 0, ping.outOfOrder + pong.outOfOrder);
        return ping.pongs + pong.pings;
    }

    private static final class Ping implements Handler<Ball> {
        private final CountDownLatch done;
        Addr<Ball> pong;
        private int left;
        private boolean started;
        int pongs;
        int outOfOrder;

        Ping(int pings, CountDownLatch done) {
            this.left = pings;
            this.done = done;
        }

        @Override
        public void handle(Ball b) {
            if (started) {
                pongs++;
            }
            started = true;
            if (b.n() != left) {
                outOfOrder++;
            }
            if (left == 0) {
                done.countDown();
            } else {
                pong.tell(new Ball(left));
                left--;
            }
        }
    }

    private static final class Pong implements Handler<Ball> {
        Addr<Ball> ping;
        private int next;
        int pings;
        int outOfOrder;

        Pong(int pings) {
            this.next = pings;
        }

        @Override
        public void handle(Ball b) {
            pings++;
            if (b.n() != next) {
                outOfOrder++;
            }
            next = b.n() - 1;
            ping.tell(new Ball(b.n() - 1));
        }
    }
}
