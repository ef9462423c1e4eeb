/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.actor;

import java.util.Locale;
import java.util.concurrent.CountDownLatch;

/**
 * Savina "count": a producer actor sends {@code count} increments to a counter actor, then asks
 * it for its total, which the counter sends back. One sender flooding one receiver's mailbox.
 * The result is the total the producer gets back, {@code count}.
 */
public final class Count extends ActorWorkload {

    public static final int FULL_COUNT = 1_000_000;

    private final int count;

    public Count(int count) {
        this.count = positive("count", count);
    }

    @Override
    public String name() {
        return "count";
    }

    @Override
    public String describe() {
        return String.format(Locale.ROOT, "count(%,d increments)", count);
    }

    @Override
    public long expected() {
        return count;
    }

    @Override
    public long messages() {
        return count + 3L;
    }

    static final Object START = new Object();
    static final Object INCREMENT = new Object();

    record Retrieve(Addr<Object> replyTo) {
    }

    record Total(long total) {
    }

    @Override
    protected long runUnchecked(Run run) {
        CountDownLatch done = new CountDownLatch(1);
        long[] result = {-1};
        Addr<Object> counter = run.spawn(self -> new Handler<>() {
            private long total;

            @Override
            public void handle(Object msg) {
                if (msg == INCREMENT) {
                    total++;
                } else {
                    ((Retrieve) msg).replyTo().tell(new Total(total));
                }
            }
        });
        Addr<Object> producer = run.spawn(self -> msg -> {
            if (msg == START) {
                for (int i = 0; i < count; i++) {
                    counter.tell(INCREMENT);
                }
                counter.tell(new Retrieve(self));
            } else {
                result[0] = ((Total) msg).total();
                done.countDown();
            }
        });
        producer.tell(START);
        run.await(done);
        return result[0];
    }
}
