/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.testkit.Gc;
import java.lang.ref.WeakReference;
import org.junit.jupiter.api.Test;

/**
 * A receive cancelled after a value was handed to it gives the value back; a later receive
 * takes it from the channel. The cancelled receive (which its owner may still hold: a task kept
 * in a list, a select kept for its index) went on referencing the value after another receive
 * had returned it and its consumer had let go of it.
 */
class ReceivedGivenBackValueNotRetainedByCancelledReceiveTest {

    static final class Payload {
        final byte[] bytes = new byte[1 << 20];
    }

    @Test
    void theCancelledReceiveLetsGoOfTheValueOnceAnotherReceiveTookIt() throws Exception {
        AsyncChannel<Payload> ch = new AsyncChannel<>(1);
        AsyncCombinatorTest.HandContext cx = new AsyncCombinatorTest.HandContext();
        AsyncTask<Payload> cancelled = ch.receive();
        assertThat(cancelled.poll(cx).isPending()).isTrue();
        Payload payload = new Payload();
        WeakReference<Payload> watched = new WeakReference<>(payload);
        assertThat(ch.send(payload).poll(cx).isReady()).isTrue();   // handed to the waiting receive
        payload = null;
        Async.cancel(cancelled);                                     // gives it back

        Poll<Payload> taken = ch.receive().poll(cx);
        assertThat(taken.value()).isNotNull();
        taken = null;                                                // the consumer is done with it

        assertThat(Gc.collected(watched))
                .as("the value, still referenced by the cancelled receive that gave it back")
                .isTrue();
        assertThat(cancelled).isNotNull();                           // the owner still holds it
    }
}
