/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.async.AsyncCombinatorTest.HandContext;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Composition defects found by review (session 31), each test failing before its fix.
 */
class AsyncCompositionRegressionTest {

    /** A hand-written task that breaks the contract: its poll returns {@code null}, not a {@link Poll}. */
    private static final AsyncTask<Integer> NULL_POLL = cx -> null;

    /**
     * A child of {@code all} or {@code select} whose poll returns {@code null} fails the parent
     * with a {@link NullPointerException}, as the same task does when spawned alone or awaited by
     * {@code map}/{@code then}. It used to read as "not polled" and so as pending for good: the
     * parent, and whoever awaited it, hung without a trace, and its siblings kept their places
     * in the channels they waited on.
     */
    @Test
    void aChildWhosePollReturnsNullFailsAllAndSelectInsteadOfHangingThem() {
        HandContext cx = new HandContext();
        assertThatThrownBy(() -> Async.all(List.of(Async.ready(1), NULL_POLL)).poll(cx))
                .isInstanceOf(NullPointerException.class);

        AsyncChannel<Integer> ch = new AsyncChannel<>(1);
        AsyncTask<Async.Selected<Integer>> select = Async.select(List.of(ch.receive(), NULL_POLL));
        assertThatThrownBy(() -> select.poll(cx)).isInstanceOf(NullPointerException.class);
        // the sibling receive was withdrawn with the failure: the next value stays in the channel
        assertThat(ch.send(7).poll(cx).isReady()).isTrue();
        assertThat(ch.size()).isEqualTo(1);
    }

    /** The same on a runtime: the handle of a task awaiting such an {@code any} fails, it does not hang. */
    @Test
    void anAnyOverANullPollingTaskFailsItsHandle() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            AsyncChannel<Integer> ch = new AsyncChannel<>(1);
            JoinHandle<Integer> h = rt.spawn(Async.any(List.of(ch.receive(), NULL_POLL)));
            assertThatThrownBy(() -> h.get(30, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(NullPointerException.class);
        }
    }

    /**
     * A losing branch of a {@code select} whose {@code cancel()} throws (a hand-written task
     * breaking the "should not throw" rule, which a runtime tolerates by reporting it) does not
     * cost the other branches what they hold: the winner's value is returned and the losers after
     * the bad one are still cancelled. {@code cancelAllBut} used to stop at the throw and let it
     * out of the poll: the value the winning receive had taken from the channel vanished, and an
     * acquire after the bad branch stayed queued, so the next release granted its permit to a
     * dead waiter and the permit was gone for good.
     */
    @Test
    void aLoserWhoseCancelThrowsCostsTheOtherBranchesNothing() {
        HandContext cx = new HandContext();
        AsyncChannel<Integer> ch = new AsyncChannel<>(1);
        AsyncSemaphore sem = new AsyncSemaphore(0);
        AsyncTask<Integer> badCancel = new BadCancel();
        AsyncTask<Async.Selected<Integer>> select = Async.select(
                List.of(ch.receive(), badCancel, Async.map(sem.acquire(), x -> -1)));
        ConcurrentLinkedQueue<Throwable> reported = new ConcurrentLinkedQueue<>();
        Thread me = Thread.currentThread();
        Thread.UncaughtExceptionHandler old = me.getUncaughtExceptionHandler();
        me.setUncaughtExceptionHandler((t, e) -> reported.add(e));
        try {
            assertThat(select.poll(cx).isPending()).isTrue();           // all three wait
            assertThat(ch.send(42).poll(cx).isReady()).isTrue();        // handed to the receive
            Poll<Async.Selected<Integer>> p = select.poll(cx);
            assertThat(p.isReady()).as("the receive won with the value it took").isTrue();
            assertThat(p.value().value()).isEqualTo(42);
        } finally {
            me.setUncaughtExceptionHandler(old);
        }
        assertThat(reported).singleElement().isInstanceOf(IllegalStateException.class);
        sem.release();
        assertThat(sem.availablePermits()).as("the losing acquire left the queue").isEqualTo(1);
    }

    /** Pending for good; its cancel throws. */
    private static final class BadCancel implements AsyncTask<Integer>, Cancellable {
        @Override
        public Poll<Integer> poll(Context cx) {
            return Poll.pending();
        }

        @Override
        public void cancel() {
            throw new IllegalStateException("cancel failed");
        }
    }
}
