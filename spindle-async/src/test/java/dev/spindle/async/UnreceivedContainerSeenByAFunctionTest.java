/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A selection or an {@code all}'s list that a function was given (a map over the select, a
 * then's first task, a task of the caller's that polled it) was received by that function: it
 * may have taken the message out of it and passed it on, or released the permit. When such a
 * container is dropped afterwards (an outer {@code all} fails), the receive or acquire inside
 * it must not be undone: the message went back into the channel and was delivered twice, the
 * semaphore's permit was released twice and it had more permits than it was made with.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UnreceivedContainerSeenByAFunctionTest {

    private static final AsyncTask<Object> FAILS = cx -> {
        throw new IllegalStateException("test: the last child fails");
    };

    private static AsyncChannel<String> holding(String... values) {
        AsyncChannel<String> ch = new AsyncChannel<>(values.length);
        for (String v : values) {
            assertThat(ch.send(v).poll(new AsyncCombinatorTest.HandContext()).isReady()).isTrue();
        }
        return ch;
    }

    private static void failsOnItsFirstPoll(AsyncTask<?> all) {
        assertThatThrownBy(() -> all.poll(new AsyncCombinatorTest.HandContext()))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aSelectionAMapTookTheMessageFromIsNotGivenBack() {
        AsyncChannel<String> ch = holding("a");
        List<String> kept = new ArrayList<>();
        AsyncTask<Async.Selected<String>> seen = Async.map(
                Async.select(List.of(ch.receive(), new AsyncPromise<String>())),
                s -> {
                    kept.add(s.value());       // the message is the function's now
                    return s;
                });
        failsOnItsFirstPoll(Async.all(List.<AsyncTask<?>>of(seen, FAILS)));
        assertThat(kept).containsExactly("a");
        assertThat(ch.size()).as("the message the map kept, not also back in the channel").isZero();
    }

    @Test
    void aListAMapTookTheMessageFromIsNotGivenBack() {
        AsyncChannel<String> ch = holding("a");
        List<String> kept = new ArrayList<>();
        AsyncTask<List<String>> seen = Async.map(Async.all(List.of(ch.receive())), l -> {
            kept.add(l.get(0));
            return l;
        });
        failsOnItsFirstPoll(Async.all(List.<AsyncTask<?>>of(seen, FAILS)));
        assertThat(kept).containsExactly("a");
        assertThat(ch.size()).as("the message the map kept, not also back in the channel").isZero();
    }

    @Test
    void aSelectionWhosePermitAThenReleasedDoesNotReleaseItAgain() {
        AsyncSemaphore sem = new AsyncSemaphore(1);
        AsyncTask<Async.Selected<Void>> seen = Async.then(
                Async.select(List.of(sem.acquire(), new AsyncPromise<Void>())),
                s -> {
                    sem.release();             // the function's permit: it released it
                    return Async.ready(s);
                });
        failsOnItsFirstPoll(Async.all(List.<AsyncTask<?>>of(seen, FAILS)));
        assertThat(sem.availablePermits()).as("never more than the semaphore was made with").isEqualTo(1);
    }

    @Test
    void aSelectionACallersTaskPolledAndPassedOnIsNotGivenBack() {
        AsyncChannel<String> ch = holding("a");
        List<String> kept = new ArrayList<>();
        AsyncTask<Async.Selected<String>> select = Async.select(List.of(ch.receive(), new AsyncPromise<String>()));
        AsyncTask<Async.Selected<String>> own = cx -> {
            Poll<Async.Selected<String>> p = select.poll(cx);
            if (p.isReady()) {
                kept.add(p.value().value());
            }
            return p;
        };
        failsOnItsFirstPoll(Async.all(List.<AsyncTask<?>>of(own, FAILS)));
        assertThat(kept).containsExactly("a");
        assertThat(ch.size()).as("the message the caller's task kept, not also back in the channel").isZero();
    }

    @Test
    void aDeliveredListDroppedAgainElsewhereIsNotGivenBack() {
        // the caller received the list, then passed it on as a value of its own into an all
        // that failed: its receive's value is the caller's, and already received
        AsyncChannel<String> ch = holding("a");
        Poll<List<String>> delivered = Async.all(List.of(ch.receive())).poll(new AsyncCombinatorTest.HandContext());
        assertThat(delivered.value()).containsExactly("a");
        failsOnItsFirstPoll(Async.all(List.<AsyncTask<?>>of(Async.ready(delivered.value()), FAILS)));
        assertThat(ch.size()).as("the value received already, not also back in the channel").isZero();
    }

    @Test
    void aThenWhoseFunctionPassedTheReceivedValueOnKeepsIt() {
        AsyncChannel<String> ch = holding("a");
        failsOnItsFirstPoll(Async.all(List.<AsyncTask<?>>of(Async.then(ch.receive(), v -> Async.ready(v)), FAILS)));
        assertThat(ch.size()).as("the function was given the value").isZero();
    }

    @Test
    void anUntouchedSelectionInAFailedAllIsStillGivenBack() {
        AsyncChannel<String> ch = holding("a");
        failsOnItsFirstPoll(Async.all(List.<AsyncTask<?>>of(
                Async.select(List.of(ch.receive(), new AsyncPromise<String>())), FAILS)));
        assertThat(ch.size()).isEqualTo(1);
    }

    @Test
    void anUntouchedListInAFailedAllIsStillGivenBack() {
        AsyncChannel<String> ch = holding("a");
        failsOnItsFirstPoll(Async.all(List.<AsyncTask<?>>of(Async.all(List.of(ch.receive())), FAILS)));
        assertThat(ch.size()).isEqualTo(1);
    }
}
