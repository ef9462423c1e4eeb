/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.async.AllResultsAllocationFailureClosesValuesTest.Resource;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A combinator that has its value in hand allocates what hands it out: a {@code map}'s,
 * {@code recover}'s or {@code loop}'s {@link Poll}, a {@code select}'s selection. An {@link OutOfMemoryError} there
 * makes the poll throw, which finishes the task with nobody to receive the value; a connection
 * (a registered resource) then stayed open for good. It is now dropped as the runtime drops a
 * value nobody receives (closed), unless a handle still holds it for others. The allocations are
 * made to fail through the package's seams, which throw what a full heap throws there.
 */
class ValueWrapFailureDropsTheValueTest {

    private final AsyncCombinatorTest.HandContext cx = new AsyncCombinatorTest.HandContext();

    @AfterEach
    void clearSeams() {
        DirectTask.beforeWrap = null;
        Async.beforeResultContainer = null;
    }

    private static void failWrapOf(AsyncTask<?> task) {
        DirectTask.beforeWrap = t -> {
            if (t == task) {
                throw new OutOfMemoryError("test: the Poll cannot be allocated");
            }
        };
    }

    @Test
    void aMapWhosePollCannotBeAllocatedClosesItsValue() {
        Resource r = new Resource();
        AsyncTask<Resource> mapped = Async.map(Async.ready(1), x -> r);
        failWrapOf(mapped);
        assertThatThrownBy(() -> mapped.poll(cx)).isInstanceOf(OutOfMemoryError.class);
        assertThat(r.closed).as("the mapped value, which nobody receives").isTrue();
    }

    @Test
    void aRecoveredValueWhosePollCannotBeAllocatedIsClosed() {
        Resource r = new Resource();
        AsyncTask<Resource> recovered = Async.recover(cx -> {
            throw new IllegalStateException("test: fails");
        }, e -> r);
        failWrapOf(recovered);
        assertThatThrownBy(() -> recovered.poll(cx)).isInstanceOf(OutOfMemoryError.class);
        assertThat(r.closed).as("the recovered value, which nobody receives").isTrue();
    }

    @Test
    void aLoopWhosePollCannotBeAllocatedClosesItsValue() {
        // before: the loop made its Poll itself, outside the seam and with nothing to close the
        // value should that allocation fail; the poll returned ready here
        Resource r = new Resource();
        AsyncTask<Resource> loop = Async.loop(0, (Integer turn) -> Async.ready(
                turn < 2 ? Async.Step.<Integer, Resource>next(turn + 1) : Async.Step.<Integer, Resource>done(r)));
        failWrapOf(loop);
        assertThatThrownBy(() -> loop.poll(cx)).isInstanceOf(OutOfMemoryError.class);
        assertThat(r.closed).as("the loop's value, which nobody receives").isTrue();
    }

    @Test
    void aLoopEndingWithAHandlesValueLeavesItToTheHandle() {
        // before: the loop's value counted as its own, so the promise's value was closed
        Resource r = new Resource();
        AsyncPromise<Resource> promise = new AsyncPromise<>();
        promise.complete(r);
        AsyncTask<Resource> loop = Async.loop(0, (Integer turn) -> turn < 2
                ? Async.ready(Async.Step.<Integer, Resource>next(turn + 1))
                : Async.map(promise, c -> Async.Step.<Integer, Resource>done(c)));
        failWrapOf(loop);
        assertThatThrownBy(() -> loop.poll(cx)).isInstanceOf(OutOfMemoryError.class);
        DirectTask.beforeWrap = null;
        assertThat(r.closed).as("a value the handle still holds").isFalse();
        assertThat(promise.poll(cx).value()).as("the handle's value, for its other awaiters").isSameAs(r);
    }

    @Test
    void aValueWrappedAfterAllIsNotClosed() {
        Resource r = new Resource();
        AsyncTask<Resource> mapped = Async.map(Async.ready(1), x -> r);
        assertThat(mapped.poll(cx).value()).isSameAs(r);
        assertThat(r.closed).as("a value handed out").isFalse();
    }

    @Test
    void aSelectWhoseSelectionCannotBeAllocatedClosesTheWinnersValue() {
        Resource r = new Resource();
        AsyncCombinatorTest.Gate<Resource> loser = new AsyncCombinatorTest.Gate<>();
        AsyncTask<Async.Selected<Resource>> select = Async.select(List.of(Async.ready(r), loser));
        Async.beforeResultContainer = () -> {
            throw new OutOfMemoryError("test: the selection cannot be allocated");
        };
        assertThatThrownBy(() -> select.poll(cx)).isInstanceOf(OutOfMemoryError.class);
        assertThat(r.closed).as("the winner's value, which nobody receives").isTrue();
        assertThat(loser.cancelled).as("the loser").isTrue();
    }

