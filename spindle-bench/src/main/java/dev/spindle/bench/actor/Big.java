/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.actor;

import java.util.Locale;
import java.util.concurrent.CountDownLatch;

/**
 * Savina "big": {@code actors} actors, each sending {@code pings} pings, one at a time, to
 * pseudo-randomly chosen actors (itself included) and waiting for the pong before the next;
 * every actor answers every ping it gets. Many-to-many traffic with all actors busy at once.
 * Each actor reports to a sink when its pings are answered. The result is the number of pongs
 * received, {@code actors * pings}; each actor also checks that every pong came from the actor
 * it pinged.
 */
public final class Big extends ActorWorkload {

    public static final int FULL_ACTORS = 120;
    public static final int FULL_PINGS = 20_000;

    private final int actors;
    private final int pings;

    public Big(int actors, int pings) {
        this.actors = positive("actors", actors);
        this.pings = positive("pings", pings);
    }

    @Override
    public String name() {
        return "big";
    }

    @Override
    public String describe() {
        return String.format(Locale.ROOT, "big(%,d actors x %,d pings)", actors, pings);
    }

    @Override
    public long expected() {
        return (long) actors * pings;
    }

    @Override
    public long messages() {
        return 2L * actors * pings + 2L * actors;
    }

    /** Ping or pong, from actor {@code from}; each actor sends its own two instances only. */
    record Msg(boolean ping, int from) {
    }

    /** Starts an actor's first ping: a pong from nobody ({@code -1}), as expected before any ping. */
    static final Msg KICK_OFF = new Msg(false, -1);

    record Done(long pongs, int mismatched) {
    }

    @Override
    protected long runUnchecked(Run run) {
        CountDownLatch done = new CountDownLatch(1);
        Sink sink = new Sink(actors, done);
        Addr<Done> sinkAddr = run.spawn(self -> sink);
        @SuppressWarnings("unchecked")
        Addr<Msg>[] all = new Addr[actors];
        for (int i = 0; i < actors; i++) {
            int id = i;
            all[i] = run.spawn(self -> new BigActor(id, pings, all, sinkAddr));
        }
        for (Addr<Msg> a : all) {                   // every address is known before the first tell
            a.tell(KICK_OFF);
        }
        run.await(done);
        run.expect("pongs from an actor other than the one pinged", 0, sink.mismatched);
        return sink.pongs;
    }

    private static final class BigActor implements Handler<Msg> {
        private final Msg myPing;
        private final Msg myPong;
        private final int pings;
        private final Addr<Msg>[] all;
        private final Addr<Done> sink;
        private long random;
        private int sent;
        private int expectedFrom = -1;
        private long pongs;
        private int mismatched;

        BigActor(int id, int pings, Addr<Msg>[] all, Addr<Done> sink) {
            this.myPing = new Msg(true, id);
            this.myPong = new Msg(false, id);
            this.pings = pings;
            this.all = all;
            this.sink = sink;
            this.random = 0x9E3779B97F4A7C15L * (id + 1);
        }

        @Override
        public void handle(Msg m) {
            if (m.ping()) {
                all[m.from()].tell(myPong);
                return;
            }
            if (m != KICK_OFF) {
                pongs++;
            }
            if (m.from() != expectedFrom) {
                mismatched++;
            }
            if (sent == pings) {
                sink.tell(new Done(pongs, mismatched));
            } else {
                sent++;
                expectedFrom = nextTarget();
                all[expectedFrom].tell(myPing);
            }
        }

        /** A 64-bit LCG (Knuth's MMIX constants); the high bits pick the target. */
        private int nextTarget() {
            random = random * 6364136223846793005L + 1442695040888963407L;
            return (int) (((random >>> 33) * all.length) >>> 31);
        }
    }

    private static final class Sink implements Handler<Done> {
        private final int actors;
        private final CountDownLatch done;
        private int reported;
        long pongs;
        int mismatched;

        Sink(int actors, CountDownLatch done) {
            this.actors = actors;
            this.done = done;
        }

        @Override
        public void handle(Done d) {
            pongs += d.pongs();
            mismatched += d.mismatched();
            if (++reported == actors) {
                done.countDown();
            }
        }
    }
}
