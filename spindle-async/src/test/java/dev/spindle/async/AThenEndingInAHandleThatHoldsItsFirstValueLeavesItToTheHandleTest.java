/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.async.UnreceivedReceiveGivesBackItsValueTest.Conn;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A then whose function hands the value it was given to others through a handle (completes a
 * promise with it) and returns that handle: the then's value is the handle's, which still holds
 * it for its other awaiters. The then told "the function passed its first task's value on" by
 * identity alone, and here the handle's value is that very object, so the value was taken for
 * the first task's (a receive's, which the function was given): an {@code all} that failed, a
 * selection or a value the runtime dropped closed it (a connection) under the promise's other
 * awaiters, which got it closed. A second task that reads its value from a handle now keeps it
 * the handle's, as it does when the object is another one.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AThenEndingInAHandleThatHoldsItsFirstValueLeavesItToTheHandleTest {

    private static final AsyncTask<Object> FAILS = cx -> {
        throw new IllegalStateException("test: the last child fails");
    };

    /** A channel holding {@code c}, and a then that receives it and publishes it through {@code promise}. */
    private static AsyncTask<Conn> publishing(Conn c, AsyncPromise<Conn> promise) {
        AsyncChannel<Conn> ch = new AsyncChannel<>(1);
        assertThat(ch.send(c).poll(new AsyncCombinatorTest.HandContext()).isReady()).isTrue();
        return Async.then(ch.receive(), got -> {
            promise.complete(got);
            return promise;
        });
    }

    private static Conn awaited(AsyncPromise<Conn> promise) {
        Poll<Conn> p = promise.poll(new AsyncCombinatorTest.HandContext());
        assertThat(p.isReady()).isTrue();
        return p.value();
    }

    @Test
    void aFailedAllLeavesItToThePromise() {
        Conn c = new Conn("c");
        AsyncPromise<Conn> promise = new AsyncPromise<>();
        AsyncTask<List<Object>> all = Async.all(List.<AsyncTask<?>>of(publishing(c, promise), FAILS));
        assertThatThrownBy(() -> all.poll(new AsyncCombinatorTest.HandContext()))
                .isInstanceOf(IllegalStateException.class);
        assertThat(awaited(promise)).isSameAs(c);
        assertThat(c.closed).as("the promise's other awaiters get it open").isFalse();
    }

    @Test
    void soDoesAChainRunAsAPipeline() {
        Conn c = new Conn("c");
        AsyncPromise<Conn> promise = new AsyncPromise<>();
        AsyncTask<Conn> chain = publishing(c, promise);
        for (int i = 0; i <= Async.FLATTEN_DEPTH + 1; i++) {
            chain = Async.recover(chain, e -> {
                throw new IllegalStateException("test: passed on", e);
            });
        }
        AsyncTask<List<Object>> all = Async.all(List.<AsyncTask<?>>of(chain, FAILS));
        assertThatThrownBy(() -> all.poll(new AsyncCombinatorTest.HandContext()))
                .isInstanceOf(IllegalStateException.class);
        assertThat(awaited(promise)).isSameAs(c);
        assertThat(c.closed).isFalse();
    }

    @Test
    void aSelectionTheRuntimeDropsLeavesItToThePromise() {
        Conn c = new Conn("c");
        AsyncPromise<Conn> promise = new AsyncPromise<>();
        AsyncTask<Async.Selected<Conn>> select =
                Async.select(List.of(publishing(c, promise), new AsyncPromise<Conn>()));
        Poll<Async.Selected<Conn>> p = select.poll(new AsyncCombinatorTest.HandContext());
        assertThat(p.isReady()).isTrue();
        Async.dropValueOf(select, p.value());  // as the runtime drops it (its handle cancelled meanwhile)
        assertThat(c.closed).isFalse();
    }

    @Test
    void theRuntimeLeavesTheThensOwnValueToThePromise() {
        // what TaskCell.finish asks before it drops the value of a task whose handle was
        // cancelled during the poll that returned it
        Conn c = new Conn("c");
        AsyncPromise<Conn> promise = new AsyncPromise<>();
        AsyncTask<Conn> then = publishing(c, promise);
        assertThat(then.poll(new AsyncCombinatorTest.HandContext()).value()).isSameAs(c);
        assertThat(Async.readFromHandle(then)).as("held by the promise").isTrue();
    }

    @Test
    void aValuePassedOnThroughAReadyTaskIsStillTheFunctionsAndClosed() {
        // the control: nobody else holds it, so a failed all closes it as before
        Conn c = new Conn("c");
        AsyncChannel<Conn> ch = new AsyncChannel<>(1);
        assertThat(ch.send(c).poll(new AsyncCombinatorTest.HandContext()).isReady()).isTrue();
        AsyncTask<List<Object>> all = Async.all(List.<AsyncTask<?>>of(
                Async.then(ch.receive(), got -> Async.ready(got)), FAILS));
        assertThatThrownBy(() -> all.poll(new AsyncCombinatorTest.HandContext()))
                .isInstanceOf(IllegalStateException.class);
        assertThat(c.closed).isTrue();
        assertThat(ch.size()).as("a value the function was given is not given back").isZero();
    }
}
