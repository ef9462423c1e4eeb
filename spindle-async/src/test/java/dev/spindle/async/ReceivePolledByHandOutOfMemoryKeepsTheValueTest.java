/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A receive polled by hand (not by a combinator, which reads its value directly) takes the value
 * from the channel, then wraps it in a {@link Poll}; an {@link OutOfMemoryError} from that
 * allocation made the poll throw with the value out of the channel and in nobody's hands: lost.
 * The receive now gives the value back before the error goes on, so the next receive gets it.
 *
 * <p>A real {@code OutOfMemoryError} needs a full heap, so the receives run in a child JVM
 * ({@link FullHeapChild}), which fills its heap, receives until one fails, frees the heap and
 * receives what the channel holds: each value once, in order.
 */
@Timeout(120)
class ReceivePolledByHandOutOfMemoryKeepsTheValueTest {

    /** Values buffered before the heap is filled. */
    static final int VALUES = 2000;

    @Test
    void aReceiveWhosePollRunsOutOfMemoryLosesNoValue() throws Exception {
        assertThat(FullHeapChild.result(Child.class)).startsWith("RESULT ok");
    }

    /** The receives under a full heap; prints "RESULT ok ..." or "RESULT lost ...". */
    public static final class Child {
        public static void main(String[] args) {
            FullHeapChild.HandContext cx = new FullHeapChild.HandContext();
            AsyncChannel<Integer> ch = new AsyncChannel<>(Integer.MAX_VALUE);
            Integer[] values = new Integer[VALUES];
            List<AsyncTask<Integer>> receives = new ArrayList<>(VALUES);
            for (int i = 0; i < VALUES; i++) {
                values[i] = Integer.valueOf(100_000 + i);   // beyond the Integer cache: each its own
                if (!ch.send(values[i]).poll(cx).isReady()) {
                    System.out.println("RESULT setup: send " + i + " pending");
                    return;
                }
                receives.add(ch.receive());
            }
            // warm the paths the full heap must not allocate on (class loading allocates): a
            // buffered receive, and a receive cancelled while holding a handed-over value
            AsyncChannel<Integer> warm = new AsyncChannel<>(4);
            warm.send(values[0]).poll(cx);
            warm.receive().poll(cx);
            AsyncTask<Integer> held = warm.receive();
            held.poll(cx);
            warm.send(values[1]).poll(cx);
            Async.cancel(held);
            warm.receive().poll(cx);
            List<Integer> got = new ArrayList<>(VALUES);
            FullHeapChild.fill();
            int received = 0;
            boolean threw = false;
            for (; received < VALUES; received++) {
                try {
                    Poll<Integer> p = receives.get(received).poll(cx);
                    values[received] = p.value() == values[received] ? values[received] : null;
                } catch (OutOfMemoryError e) {
                    threw = true;
                    break;
                }
            }
            FullHeapChild.free();
            if (!threw) {
                System.out.println("RESULT setup: no receive ran out of memory (" + received + " received)");
                return;
            }
            for (int i = 0; i < received; i++) {
                if (values[i] == null) {
                    System.out.println("RESULT lost: receive " + i + " got another value");
                    return;
                }
            }
            // the receive failed, so its receiver tries again: the value it took is still there
            for (;;) {
                Poll<Integer> p = ch.receive().poll(cx);
                if (p.isPending()) {
                    break;
                }
                got.add(p.value());
            }
            int expected = VALUES - received;
            for (int i = 0; i < got.size(); i++) {
                int at = received + i;
                if (i >= expected || got.get(i) != values[at]) {
                    System.out.println("RESULT lost: receive " + at + " got " + got.get(i) + " instead of "
                            + (i < expected ? values[at] : "nothing") + " (" + got.size() + " received after, "
                            + expected + " left)");
                    return;
                }
            }
            System.out.println((got.size() == expected ? "RESULT ok " : "RESULT lost ") + "received " + received
                    + " before the receive that ran out of memory, then " + got.size() + " of " + expected);
        }
    }
}
