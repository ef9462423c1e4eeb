/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * The order in which a channel hands out values that receives took and then gave back (an
 * {@code all} holding them cancelled, having returned them or not), checked against a model on
 * one thread. Values are sent in increasing order, so a value's number in the channel's order is
 * the value itself: a receive gets the smallest value in the channel (given back values ahead of
 * the buffered ones, among themselves in the channel's order), a send or a give-back while
 * receives wait goes to the oldest waiting one, and nothing is received twice or lost.
 */
class GivenBackOrderPropertiesTest {

    /** A pending all over a receive: the model's view of what its receive holds. */
    private static final class Holder {
        final AsyncTask<List<Integer>> all;
        Integer value;                         // null while its receive waits with nothing

        Holder(AsyncTask<List<Integer>> all) {
            this.all = all;
        }
    }

    @Property(tries = 300)
    void receivesGetTheSmallestValueInTheChannelAndEveryValueOnce(
            @ForAll @Size(min = 1, max = 60) List<@IntRange(min = 0, max = 4) Integer> ops,
            @ForAll @IntRange(min = 0, max = 1000) int pick) {
        AsyncCombinatorTest.HandContext cx = new AsyncCombinatorTest.HandContext();
        AsyncChannel<Integer> ch = new AsyncChannel<>(1000);
        TreeSet<Integer> available = new TreeSet<>();  // the model: values in the channel
        ArrayDeque<Holder> waiting = new ArrayDeque<>();  // holders whose receives wait, oldest first
        List<Holder> holders = new ArrayList<>();
        List<Integer> received = new ArrayList<>();
        int next = 0;
        int step = 0;
        for (int op : ops) {
            step++;
            int which = holders.isEmpty() ? 0 : Math.floorMod(pick * 31 + step * 17, holders.size());
            switch (op) {
                case 0 -> {                    // send the next value
                    int v = next++;
                    assertThat(ch.send(v).poll(cx).isReady()).isTrue();
                    if (!waiting.isEmpty()) {
                        waiting.poll().value = v;
                    } else {
                        available.add(v);
                    }
                }
                case 1 -> {                    // a receive in an all that stays pending
                    Holder h = new Holder(Async.all(List.of(ch.receive(), new AsyncPromise<Integer>())));
                    assertThat(h.all.poll(cx).isPending()).isTrue();
                    if (available.isEmpty()) {
                        waiting.add(h);
                    } else {
                        h.value = available.pollFirst();
                    }
                    holders.add(h);
                }
                case 2 -> {                    // the all is cancelled: what its receive holds goes back
                    if (holders.isEmpty()) {
                        continue;
                    }
                    Holder h = holders.remove(which);
                    Async.cancel(h.all);
                    if (h.value == null) {
                        waiting.remove(h);
                    } else if (!waiting.isEmpty()) {
                        waiting.poll().value = h.value;
                    } else {
                        available.add(h.value);
                    }
                }
                case 3 -> {                    // an all polled again: a value handed over is returned to it
                    if (!holders.isEmpty()) {
                        assertThat(holders.get(which).all.poll(cx).isPending()).isTrue();
                    }
                }
                default -> {                   // a receive of the caller's, while there is a value
                    if (available.isEmpty()) {
                        continue;
                    }
                    Poll<Integer> p = ch.receive().poll(cx);
                    assertThat(p.isReady()).isTrue();
                    assertThat(p.value()).as("the smallest value in the channel").isEqualTo(available.pollFirst());
                    received.add(p.value());
                }
            }
            assertThat(ch.size()).as("values in the channel").isEqualTo(available.size());
        }
        for (Holder h : holders) {             // the rest given back: each value is somewhere, once
            Async.cancel(h.all);
            if (h.value != null) {
                available.add(h.value);
            }
        }
        ch.close();
        while (true) {
            Poll<Integer> p;
            try {
                p = ch.receive().poll(cx);
            } catch (ChannelClosedException drained) {
                break;
            }
            assertThat(p.isReady()).as("nothing left in flight").isTrue();
            assertThat(p.value()).isEqualTo(available.pollFirst());
            received.add(p.value());
        }
        assertThat(available).isEmpty();
        assertThat(received).doesNotHaveDuplicates().hasSize(next);
    }
}
