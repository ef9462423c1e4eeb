/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.async.AsyncCombinatorTest.HandContext;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Races between giving up on a task and its completion, found by review (session 29), each
 * test failing before its fix.
 */
class AsyncCancelRegressionTest {

    /**
     * A waiting send that a receiver accepted between the timeout's poll of it and the
     * deadline: {@code Async.timeout} reports the send, not a timeout, so that a caller does not
     * send the value again. That held for a send under {@code map}, {@code then},
     * {@code recover} and {@code loop}, but not under another timeout: the outer one's
     * {@code cancelUnlessDone} reached the inner timeout, which has no override, so it cancelled
     * the delivered send and the outer one failed with a timeout. A per-attempt timeout inside an
     * overall one is a common shape, and its caller then sent the value twice.
     */
    @Test
    void aTimeoutOverATimedSendThatAReceiverTookMeanwhileReportsTheSend() {
        AsyncChannel<String> channel = new AsyncChannel<>(1);
        assertThat(channel.send("first").poll(new HandContext()).isReady()).isTrue();   // full
        AsyncTask<Void> waitingSend = channel.send("second");
        AsyncTask<Void> send = new AsyncTask<Void>() {
            private boolean polled;

            @Override
            public Poll<Void> poll(Context cx) {
                Poll<Void> p = waitingSend.poll(cx);                   // pending: the channel is full
                if (!polled) {
                    polled = true;
                    // a receiver on another thread, after that poll: "second" moves in
                    assertThat(channel.receive().poll(new HandContext()).value()).isEqualTo("first");
                }
                return p;
            }
        };
        AsyncTask<Void> sendWithin = Async.timeout(new Passing<>(send, waitingSend), Duration.ofHours(1));
        Poll<Void> p = Async.timeout(sendWithin, Duration.ZERO).poll(new HandContext());
        assertThat(p.isReady()).as("the send was delivered: the outer timeout reports it").isTrue();
        assertThat(channel.receive().poll(new HandContext()).value()).isEqualTo("second");
    }

    /** Polls {@code task}, and passes cancels on to {@code op}, the operation it awaits. */
    private static final class Passing<T> implements AsyncTask<T>, Cancellable {
        private final AsyncTask<T> task;
        private final AsyncTask<?> op;

        Passing(AsyncTask<T> task, AsyncTask<?> op) {
            this.task = task;
            this.op = op;
        }

        @Override
        public Poll<T> poll(Context cx) {
            return task.poll(cx);
        }

        @Override
        public void cancel() {
            Async.cancel(op);
        }

        @Override
        public boolean cancelUnlessDone() {
            return Async.cancelUnlessDone(op);
        }
    }
}
