/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.actor;

import java.util.Locale;
import java.util.concurrent.CountDownLatch;

/**
 * Tell-only throughput (after Pekko's {@code TellOnlyBenchmark}, with several senders):
 * {@code senders} actors each send {@code messages} messages, as fast as they can, to one sink
 * actor that only counts them; then each sends "finished". The cost of a tell and of draining a
 * contended mailbox, nothing else. The result is what the sink counted when the last sender
 * finished, {@code senders * messages} (each sender's "finished" comes after its messages).
 */
public final class TellOnly extends ActorWorkload {

    public static final int FULL_SENDERS = 4;
    public static final int FULL_MESSAGES = 250_000;

    private final int senders;
    private final int messagesPerSender;

    public TellOnly(int senders, int messagesPerSender) {
        this.senders = positive("senders", senders);
        this.messagesPerSender = positive("messages", messagesPerSender);
    }

    @Override
    public String name() {
        return "tell-only";
    }

    @Override
    public String describe() {
        return String.format(Locale.ROOT, "tell-only(%,d senders x %,d messages -> 1 actor)", senders, messagesPerSender);
    }

    @Override
    public long expected() {
        return (long) senders * messagesPerSender;
    }

    @Override
    public long messages() {
        return (long) senders * (messagesPerSender + 2);
    }

    static final Object START = new Object();
    static final Object MESSAGE = new Object();
    static final Object FINISHED = new Object();

    @Override
    protected long runUnchecked(Run run) {
        CountDownLatch done = new CountDownLatch(1);
        long[] result = {-1};
        Addr<Object> sink = run.spawn(self -> new Handler<>() {
            private long count;
            private int finished;

            @Override
            public void handle(Object msg) {
                if (msg == MESSAGE) {
                    count++;
                } else if (++finished == senders) {
                    result[0] = count;
                    done.countDown();
                }
            }
        });
        @SuppressWarnings("unchecked")
        Addr<Object>[] all = new Addr[senders];
        for (int i = 0; i < senders; i++) {
            all[i] = run.spawn(self -> msg -> {
                for (int m = 0; m < messagesPerSender; m++) {
                    sink.tell(MESSAGE);
                }
                sink.tell(FINISHED);
            });
        }
        for (Addr<Object> a : all) {
            a.tell(START);
        }
        run.await(done);
        return result[0];
    }
}
