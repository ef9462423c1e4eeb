/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.actor;

import java.util.Locale;
import java.util.concurrent.CountDownLatch;

/**
 * Savina "chameneos": {@code chameneos} creatures of three colours ask a mall actor for a
 * meeting; the mall pairs each request with the one waiting, tells the first of the pair about
 * the second, and the first tells the second its new colour (the complement of the two). Both
 * then ask again, until the mall has arranged {@code meetings} meetings; after that it answers
 * every request with "exit" and each creature reports how many meetings it took part in. Many
 * actors contending for one. The result is the sum of the reported counts, {@code 2 * meetings}.
 */
public final class Chameneos extends ActorWorkload {

    public static final int FULL_CHAMENEOS = 100;
    public static final int FULL_MEETINGS = 200_000;

    private final int chameneos;
    private final int meetings;

    public Chameneos(int chameneos, int meetings) {
        if (chameneos < 2) {
            throw new IllegalArgumentException("chameneos must be at least 2, was " + chameneos);
        }
        this.chameneos = chameneos;
        this.meetings = positive("meetings", meetings);
    }

    @Override
    public String name() {
        return "chameneos";
    }

    @Override
    public String describe() {
        return String.format(Locale.ROOT, "chameneos(%,d chameneos x %,d meetings)", chameneos, meetings);
    }

    @Override
    public long expected() {
        return 2L * meetings;
    }

    @Override
    public long messages() {
        return 4L * meetings + 3L * chameneos;
    }

    /** To the mall: a meeting request, or a creature's final count. */
    interface ToMall {
    }

    /** To a creature: its partner (a forwarded request), its new colour, or exit. */
    interface ToCreature {
    }

    record Meet(int colour, Addr<ToCreature> from) implements ToMall, ToCreature {
    }

    record Change(int colour) implements ToCreature {
    }

    record MeetingCount(int meetings) implements ToMall {
    }

    static final ToCreature EXIT = new ToCreature() {
        @Override
        public String toString() {
            return "EXIT";
        }
    };

    /** The colour two creatures of colours {@code a} and {@code b} both take: the third, or the same. */
    static int complement(int a, int b) {
        return a == b ? a : 3 - a - b;
    }

    @Override
    protected long runUnchecked(Run run) {
        CountDownLatch done = new CountDownLatch(1);
        Mall mall = new Mall(meetings, chameneos, done);
        Addr<ToMall> mallAddr = run.spawn(self -> mall);
        for (int i = 0; i < chameneos; i++) {
            int colour = i % 3;
            Addr<ToCreature> c = run.spawn(self -> new Creature(colour, self, mallAddr));
            mallAddr.tell(new Meet(colour, c));     // the creature's first request
        }
        run.await(done);
        run.expect("meetings left unarranged", 0, mall.left);
        return mall.sum;
    }

    private static final class Mall implements Handler<ToMall> {
        private final int creatures;
        private final CountDownLatch done;
        int left;
        private Meet waiting;
        private int faded;
        long sum;

        Mall(int meetings, int creatures, CountDownLatch done) {
            this.left = meetings;
            this.creatures = creatures;
            this.done = done;
        }

        @Override
        public void handle(ToMall msg) {
            if (msg instanceof Meet m) {
                if (left == 0) {
                    m.from().tell(EXIT);
                } else if (waiting == null) {
                    waiting = m;
                } else {
                    left--;
                    waiting.from().tell(m);
                    waiting = null;
                }
            } else {
                sum += ((MeetingCount) msg).meetings();
                if (++faded == creatures) {
                    done.countDown();
                }
            }
        }
    }

    private static final class Creature implements Handler<ToCreature> {
        private final Addr<ToCreature> self;
        private final Addr<ToMall> mall;
        private int colour;
        private int meetings;

        Creature(int colour, Addr<ToCreature> self, Addr<ToMall> mall) {
            this.colour = colour;
            this.self = self;
            this.mall = mall;
        }

        @Override
        public void handle(ToCreature msg) {
            if (msg instanceof Meet other) {
                colour = complement(colour, other.colour());
                meetings++;
                other.from().tell(new Change(colour));
                mall.tell(new Meet(colour, self));
            } else if (msg instanceof Change c) {
                colour = c.colour();
                meetings++;
                mall.tell(new Meet(colour, self));
            } else {
                mall.tell(new MeetingCount(meetings));
            }
        }
    }
}
