/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.async.AsyncCombinatorTest.HandContext;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@code Async.timeout} over a {@code then} whose last stage is a send: a timed-out send was not
 * delivered (its Javadoc), also when the deadline finds the first stage completed, so that the
 * timeout polls the task again and the send that poll starts is taken by a receiver before the
 * timeout gives up.
 */
class TimeoutOverSequencedSendsTest {

    /**
     * A send whose first poll is followed at once by a receive "on another thread" (run here, so
     * that nothing is left to chance): the receive makes room, and the waiting send is accepted
     * between the poll that found it pending and whatever the caller does next. Passes cancels on
     * to the send, as a hand-written task must.
     */
    private static final class TakenAfterItsPoll implements AsyncTask<Void>, Cancellable {
        private final AsyncChannel<String> channel;
        private final AsyncTask<Void> send;
        private final String expectedReceived;
        private boolean polled;

        TakenAfterItsPoll(AsyncChannel<String> channel, String value, String expectedReceived) {
            this.channel = channel;
            this.send = channel.send(value);
            this.expectedReceived = expectedReceived;
        }

        @Override
        public Poll<Void> poll(Context cx) {
            Poll<Void> p = send.poll(cx);      // pending: the channel is full
            if (!polled) {
                polled = true;
                assertThat(p.isPending()).isTrue();
                assertThat(channel.receive().poll(new HandContext()).value()).isEqualTo(expectedReceived);
            }
            return p;
        }

        @Override
        public void cancel() {
            Async.cancel(send);
        }

        @Override
        public boolean cancelUnlessDone() {
            return Async.cancelUnlessDone(send);
        }
    }

    /**
     * The first send is accepted after the timeout's poll of it, so the timeout (deadline passed)
     * finds the {@code then} too late to withdraw and polls it again; that poll starts the second
     * send, which a receiver accepts before the timeout gives up. The timeout cancelled it without
     * asking (a plain cancel, which cannot undo an accepted send) and failed with a timeout, so a
     * caller retrying a timed-out send sent "c" twice.
     */
    @Test
    void aSendThatTheRepollAfterTheDeadlineStartedAndAReceiverTookIsReportedDelivered() {
        AsyncChannel<String> channel = new AsyncChannel<>(1);
        assertThat(channel.send("a").poll(new HandContext()).isReady()).isTrue();   // full
        AsyncTask<Void> both = Async.then(new TakenAfterItsPoll(channel, "b", "a"),
                ignored -> new TakenAfterItsPoll(channel, "c", "b"));

        Poll<Void> p;
        try {
            p = Async.timeout(both, Duration.ZERO).poll(new HandContext());
        } catch (RuntimeException timedOut) {
            p = null;
        }

        assertThat(channel.receive().poll(new HandContext()).value())
                .as("the last send was accepted").isEqualTo("c");
        assertThat(p).as("so the timeout reports it delivered, not timed out").isNotNull();
        assertThat(p.isReady()).isTrue();
    }
}
