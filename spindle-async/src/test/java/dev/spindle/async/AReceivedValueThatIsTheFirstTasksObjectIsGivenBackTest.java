/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A then tells a second task that passed the first one's value on (a function returning
 * {@code Async.ready(x)} of the {@code x} it was given) by identity: the second's value is the
 * very object the first's was. A second task that received its value from a channel can return
 * that very object by coincidence: {@code Integer.valueOf(0)} is one object wherever it is
 * made, and so is an object sent through a channel that a handle also holds. Taken for passed
 * on, the value was the first task's, not the receive's: a failed {@code all} or a dropped
 * selection holding it dropped it, or left it to the handle, instead of giving it back to the
 * channel, and the message was lost (the official CI's UnreceivedGiveBackStressTest found
 * value 0 neither received nor in the channel). A value a receive or an acquire took is that
 * operation's, whatever object it is.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AReceivedValueThatIsTheFirstTasksObjectIsGivenBackTest {

    private static final AsyncTask<Object> FAILS = cx -> {
        throw new IllegalStateException("test: the last child fails");
    };

    private static <T> AsyncChannel<T> holding(T value) {
        AsyncChannel<T> ch = new AsyncChannel<>(1);
        assertThat(ch.send(value).poll(new AsyncCombinatorTest.HandContext()).isReady()).isTrue();
        return ch;
    }

    private static <T> T receiveNow(AsyncChannel<T> ch) {
        Poll<T> p = ch.receive().poll(new AsyncCombinatorTest.HandContext());
        assertThat(p.isReady()).as("a value to receive: the one given back").isTrue();
        return p.value();
    }

    @Test
    void aThenWhoseReceiveReturnsTheFirstsObjectGivesItBack() {
        Integer zero = 0;
        AsyncChannel<Integer> ch = holding(zero);
        AsyncTask<List<Object>> all = Async.all(List.<AsyncTask<?>>of(
                Async.then(Async.ready(0), x -> ch.receive()), FAILS));
        assertThatThrownBy(() -> all.poll(new AsyncCombinatorTest.HandContext()))
                .isInstanceOf(IllegalStateException.class);
        assertThat(receiveNow(ch)).isSameAs(zero);
    }

    @Test
    void aThenAfterAHandleWhoseReceiveReturnsTheHandlesObjectGivesItBack() {
        // the first reads its value from a stage, which holds it for its other dependents: a
        // second taken for passing it on left it to that stage, and the receive's take stood
        Object shared = new Object();
        AsyncChannel<Object> ch = holding(shared);
        AsyncTask<Async.Selected<Object>> select = Async.select(List.of(
                Async.then(Async.from(CompletableFuture.completedFuture(shared)), x -> ch.receive())));
        AsyncTask<List<Object>> all = Async.all(List.<AsyncTask<?>>of(select, FAILS));
        assertThatThrownBy(() -> all.poll(new AsyncCombinatorTest.HandContext()))
                .isInstanceOf(IllegalStateException.class);
        assertThat(receiveNow(ch)).isSameAs(shared);
    }

    @Test
    void aLongChainWhoseThenReceivesTheFirstsObjectGivesItBack() {
        // more than FLATTEN_DEPTH stages: run as a pipeline, which told it the same way
        Integer zero = 0;
        AsyncChannel<Integer> ch = holding(zero);
        AsyncTask<Integer> chain = Async.then(Async.ready(0), x -> ch.receive());
        for (int i = 0; i < 2 * Async.FLATTEN_DEPTH; i++) {
            chain = Async.recover(chain, e -> -1);
        }
        AsyncTask<List<Object>> all = Async.all(List.<AsyncTask<?>>of(chain, FAILS));
        assertThatThrownBy(() -> all.poll(new AsyncCombinatorTest.HandContext()))
                .isInstanceOf(IllegalStateException.class);
        assertThat(receiveNow(ch)).isSameAs(zero);
    }

    @Test
    void aSecondThatPassesTheFirstsValueOnLeavesItToTheFirst() {
        // what identity is for: the first's value passed on is not given back to any channel
        // (here: the first's receive was received by the function, which passed it on)
        Integer zero = 0;
        AsyncChannel<Integer> ch = holding(zero);
        AsyncTask<List<Object>> all = Async.all(List.<AsyncTask<?>>of(
                Async.then(ch.receive(), x -> Async.ready(x)), FAILS));
        assertThatThrownBy(() -> all.poll(new AsyncCombinatorTest.HandContext()))
                .isInstanceOf(IllegalStateException.class);
        assertThat(ch.size()).as("the function was given the value: it is not given back").isZero();
    }
}
