/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.spindle.async.AsyncChannel;
import dev.spindle.async.AsyncTask;
import dev.spindle.async.Context;
import dev.spindle.async.Poll;
import dev.spindle.async.Waker;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The lock word of {@link AsyncChannel}: every operation takes it with a CAS, and under contention
 * spins on a read before each further CAS. Two threads that both held it would write the same
 * slot of the buffer or move its counters apart, and a value would be lost or received twice.
 * Lincheck's model checking does not reach the case where the spinning retry itself is broken
 * (a read and a write instead of the CAS; see {@code ChannelLincheckTest}); here two threads
 * contend for real, one's fresh CAS landing between the other's read and write.
 */
public final class ChannelTests {

    private ChannelTests() {
    }

    /** A context whose waker does nothing: the operations here never wait for a wake-up. */
    static final Context NO_WAKE = new Context() {
        private final Waker waker = () -> { };

        @Override
        public Waker waker() {
            return waker;
        }

        @Override
        public boolean consumeBudget() {
            return true;
        }
    };

    /** Polls {@code op} once: its value, or {@code 0} if it is pending. */
    static int pollOnce(AsyncTask<Integer> op) {
        Poll<Integer> p = op.poll(NO_WAKE);
        return p.isReady() ? p.value() : 0;
    }

    /** Polls a send once: 1 if the channel took the value, 0 if the send is pending. */
    static int sendOnce(AsyncChannel<Integer> ch, int value) {
        return ch.send(value).poll(NO_WAKE).isReady() ? 1 : 0;
    }

    @JCStressTest
    @Description("Two threads each send three values into a channel with room for all, each send's poll taking the channel's lock; the arbiter receives them. Every value, 1 to 6, comes out exactly once. A broken lock shows when one thread's retry reads the word free and another thread takes it before the retry writes it.")
    @Outcome(id = "6, 21, 1", expect = ACCEPTABLE, desc = "every value received once")
    @Outcome(expect = FORBIDDEN, desc = "a value lost or received twice: two threads held the channel's lock")
    @State
    public static class TwoSenders {
        final AsyncChannel<Integer> ch = new AsyncChannel<>(8);
        int sent1;
        int sent2;

        @Actor
        public void sender1() {
            sent1 = sendOnce(ch, 1) + sendOnce(ch, 2) + sendOnce(ch, 3);
        }

        @Actor
        public void sender2() {
            sent2 = sendOnce(ch, 4) + sendOnce(ch, 5) + sendOnce(ch, 6);
        }

        @Arbiter
        public void check(III_Result r) {
            int seen = 0;
            int count = 0;
            int sum = 0;
            boolean distinct = true;
            for (int v; count < 8 && (v = pollOnce(ch.receive())) != 0; ) {
                int bit = 1 << v;
                distinct &= (seen & bit) == 0;
                seen |= bit;
                count++;
                sum += v;
            }
            r.r1 = sent1 + sent2 == 6 ? count : -count;   // a send not taken at once: negative
            r.r2 = sum;
            r.r3 = distinct ? 1 : 0;
        }
    }
}
