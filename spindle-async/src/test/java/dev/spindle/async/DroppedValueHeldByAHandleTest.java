/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.async.AllResultsAllocationFailureClosesValuesTest.Resource;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A task whose handle is cancelled during the poll that returns its value has that value dropped
 * by the runtime, which closes it if it is a connection (nobody could receive it). A task that
 * passes on the value of a handle it awaits (a then whose second task is the handle, a timeout
 * over it, a map whose function returns the value it is given, a recover its task's value passes
 * through, an all's child doing so, a loop whose last turn ends it with the handle's value)
 * returned the handle's own value, which the handle still hands to its other awaiters: the
 * runtime (or the failed all) closed it under them, a connection they received already closed.
 * Such a value is now left to the handle, as a select's or an all's handle child's is, and a
 * {@code from} task's value to its stage, which hands it to its other dependents; a value of the
 * task's own is still closed.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DroppedValueHeldByAHandleTest {

    /**
     * Spawns {@code body(cancelSelf)}, where {@code cancelSelf} is ready once it has cancelled the
     * spawned task's own handle: the poll that follows it, the same one, returns the value.
     */
    private static <T> JoinHandle<T> spawnCancelledDuringItsLastPoll(AsyncRuntime rt,
            Function<AsyncTask<Void>, AsyncTask<T>> body) throws Exception {
        return spawnCancelledBy(rt, self -> cx -> {
            self.get().cancel(false);
            return Poll.ready(null);
        }, body);
    }

    /**
     * Spawns {@code body(canceller)} and returns its handle once the task is done, where
     * {@code canceller}, made from a reference to the spawned task's own handle, cancels that
     * handle during the task's poll (when it is polled, or when it is cancelled as a loser), so
     * that the runtime drops what that poll returns.
     */
    static <T> JoinHandle<T> spawnCancelledBy(AsyncRuntime rt,
            Function<AtomicReference<JoinHandle<?>>, AsyncTask<Void>> canceller,
            Function<AsyncTask<Void>, AsyncTask<T>> body) throws Exception {
        AtomicReference<JoinHandle<?>> self = new AtomicReference<>();
        AsyncPromise<Void> go = new AsyncPromise<>();
        AsyncTask<Void> c = canceller.apply(self);
        JoinHandle<T> h = rt.spawn(Async.then(go, x -> body.apply(c)));
        self.set(h);
        go.complete(null);
        try {
            h.get(20, TimeUnit.SECONDS);
        } catch (CancellationException expected) {
            // the handle reports the cancel
        }
        rt.spawn(Async.ready(0)).get(20, TimeUnit.SECONDS);   // the worker is past the finish
        return h;
    }

    @Test
    void aHandlesValuePassedOnByAThenIsLeftToTheHandle() throws Exception {
        Resource r = new Resource();
        AsyncPromise<Resource> held = new AsyncPromise<>();
        held.complete(r);
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            JoinHandle<Resource> h = spawnCancelledDuringItsLastPoll(rt, cancelSelf -> Async.then(cancelSelf, y -> held));
            assertThat(h.isCancelled()).isTrue();
            assertThat(r.closed).as("the value the promise still holds").isFalse();
            assertThat(held.get()).isSameAs(r);
        }
    }

    @Test
    void aHandlesValuePassedOnByATimeoutIsLeftToTheHandle() throws Exception {
        Resource r = new Resource();
        AsyncPromise<Resource> held = new AsyncPromise<>();
        held.complete(r);
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            JoinHandle<Resource> h = spawnCancelledDuringItsLastPoll(rt,
                    cancelSelf -> Async.timeout(Async.then(cancelSelf, y -> held), Duration.ofMinutes(1)));
            assertThat(h.isCancelled()).isTrue();
            assertThat(r.closed).as("the value the promise still holds").isFalse();
        }
    }

    @Test
    void aHandlesValuePassedOnByAMapIsLeftToTheHandle() throws Exception {
        // before: a map's value counted as its own whatever its function returned, so one that
        // returned the value it was given (a log line and the connection on) had the runtime
        // close the promise's connection under its other awaiters
        Resource r = new Resource();
        AsyncPromise<Resource> held = new AsyncPromise<>();
        held.complete(r);
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            JoinHandle<Resource> h = spawnCancelledDuringItsLastPoll(rt,
                    cancelSelf -> Async.map(Async.then(cancelSelf, y -> held), v -> v));
            assertThat(h.isCancelled()).isTrue();
            assertThat(r.closed).as("the value the promise still holds").isFalse();
            assertThat(held.get()).isSameAs(r);
        }
    }

    @Test
    void aValueAMapMakesOfAHandlesValueIsStillClosed() throws Exception {
        Resource r = new Resource();
        Resource own = new Resource();
        AsyncPromise<Resource> held = new AsyncPromise<>();
        held.complete(r);
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            JoinHandle<Resource> h = spawnCancelledDuringItsLastPoll(rt,
                    cancelSelf -> Async.map(Async.then(cancelSelf, y -> held), v -> own));
            assertThat(h.isCancelled()).isTrue();
            assertThat(own.closed).as("the map's own value, which nobody receives").isTrue();
            assertThat(r.closed).as("the value the promise still holds").isFalse();
        }
    }

    @Test
    void aHandlesValuePassedOnByARecoverIsLeftToTheHandle() throws Exception {
        // before: a recover's value counted as its own even when its task's value passed through it
        Resource r = new Resource();
        Resource other = new Resource();
        AsyncPromise<Resource> held = new AsyncPromise<>();
        held.complete(r);
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            JoinHandle<Resource> h = spawnCancelledDuringItsLastPoll(rt,
                    cancelSelf -> Async.recover(Async.then(cancelSelf, y -> held), e -> other));
            assertThat(h.isCancelled()).isTrue();
            assertThat(r.closed).as("the value the promise still holds").isFalse();
            assertThat(held.get()).isSameAs(r);
        }
    }

    @Test
    void aRecoveredValueOfItsOwnIsStillClosedThoughItsTaskAwaitedAHandle() throws Exception {
        Resource own = new Resource();
        AsyncPromise<Resource> failedHandle = new AsyncPromise<>();
        failedHandle.completeExceptionally(new IllegalStateException("test: the handle failed"));
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            JoinHandle<Resource> h = spawnCancelledDuringItsLastPoll(rt,
                    cancelSelf -> Async.recover(Async.then(cancelSelf, y -> failedHandle), e -> own));
            assertThat(h.isCancelled()).isTrue();
            assertThat(own.closed).as("the handler's value, which nobody receives").isTrue();
        }
    }

    @Test
    void aHandlesValuePassedOnByALongChainOfMapsIsLeftToTheHandle() throws Exception {
        // more stages than Async.FLATTEN_DEPTH: run as one Pipeline, whose maps each passed the
        // handle's value on and each counted it as their own
        Resource r = new Resource();
        AsyncPromise<Resource> held = new AsyncPromise<>();
        held.complete(r);
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            JoinHandle<Resource> h = spawnCancelledDuringItsLastPoll(rt, cancelSelf -> {
                AsyncTask<Resource> chain = Async.then(cancelSelf, y -> held);
                for (int i = 0; i <= Async.FLATTEN_DEPTH; i++) {
                    chain = Async.map(chain, v -> v);
                }
                return chain;
            });
            assertThat(h.isCancelled()).isTrue();
            assertThat(r.closed).as("the value the promise still holds").isFalse();
        }
    }

    @Test
    void aHandlesValuePassedOnByAChildOfAFailedAllIsLeftToTheHandle() {
        // before: an all that failed closed every value it had collected but a handle child's,
        // so a child that passed a handle's value on (a then ending in the handle) had it closed
        Resource r = new Resource();
        Resource own = new Resource();
        AsyncPromise<Resource> held = new AsyncPromise<>();
        held.complete(r);
        AsyncTask<List<Resource>> all = Async.all(List.of(
                Async.then(Async.ready(0), y -> held),
                Async.map(Async.ready(0), y -> own),
                cx -> {
                    throw new IllegalStateException("test: the last child fails");
                }));
        assertThatThrownBy(() -> all.poll(new AsyncCombinatorTest.HandContext()))
                .isInstanceOf(IllegalStateException.class);
        assertThat(r.closed).as("the value the promise still holds").isFalse();
        assertThat(own.closed).as("a child's own value, which nobody receives").isTrue();
    }

    @Test
    void aHandlesValuePassedOnByAChildOfADroppedAllsListIsLeftToTheHandle() throws Exception {
        // before: the list the runtime dropped closed every value but a handle child's
        Resource r = new Resource();
        AsyncPromise<Resource> held = new AsyncPromise<>();
        held.complete(r);
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            JoinHandle<List<Resource>> h = spawnCancelledDuringItsLastPoll(rt,
                    cancelSelf -> Async.all(List.of(Async.then(cancelSelf, y -> held))));
            assertThat(h.isCancelled()).isTrue();
            assertThat(r.closed).as("the value the promise still holds").isFalse();
        }
    }

    @Test
    void aHandlesValueALoopEndsWithIsLeftToTheHandle() throws Exception {
        // before: a loop's value counted as its own whatever its last turn read it from, so a
        // turn that ended the loop with the value of a handle it awaited (a map over the handle
        // making Step.done of it) had the runtime close the promise's connection under its other
        // awaiters. The turn that ends the loop cancels the loop's handle: a cancelled task's
        // loop takes no further turn (its budget is spent), so the cancel comes in its last one
        Resource r = new Resource();
        AsyncPromise<Resource> held = new AsyncPromise<>();
        held.complete(r);
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            JoinHandle<Resource> h = spawnCancelledDuringItsLastPoll(rt, cancelSelf -> Async.loop(0,
                    (Integer turn) -> turn < 2
                            ? Async.ready(Async.Step.<Integer, Resource>next(turn + 1))
                            : Async.then(cancelSelf, y -> Async.map(held, c -> Async.Step.<Integer, Resource>done(c)))));
            assertThat(h.isCancelled()).isTrue();
            assertThat(r.closed).as("the value the promise still holds").isFalse();
            assertThat(held.get()).isSameAs(r);
        }
    }

    @Test
    void aLoopEndedByAHandlesStepLeavesItsValueToTheHandle() throws Exception {
        // the last turn ends in a handle whose value is the Step itself: its result is the
        // handle's too
        Resource r = new Resource();
        AsyncPromise<Async.Step<Integer, Resource>> held = new AsyncPromise<>();
        held.complete(Async.Step.done(r));
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            JoinHandle<Resource> h = spawnCancelledDuringItsLastPoll(rt,
                    cancelSelf -> Async.loop(0, (Integer turn) -> Async.then(cancelSelf, y -> held)));
            assertThat(h.isCancelled()).isTrue();
            assertThat(r.closed).as("the value the promise still holds").isFalse();
        }
    }

    @Test
    void aLoopEndedByAThenFunctionPassingAHandlesValueOnLeavesItToTheHandle() throws Exception {
        // before: the last turn was then(handle, c -> ready(Step.done(c))): the then's value
        // counted as its second task's, a ready task of the function's own, so the runtime
        // closed the handle's value when it dropped the loop's
        Resource r = new Resource();
        AsyncPromise<Resource> held = new AsyncPromise<>();
        held.complete(r);
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            JoinHandle<Resource> h = spawnCancelledDuringItsLastPoll(rt, cancelSelf -> Async.loop(0,
                    (Integer turn) -> turn < 2
                            ? Async.ready(Async.Step.<Integer, Resource>next(turn + 1))
                            : Async.then(Async.then(cancelSelf, y -> held),
                                    c -> Async.ready(Async.Step.<Integer, Resource>done(c)))));
            assertThat(h.isCancelled()).isTrue();
            assertThat(r.closed).as("the value the promise still holds").isFalse();
            assertThat(held.get()).isSameAs(r);
        }
    }

    @Test
    void aLoopEndedByANestedThenPassingAHandlesValueOnLeavesItToTheHandle() throws Exception {
        // the then that passes the value on is the second task of another then, which awaits
        // its own second's second directly once that one has started (ThenTask.tail): it must
        // stop at the then that passed the value on, not skip to that then's ready task
        Resource r = new Resource();
        AsyncPromise<Resource> held = new AsyncPromise<>();
        held.complete(r);
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            JoinHandle<Resource> h = spawnCancelledDuringItsLastPoll(rt, cancelSelf -> Async.loop(0,
                    (Integer turn) -> Async.then(cancelSelf,
                            y -> Async.then(held, c -> Async.ready(Async.Step.<Integer, Resource>done(c))))));
            assertThat(h.isCancelled()).isTrue();
            assertThat(r.closed).as("the value the promise still holds").isFalse();
        }
    }

    @Test
    void aThenFunctionPassingAHandlesValueOnLeavesItToTheHandle() throws Exception {
        Resource r = new Resource();
        AsyncPromise<Resource> held = new AsyncPromise<>();
        held.complete(r);
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            JoinHandle<Resource> h = spawnCancelledDuringItsLastPoll(rt,
                    cancelSelf -> Async.then(Async.then(cancelSelf, y -> held), c -> Async.ready(c)));
            assertThat(h.isCancelled()).isTrue();
            assertThat(r.closed).as("the value the promise still holds").isFalse();
        }
    }

    @Test
    void aThenFunctionPassingAHandlesValueOnInALongChainLeavesItToTheHandle() throws Exception {
        // more stages than Async.FLATTEN_DEPTH: the then is a stage of a Pipeline, which counted
        // the value as the ready task's the function made
        Resource r = new Resource();
        AsyncPromise<Resource> held = new AsyncPromise<>();
        held.complete(r);
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            JoinHandle<Resource> h = spawnCancelledDuringItsLastPoll(rt, cancelSelf -> {
                AsyncTask<Resource> chain = Async.then(cancelSelf, y -> held);
                for (int i = 0; i <= Async.FLATTEN_DEPTH; i++) {
                    chain = Async.map(chain, v -> v);
                }
                return Async.map(Async.then(chain, c -> Async.ready(c)), v -> v);
            });
            assertThat(h.isCancelled()).isTrue();
            assertThat(r.closed).as("the value the promise still holds").isFalse();
        }
    }

    @Test
    void aHandlesValueAThenFunctionPassedOnInAFailedAllIsLeftToTheHandle() {
        Resource r = new Resource();
        AsyncPromise<Resource> held = new AsyncPromise<>();
        held.complete(r);
        AsyncTask<List<Resource>> all = Async.all(List.of(
                Async.then(held, c -> Async.ready(c)),
                cx -> {
                    throw new IllegalStateException("test: the last child fails");
                }));
        assertThatThrownBy(() -> all.poll(new AsyncCombinatorTest.HandContext()))
                .isInstanceOf(IllegalStateException.class);
        assertThat(r.closed).as("the value the promise still holds").isFalse();
    }

    @Test
    void aHandlesValueAThenFunctionPassedOnToADroppedSelectionIsLeftToTheHandle() throws Exception {
        Resource r = new Resource();
        AsyncPromise<Resource> held = new AsyncPromise<>();
        held.complete(r);
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            JoinHandle<Async.Selected<Resource>> h = spawnCancelledDuringItsLastPoll(rt,
                    cancelSelf -> Async.select(List.of(Async.then(Async.then(cancelSelf, y -> held), c -> Async.ready(c)))));
            assertThat(h.isCancelled()).isTrue();
            assertThat(r.closed).as("the value the promise still holds").isFalse();
        }
    }

    @Test
    void aValueAThenFunctionMakesOfAHandlesValueIsStillClosed() throws Exception {
        Resource r = new Resource();
        Resource own = new Resource();
        AsyncPromise<Resource> held = new AsyncPromise<>();
        held.complete(r);
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            JoinHandle<Resource> h = spawnCancelledDuringItsLastPoll(rt,
                    cancelSelf -> Async.then(Async.then(cancelSelf, y -> held), c -> Async.ready(own)));
            assertThat(h.isCancelled()).isTrue();
            assertThat(own.closed).as("the then's own value, which nobody receives").isTrue();
            assertThat(r.closed).as("the value the promise still holds").isFalse();
        }
    }

    @Test
    void aLoopsOwnValueIsStillClosed() throws Exception {
        Resource own = new Resource();
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            JoinHandle<Resource> h = spawnCancelledDuringItsLastPoll(rt, cancelSelf -> Async.loop(0,
                    (Integer turn) -> turn < 2
                            ? Async.ready(Async.Step.<Integer, Resource>next(turn + 1))
                            : Async.then(cancelSelf, y -> Async.ready(Async.Step.<Integer, Resource>done(own)))));
            assertThat(h.isCancelled()).isTrue();
            assertThat(own.closed).as("the loop's own value, which nobody receives").isTrue();
        }
    }

    @Test
    void aValueALoopMakesAfterAwaitingAHandleIsStillClosed() throws Exception {
        Resource r = new Resource();
        Resource own = new Resource();
        AsyncPromise<Resource> held = new AsyncPromise<>();
        held.complete(r);
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            JoinHandle<Resource> h = spawnCancelledDuringItsLastPoll(rt, cancelSelf -> Async.loop(0,
                    (Integer turn) -> Async.then(cancelSelf, y -> Async.map(held, c -> Async.Step.<Integer, Resource>done(own)))));
            assertThat(h.isCancelled()).isTrue();
            assertThat(own.closed).as("the loop's own value, which nobody receives").isTrue();
            assertThat(r.closed).as("the value the promise still holds").isFalse();
        }
    }

    @Test
    void aStagesValuePassedOnByFromIsLeftToTheStage() throws Exception {
        // before: from(stage) counted the stage's value as its own, so the runtime closed the
        // connection that the stage still hands to its other dependents (here a handle's own
        // future: the handle's other awaiters received it closed)
        Resource r = new Resource();
        CompletableFuture<Resource> shared = CompletableFuture.completedFuture(r);
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            JoinHandle<Resource> h = spawnCancelledDuringItsLastPoll(rt,
                    cancelSelf -> Async.then(cancelSelf, y -> Async.from(shared)));
            assertThat(h.isCancelled()).isTrue();
            assertThat(r.closed).as("the value the stage still holds").isFalse();
            assertThat(shared.join()).isSameAs(r);
        }
    }

    @Test
    void aStagesValueInAFailedAllIsLeftToTheStage() {
        Resource r = new Resource();
        AsyncTask<List<Resource>> all = Async.all(List.of(
                Async.from(CompletableFuture.completedFuture(r)),
                cx -> {
                    throw new IllegalStateException("test: the last child fails");
                }));
        assertThatThrownBy(() -> all.poll(new AsyncCombinatorTest.HandContext()))
                .isInstanceOf(IllegalStateException.class);
        assertThat(r.closed).as("the value the stage still holds").isFalse();
    }

    @Test
    void aValueOfTheTasksOwnIsStillClosed() throws Exception {
        Resource r = new Resource();
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            JoinHandle<Resource> h = spawnCancelledDuringItsLastPoll(rt, cancelSelf -> Async.then(cancelSelf, y -> Async.ready(r)));
            assertThat(h.isCancelled()).isTrue();
            assertThat(r.closed).as("a value nobody receives").isTrue();
        }
    }
}
