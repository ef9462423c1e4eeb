/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.testkit.Gc;
import java.lang.ref.WeakReference;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A receive cancelled after a value was handed to it gives the value back to the channel, which
 * keeps the receive itself (holding the value and its number in the channel's order) until a later receive
 * takes it. The receive also kept the waker of its last poll, and through it the cancelled task
 * around it: here an {@code all}, whose results held what its other children had produced, for
 * as long as nobody received from the channel again.
 */
class ChannelGivenBackValueRetentionTest {

    /** A payload whose collection the test watches. */
    static final class Payload {
        final byte[] bytes = new byte[1 << 20];
    }

    @Test
    void aGivenBackValueDoesNotKeepTheCancelledTaskThatReceivedIt() throws Exception {
        AsyncChannel<String> ch = new AsyncChannel<>(1);
        AsyncCombinatorTest.HandContext cx = new AsyncCombinatorTest.HandContext();
        Payload payload = new Payload();
        WeakReference<Payload> watched = new WeakReference<>(payload);
        AsyncTask<List<Object>> both = Async.all(List.of(Async.ready(payload), ch.receive()));
        payload = null;
        assertThat(both.poll(cx).isPending()).as("the receive waits, the payload is collected").isTrue();
        assertThat(ch.send("handed over").poll(cx).isReady()).isTrue();
        Async.cancel(both);                    // the receive gives "handed over" back
        both = null;

        assertThat(Gc.collected(watched)).as("the cancelled all's results, kept by the channel").isTrue();
        AsyncTask<String> next = ch.receive();
        assertThat(next.poll(cx).value()).as("the value given back is still received").isEqualTo("handed over");
    }
}
