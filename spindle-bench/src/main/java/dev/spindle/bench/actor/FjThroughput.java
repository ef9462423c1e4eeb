/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.actor;

import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Savina "fjthrput" (fork-join throughput): the benchmark thread sends {@code messages} messages
 * to each of {@code actors} actors, round-robin; each message costs a little arithmetic (a
 * sine). Many independent actors with full mailboxes: the runtime's raw throughput. After its
 * messages each actor gets a "report" message (sent last, so handled last) and reports how many
 * it handled; the result is their sum, {@code actors * messages}.
 */
public final class FjThroughput extends ActorWorkload {

    public static final int FULL_MESSAGES = 10_000;
    public static final int FULL_ACTORS = 60;

    private final int messagesPerActor;
    private final int actors;

    public FjThroughput(int messagesPerActor, int actors) {
        this.messagesPerActor = positive("messages", messagesPerActor);
        this.actors = positive("actors", actors);
    }

    @Override
    public String name() {
        return "fjthrput";
    }

    @Override
    public String describe() {
        return String.format(Locale.ROOT, "fjthrput(%,d messages x %,d actors)", messagesPerActor, actors);
    }

    @Override
    public long expected() {
        return (long) messagesPerActor * actors;
    }

    @Override
    public long messages() {
        return (long) (messagesPerActor + 1) * actors;
    }

    static final Object WORK = new Object();
    static final Object REPORT = new Object();

    @Override
    protected long runUnchecked(Run run) {
        CountDownLatch done = new CountDownLatch(actors);
        AtomicLong handled = new AtomicLong();
        AtomicLong badSums = new AtomicLong();
        @SuppressWarnings("unchecked")
        Addr<Object>[] all = new Addr[actors];
        for (int i = 0; i < actors; i++) {
            all[i] = run.spawn(self -> new Worker(handled, badSums, done));
        }
        for (int m = 0; m < messagesPerActor; m++) {
            for (Addr<Object> a : all) {
                a.tell(WORK);
            }
        }
        for (Addr<Object> a : all) {
            a.tell(REPORT);
        }
        run.await(done);
        run.expect("actors whose computation went wrong", 0, badSums.get());
        return handled.get();
    }

    private static final class Worker implements Handler<Object> {
        private final AtomicLong handled;
        private final AtomicLong badSums;
        private final CountDownLatch done;
        private long count;
        private double sum;

        Worker(AtomicLong handled, AtomicLong badSums, CountDownLatch done) {
            this.handled = handled;
            this.badSums = badSums;
            this.done = done;
        }

        @Override
        public void handle(Object msg) {
            if (msg == WORK) {
                double s = Math.sin(37.2 + (count & 7));   // Savina's theta, varied so it is not hoisted
                sum += s * s;
                count++;
            } else {
                if (count > 0 && !(sum > 0 && sum <= count)) {
                    badSums.incrementAndGet();
                }
                handled.addAndGet(count);
                done.countDown();
            }
        }
    }
}