    @Test
    void aSelectWonByAHandleLeavesTheValueToTheHandle() {
        Resource r = new Resource();
        AsyncPromise<Resource> promise = new AsyncPromise<>();
        promise.complete(r);
        AsyncTask<Async.Selected<Resource>> select = Async.select(List.of(promise));
        Async.beforeResultContainer = () -> {
            throw new OutOfMemoryError("test: the selection cannot be allocated");
        };
        assertThatThrownBy(() -> select.poll(cx)).isInstanceOf(OutOfMemoryError.class);
        Async.beforeResultContainer = null;
        assertThat(r.closed).as("a value the handle still holds").isFalse();
    }

    @Test
    void aMapPassingOnAHandlesValueLeavesItToTheHandle() {
        // before: the map's value counted as its own, so the promise's value was closed
        Resource r = new Resource();
        AsyncPromise<Resource> promise = new AsyncPromise<>();
        promise.complete(r);
        AsyncTask<Resource> mapped = Async.map(promise, v -> v);
        failWrapOf(mapped);
        assertThatThrownBy(() -> mapped.poll(cx)).isInstanceOf(OutOfMemoryError.class);
        DirectTask.beforeWrap = null;
        assertThat(r.closed).as("a value the handle still holds").isFalse();
        assertThat(promise.poll(cx).value()).as("the handle's value, for its other awaiters").isSameAs(r);
    }

    @Test
    void aSelectWonByAMapPassingOnAHandlesValueLeavesItToTheHandle() {
        // before: only a winner that was itself a handle counted, so the promise's value was closed
        Resource r = new Resource();
        AsyncPromise<Resource> promise = new AsyncPromise<>();
        promise.complete(r);
        AsyncTask<Async.Selected<Resource>> select = Async.select(List.of(Async.map(promise, v -> v)));
        Async.beforeResultContainer = () -> {
            throw new OutOfMemoryError("test: the selection cannot be allocated");
        };
        assertThatThrownBy(() -> select.poll(cx)).isInstanceOf(OutOfMemoryError.class);
        Async.beforeResultContainer = null;
        assertThat(r.closed).as("a value the handle still holds").isFalse();
    }

    @Test
    void anAnyWonByAHandleLeavesTheValueToTheHandle() {
        // before: any was a map over the select, which closed the handle's value as its own
        Resource r = new Resource();
        AsyncPromise<Resource> promise = new AsyncPromise<>();
        promise.complete(r);
        AsyncTask<Resource> any = Async.any(List.of(promise));
        failWrapOf(any);
        assertThatThrownBy(() -> any.poll(cx)).isInstanceOf(OutOfMemoryError.class);
        DirectTask.beforeWrap = null;
        assertThat(r.closed).as("a value the handle still holds").isFalse();
        assertThat(promise.poll(cx).value()).as("the handle's value, for its other awaiters").isSameAs(r);
    }

    @Test
    void anAnyWonByATaskOfItsOwnClosesItsValue() {
        Resource r = new Resource();
        AsyncTask<Resource> any = Async.any(List.of(Async.ready(r), new AsyncCombinatorTest.Gate<Resource>()));
        failWrapOf(any);
        assertThatThrownBy(() -> any.poll(cx)).isInstanceOf(OutOfMemoryError.class);
        assertThat(r.closed).as("the winner's value, which nobody receives").isTrue();
    }

    @Test
    void aLongChainEndingInAHandleLeavesTheValueToTheHandle() {
        // more stages than Async.FLATTEN_DEPTH: the recover's first poll runs the chain as one
        // Pipeline, whose value here is the handle's own, and the Pipeline's Poll cannot be made
        Resource r = new Resource();
        AsyncPromise<Resource> promise = new AsyncPromise<>();
        promise.complete(r);
        AsyncTask<Integer> chain = Async.ready(0);
        for (int i = 0; i <= Async.FLATTEN_DEPTH; i++) {
            chain = Async.map(chain, x -> x + 1);
        }
        AsyncTask<Resource> fromHandle = Async.then(chain, n -> promise);
        Resource other = new Resource();
        AsyncTask<Resource> recovered = Async.recover(fromHandle, e -> other);
        DirectTask.beforeWrap = t -> {
            throw new OutOfMemoryError("test: no Poll can be allocated");
        };
        assertThatThrownBy(() -> recovered.poll(cx)).isInstanceOf(OutOfMemoryError.class);
        DirectTask.beforeWrap = null;
        assertThat(r.closed).as("a value the handle still holds").isFalse();
        assertThat(other.closed).as("the recover's own value, which nobody receives").isTrue();
        assertThat(promise.poll(cx).value()).as("the handle's value, for its other awaiters").isSameAs(r);
    }
}
