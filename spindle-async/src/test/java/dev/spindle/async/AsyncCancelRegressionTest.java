/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.async.AsyncCombinatorTest.HandContext;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Races between giving up on a task and its completion, found by review (session 29) and by CI
 * (session 41), each test failing before its fix.
 */
class AsyncCancelRegressionTest {

    /**
     * Spawns {@code then(ready(0), fn)} where {@code fn}, run within the task's first poll, is
     * given the task's own handle: what a {@code cancel} that lands during a poll, after the
     * poll made an operation but before it polled it, looks like, with no race left to chance.
     * On a runtime of one worker, what the caller spawns next runs only after that poll.
     */
    private static <T> JoinHandle<T> spawnCancellingWithin(AsyncRuntime rt,
            Function<JoinHandle<T>, AsyncTask<T>> fn) throws Exception {
        CompletableFuture<JoinHandle<T>> self = new CompletableFuture<>();
        JoinHandle<T> h = rt.spawn(Async.then(Async.ready(0), x -> fn.apply(self.join())));
        self.complete(h);
        return h;
    }

    /**
     * A receive that a task's poll begins after the task's handle was cancelled takes nothing:
     * a value sent after {@code cancel} returned stays in the channel for the next receiver.
     * Before the fix the receive took it, the poll completed the task, and the runtime dropped
     * the result of the cancelled task: the value was lost (CI, session 41: a chain cancelled
     * while its worker was descheduled mid-poll, so the send made after the cancel came first).
     */
    @Test
    void aReceiveBegunInACancelledPollLeavesTheValueInTheChannel() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            AsyncChannel<Integer> ch = new AsyncChannel<>(1);
            JoinHandle<Integer> h = spawnCancellingWithin(rt, self -> {
                assertThat(self.cancel(false)).isTrue();
                assertThat(ch.send(5).poll(new HandContext()).isReady()).as("sent after the cancel").isTrue();
                return ch.receive();
            });
            assertThat(rt.spawn(ch.receive()).get(10, SECONDS)).isEqualTo(5);
            assertThat(h.isCancelled()).isTrue();
        }
    }

    /**
     * Spawns a task that polls {@code op} (pending), runs {@code serve} (which completes it: a
     * send hands it a value, a release grants it a permit), cancels its own handle and returns
     * {@code op}'s next poll: a cancel that lands during a poll, after the operation was served
     * and before the poll took what it was given. One worker, as above.
     */
    private static <T> JoinHandle<T> spawnServedThenCancelled(AsyncRuntime rt, AsyncTask<T> op, Runnable serve) {
        CompletableFuture<JoinHandle<T>> self = new CompletableFuture<>();
        class ServedThenCancelled implements AsyncTask<T>, Cancellable {
            @Override
            public Poll<T> poll(Context cx) {
                assertThat(op.poll(cx).isPending()).as("the operation waits").isTrue();
                serve.run();
                assertThat(self.join().cancel(false)).isTrue();
                return op.poll(cx);
            }

            @Override
            public void cancel() {             // withdraws what it awaits, as a combinator does
                Async.cancel(op);
            }
        }
        JoinHandle<T> h = rt.spawn(new ServedThenCancelled());
        self.complete(h);
        return h;
    }

    /**
     * A value handed to a waiting receive before its task was cancelled, which the task's poll
     * meets only after the cancel, is passed on, as a cancelled receive's value is: before the
     * fix the receive returned it into the poll whose result the runtime dropped.
     */
    @Test
    void aValueHandedOverBeforeACancelMetInTheCancelledPollIsPassedOn() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            AsyncChannel<Integer> ch = new AsyncChannel<>(1);
            JoinHandle<Integer> h = spawnServedThenCancelled(rt, ch.receive(),
                    () -> assertThat(ch.send(5).poll(new HandContext()).isReady()).isTrue());
            assertThat(rt.spawn(ch.receive()).get(10, SECONDS)).isEqualTo(5);
            assertThat(h.isCancelled()).isTrue();
        }
    }

    /** Likewise a permit granted to a waiting acquire goes back. */
    @Test
    void aPermitGrantedBeforeACancelMetInTheCancelledPollGoesBack() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            AsyncSemaphore permits = new AsyncSemaphore(0);
            JoinHandle<Void> h = spawnServedThenCancelled(rt, permits.acquire(), permits::release);
            rt.spawn(permits.acquire()).get(10, SECONDS);
            assertThat(h.isCancelled()).isTrue();
        }
    }

    /**
     * Likewise an acquire begun in a cancelled poll takes no permit: the task will not run on
     * to release it (before the fix the permit was gone for good).
     */
    @Test
    void anAcquireBegunInACancelledPollTakesNoPermit() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            AsyncSemaphore permits = new AsyncSemaphore(1);
            JoinHandle<Integer> h = spawnCancellingWithin(rt, self -> {
                assertThat(self.cancel(false)).isTrue();
                return Async.map(permits.acquire(), x -> 1);
            });
            rt.spawn(permits.acquire()).get(10, SECONDS);
            assertThat(h.isCancelled()).isTrue();
        }
    }

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
