/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A receive from a full channel with a sender waiting moves that sender's value into the room it
 * makes; growing the buffer for it may throw ({@link OutOfMemoryError}). Before, the receive had
 * already taken the oldest value and unlinked the sender when the growth threw: the receive
 * failed holding a value nobody got, and the sender, no longer queued nor served, waited for good
 * with its value lost. The failed receive must leave the channel as it was.
 */
@Timeout(60)
class ChannelGrowthErrorTest {

    private static final class HandContext implements Context {
        int wakes;
        private final Waker waker = new Waker() {
            @Override
            public void wake() {
                wakes++;
            }

            @Override
            public boolean expired() {
                return false;
            }
        };

        @Override
        public Waker waker() {
            return waker;
        }

        @Override
        public boolean consumeBudget() {
            return true;
        }
    }

    @Test
    void aReceiveWhoseBufferGrowthThrowsLosesNoValueAndNoSender() {
        AsyncChannel<String> ch = new AsyncChannel<>(2);
        HandContext cx = new HandContext();
        assertThat(ch.send("a").poll(cx).isReady()).isTrue();
        assertThat(ch.send("b").poll(cx).isReady()).isTrue();
        AsyncTask<Void> waiting = ch.send("c");
        assertThat(waiting.poll(cx).isPending()).as("the buffer is full: c waits").isTrue();

        ch.beforeRestAdd = () -> {
            ch.beforeRestAdd = null;
            throw new OutOfMemoryError("growing the buffer");
        };
        assertThatThrownBy(() -> ch.receive().poll(cx)).isInstanceOf(OutOfMemoryError.class);

        List<String> got = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Poll<String> p = ch.receive().poll(cx);
            assertThat(p.isReady()).as("receive %d ready (got %s so far)", i, got).isTrue();
            got.add(p.value());
        }
        assertThat(got).containsExactly("a", "b", "c");
        assertThat(waiting.poll(cx).isReady()).as("the waiting sender was served").isTrue();
    }
}
