/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A receive polled by hand (not by a combinator, which reads its value directly) takes the value
 * from the channel, then wraps it in a {@link Poll}; an {@link OutOfMemoryError} from that
 * allocation made the poll throw with the value out of the channel and in nobody's hands: lost.
 * The receive now gives the value back before the error goes on, so the next receive gets it.
 *
 * <p>The allocation is made to fail by the channel's seam ({@link
 * DirectTask#beforeWrap}), which throws what a full heap throws there. (A child JVM
 * with a really full heap did not fail it for certain: the 16-byte wrapper sometimes still fit.)
 */
class ReceivePolledByHandOutOfMemoryKeepsTheValueTest {

    private final AsyncCombinatorTest.HandContext cx = new AsyncCombinatorTest.HandContext();

    @AfterEach
    void clearSeam() {
        DirectTask.beforeWrap = null;
    }

    /** Makes {@code receive}'s wrap of the value it took throw, once. */
    private static void failNextWrapOf(AsyncTask<?> receive) {
        DirectTask.beforeWrap = t -> {
            if (t == receive) {
                DirectTask.beforeWrap = null;
                throw new OutOfMemoryError("test: the receive's Poll cannot be allocated");
            }
        };
    }

    /** Receives until the channel has nothing ready; the values, in order. */
    private List<Integer> drain(AsyncChannel<Integer> ch) {
        List<Integer> got = new ArrayList<>();
        for (;;) {
            Poll<Integer> p = ch.receive().poll(cx);
            if (p.isPending()) {
                return got;
            }
            got.add(p.value());
        }
    }

    @Test
    void aBufferedValueWhoseWrapFailsIsReceivedNextInItsPlace() {
        AsyncChannel<Integer> ch = new AsyncChannel<>(16);
        for (int i = 0; i < 5; i++) {
            assertThat(ch.send(i).poll(cx).isReady()).isTrue();
        }
        assertThat(ch.receive().poll(cx).value()).isEqualTo(0);
        AsyncTask<Integer> failing = ch.receive();
        failNextWrapOf(failing);
        assertThatThrownBy(() -> failing.poll(cx)).isInstanceOf(OutOfMemoryError.class);
        assertThat(drain(ch)).as("values after the failed receive").containsExactly(1, 2, 3, 4);
    }

    @Test
    void aHandedOverValueWhoseWrapFailsGoesToTheNextWaitingReceiver() {
        AsyncChannel<Integer> ch = new AsyncChannel<>(1);
        AsyncTask<Integer> first = ch.receive();
        AsyncTask<Integer> second = ch.receive();
        assertThat(first.poll(cx).isPending()).isTrue();
        assertThat(second.poll(cx).isPending()).isTrue();
        assertThat(ch.send(7).poll(cx).isReady()).isTrue();      // handed to first
        failNextWrapOf(first);
        assertThatThrownBy(() -> first.poll(cx)).isInstanceOf(OutOfMemoryError.class);
        Poll<Integer> p = second.poll(cx);
        assertThat(p.isReady()).as("the waiting receiver was handed the value").isTrue();
        assertThat(p.value()).isEqualTo(7);
        assertThat(drain(ch)).as("nothing else left").isEmpty();
    }

    @Test
    void aValueWhoseWrapFailsAfterTheNextWasHandedOnIsStillReceived() {
        AsyncChannel<Integer> ch = new AsyncChannel<>(1);
        AsyncTask<Integer> first = ch.receive();
        AsyncTask<Integer> second = ch.receive();
        assertThat(first.poll(cx).isPending()).isTrue();
        assertThat(second.poll(cx).isPending()).isTrue();
        assertThat(ch.send(7).poll(cx).isReady()).isTrue();      // handed to first
        assertThat(ch.send(8).poll(cx).isReady()).isTrue();      // handed to second
        failNextWrapOf(first);
        assertThatThrownBy(() -> first.poll(cx)).isInstanceOf(OutOfMemoryError.class);
        assertThat(second.poll(cx).value()).isEqualTo(8);
        assertThat(drain(ch)).as("the failed receive's value, held for the next").containsExactly(7);
    }

    @Test
    void aHandedOverValueWhoseWrapFailsWithNoOtherReceiverIsReceivedNext() {
        AsyncChannel<Integer> ch = new AsyncChannel<>(4);
        AsyncTask<Integer> waiting = ch.receive();
        assertThat(waiting.poll(cx).isPending()).isTrue();
        assertThat(ch.send(7).poll(cx).isReady()).isTrue();      // handed over
        assertThat(ch.send(8).poll(cx).isReady()).isTrue();      // buffered behind it
        failNextWrapOf(waiting);
        assertThatThrownBy(() -> waiting.poll(cx)).isInstanceOf(OutOfMemoryError.class);
        assertThat(drain(ch)).as("values after the failed receive").containsExactly(7, 8);
    }

    @Test
    void everyValueIsReceivedOnceWhicheverReceiveFails() {
        for (int fail = 0; fail < 20; fail++) {
            AsyncChannel<Integer> ch = new AsyncChannel<>(Integer.MAX_VALUE);
            for (int i = 0; i < 20; i++) {
                assertThat(ch.send(i).poll(cx).isReady()).isTrue();
            }
            List<Integer> got = new ArrayList<>();
            for (int i = 0; i < fail; i++) {
                got.add(ch.receive().poll(cx).value());
            }
            AsyncTask<Integer> failing = ch.receive();
            failNextWrapOf(failing);
            assertThatThrownBy(() -> failing.poll(cx)).isInstanceOf(OutOfMemoryError.class);
            got.addAll(drain(ch));
            assertThat(got).as("failing receive %d", fail).hasSize(20);
            for (int i = 0; i < 20; i++) {
                assertThat(got.get(i)).as("failing receive %d, value %d", fail, i).isEqualTo(i);
            }
        }
    }
}
