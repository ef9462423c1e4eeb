/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static dev.spindle.testkit.Threads.runAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jetbrains.lincheck.Lincheck;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Lincheck explores the interleavings of operations on one {@link AsyncChannel} from several
 * threads, each polling its own operation once with its own context; afterwards, on one thread,
 * every operation left pending must have been served and woken exactly once, and every value
 * must have been received exactly once. The channel's lock is a word taken by CAS (see the
 * class overview): when the CAS is made a read and a write, two holders interleave and this
 * finds a value delivered twice or lost.
 *
 * <p>Teeth (audit of 2026-11-28, each bug put into the production class): both tests fail when
 * the lock's CAS is made a read and a write on every try ("receive 1 was pending and woken 0
 * times"; "the send was accepted but the receive got closed"; within 200 invocations; kept in
 * the suite by the {@code ...DetectALockTakenByAReadAndAWrite} tests, see {@link Mutant}); the
 * one-slot test fails when a receive that makes room does not wake the sender it moved in ("send
 * 1 was pending and woken 0 times"), the close test when close does not wake a waiting receive
 * ("receive was pending and woken 0 times"). Neither finds the CAS made a read and a write in the
 * contended retry only (the first try still a CAS): two holders then need a taker to fail its
 * CAS, spin, see the word free and be preempted before its write while another takes it, four or
 * so preemptions, beyond what Lincheck reached in 20,000 invocations of a two-thread, three-send
 * scenario (nor does {@code ChannelTest}'s stress test find it). The jcstress test
 * {@code ChannelTests.TwoSenders} in spindle-stress does: with that bug it reported values lost in
 * about 0.1 % of 2.9 million runs of its quick mode.
 */
class ChannelLincheckTest {

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }

    /** One operation, polled once by its thread, then finished on the checking thread. */
    private static final class Probe<T> {
        final AsyncTask<T> op;
        final AsyncCombinatorTest.HandContext cx = new AsyncCombinatorTest.HandContext();
        Poll<T> first;

        Probe(AsyncTask<T> op) {
            this.op = op;
        }

        void pollOnce() {
            first = op.poll(cx);
        }

        /** The value (null for a send), checking the wake-up a pending poll was promised. */
        T finish(String name) {
            if (first.isReady()) {
                check(cx.wakes.get() == 0, name + " was ready and still woken");
                return first.value();
            }
            check(cx.wakes.get() == 1, name + " was pending and woken " + cx.wakes.get() + " times");
            Poll<T> p = op.poll(cx);
            check(p.isReady(), name + " was woken but is still pending");
            return p.value();
        }
    }

    /** Two senders and two receivers on a one-slot channel. */
    static void twoSendersTwoReceivers() {
        AsyncChannel<Integer> ch = new AsyncChannel<>(1);
        Probe<Void> s1 = new Probe<>(ch.send(1));
        Probe<Void> s2 = new Probe<>(ch.send(2));
        Probe<Integer> r1 = new Probe<>(ch.receive());
        Probe<Integer> r2 = new Probe<>(ch.receive());
        runAll(new Thread(s1::pollOnce), new Thread(s2::pollOnce),
                new Thread(r1::pollOnce), new Thread(r2::pollOnce));
        s1.finish("send 1");
        s2.finish("send 2");
        List<Integer> got = new ArrayList<>(List.of(r1.finish("receive 1"), r2.finish("receive 2")));
        got.sort(null);
        check(got.equals(List.of(1, 2)), "received " + got + ", expected each of 1 and 2 once");
        check(ch.size() == 0, "the channel still holds " + ch.size() + " values");
    }

    /** A sender and a receiver racing a close: the value is received, or the send fails. */
    static void sendReceiveAndClose() {
        AsyncChannel<Integer> ch = new AsyncChannel<>(1);
        Probe<Void> s = new Probe<>(ch.send(7));
        Probe<Integer> r = new Probe<>(ch.receive());
        boolean[] closedOnFirstPoll = new boolean[2];
        runAll(new Thread(() -> closedOnFirstPoll[0] = pollOrClosed(s)),
                new Thread(() -> closedOnFirstPoll[1] = pollOrClosed(r)),
                new Thread(ch::close));
        Object sent = closedOnFirstPoll[0] ? "closed" : finishOrClosed(s, "send");
        Object received = closedOnFirstPoll[1] ? "closed" : finishOrClosed(r, "receive");
        if ("closed".equals(sent)) {
            check("closed".equals(received), "the send failed but the receive got " + received);
        } else {
            check(Integer.valueOf(7).equals(received), "the send was accepted but the receive got " + received);
        }
        check(ch.size() == 0, "the channel still holds " + ch.size() + " values");
    }

    /** Polls once; {@code true} if that poll failed because the channel was closed. */
    private static boolean pollOrClosed(Probe<?> p) {
        try {
            p.pollOnce();
            return false;
        } catch (ChannelClosedException e) {
            return true;
        }
    }

    private static Object finishOrClosed(Probe<?> p, String name) {
        try {
            Object v = p.finish(name);
            return v == null ? "sent" : v;
        } catch (ChannelClosedException e) {
            check(p.cx.wakes.get() == 1, name + " failed by close without one wake-up");
            return "closed";
        }
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void sendersAndReceiversOnOneSlot() {
        Lincheck.runConcurrentTest(1000, ChannelLincheckTest::twoSendersTwoReceivers);
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void sendReceiveAndCloseRace() {
        Lincheck.runConcurrentTest(1000, ChannelLincheckTest::sendReceiveAndClose);
    }

    // ------------------------------------------------------------------ teeth (see Mutant)

    /** The lock's CAS made a read and a write, on the first try and on the contended ones. */
    private static Mutant lockByReadAndWrite() {
        return Mutant.of(AsyncChannel.class)
                .replace("if (!LOCK.compareAndSet(this, 0, 1)) {",
                        "if ((int) LOCK.getVolatile(this) == 0) { LOCK.setVolatile(this, 1); } else {")
                .replace("if ((int) LOCK.getOpaque(this) == 0 && LOCK.compareAndSet(this, 0, 1)) {",
                        "if ((int) LOCK.getOpaque(this) == 0) { LOCK.setVolatile(this, 1);");
    }

    /**
     * Lincheck's exploration is seeded and follows the bytecode it instruments, the JDK's
     * included: on JDK 25 (checked 2026-11-28) these two scenarios, at their invocation counts,
     * miss the lock taken by a read and a write that they find on JDK 17, the release the build
     * targets and CI runs. The jcstress test {@code ChannelTests.TwoSenders} (spindle-stress)
     * catches that bug on any JDK.
     */
    private static void assumeTheJdkTheseWereCheckedOn() {
        assumeTrue(Runtime.version().feature() == 17,
                "the channel's mutation checks are calibrated on JDK 17; jcstress ChannelTests covers the lock elsewhere");
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void sendersAndReceiversDetectALockTakenByAReadAndAWrite() {
        assumeTheJdkTheseWereCheckedOn();
        Throwable e = lockByReadAndWrite().failureOf(ChannelLincheckTest.class, "sendersAndReceiversOnOneSlot");
        assertThat(e).isInstanceOf(LincheckAssertionError.class)
                .hasMessageFindingMatch("was pending and woken \\d+ times|received \\[");
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void closeRaceDetectsALockTakenByAReadAndAWrite() {
        assumeTheJdkTheseWereCheckedOn();
        Throwable e = lockByReadAndWrite().failureOf(ChannelLincheckTest.class, "sendReceiveAndCloseRace");
        assertThat(e).isInstanceOf(LincheckAssertionError.class)
                .hasMessageFindingMatch("woken \\d+ times|without one wake-up|but the receive got|still holds");
    }
}
