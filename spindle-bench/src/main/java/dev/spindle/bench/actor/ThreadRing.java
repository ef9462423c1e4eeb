/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.actor;

import java.util.Locale;
import java.util.concurrent.CountDownLatch;

/**
 * Savina "threadring": {@code actors} actors in a ring pass one token {@code hops} times; each
 * receiver decrements the token's count and passes it on, and the one that receives it at zero
 * finishes. A sequential chain of hand-offs, each to a different actor. The result is the
 * number of times the token was received, {@code hops + 1}; the run also checks that the last
 * receiver is actor {@code hops mod actors}.
 */
public final class ThreadRing extends ActorWorkload {

    public static final int FULL_ACTORS = 100;
    public static final int FULL_HOPS = 100_000;

    private final int actors;
    private final int hops;

    public ThreadRing(int actors, int hops) {
        this.actors = positive("actors", actors);
        this.hops = positive("hops", hops);
    }

    @Override
    public String name() {
        return "threadring";
    }

    @Override
    public String describe() {
        return String.format(Locale.ROOT, "threadring(%,d actors x %,d hops)", actors, hops);
    }

    @Override
    public long expected() {
        return hops + 1L;
    }

    @Override
    public long messages() {
        return hops + 1L;
    }

    record Token(int left) {
    }

    @Override
    protected long runUnchecked(Run run) {
        CountDownLatch done = new CountDownLatch(1);
        int[] last = {-1};
        Member[] members = new Member[actors];
        @SuppressWarnings("unchecked")
        Addr<Token>[] ring = new Addr[actors];
        for (int i = 0; i < actors; i++) {
            Member m = new Member(i, ring, done, last);
            members[i] = m;
            ring[i] = run.spawn(self -> m);
        }
        ring[0].tell(new Token(hops));              // the ring is complete before the first tell
        run.await(done);
        // every handler call is on the token's path, so each happened before the latch opened
        run.expect("last receiver", hops % actors, last[0]);
        long received = 0;
        for (Member m : members) {
            received += m.received;
        }
        return received;
    }

    private static final class Member implements Handler<Token> {
        private final int index;
        private final Addr<Token>[] ring;
        private final CountDownLatch done;
        private final int[] last;
        int received;

        Member(int index, Addr<Token>[] ring, CountDownLatch done, int[] last) {
            this.index = index;
            this.ring = ring;
            this.done = done;
            this.last = last;
        }

        @Override
        public void handle(Token t) {
            received++;
            if (t.left() == 0) {
                last[0] = index;
                done.countDown();
            } else {
                ring[index + 1 == ring.length ? 0 : index + 1].tell(new Token(t.left() - 1));
            }
        }
    }
}
