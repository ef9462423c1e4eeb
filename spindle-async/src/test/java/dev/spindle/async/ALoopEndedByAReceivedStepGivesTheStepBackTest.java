/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A loop whose last turn receives a {@link Async.Step} from a channel (a channel of steps, its
 * sender deciding when the loop ends) completes with that step's result, not with the step: the
 * step is what the receive took out of its channel. A failed {@code all}, a dropped selection or
 * a failed wrap of the loop's value dropped that result as the loop's own, and the step was
 * neither received by anyone nor in its channel: the message lost. Dropped, the loop gives the
 * step back to the receive its last turn ended in; a step a function made of what it received
 * (a map over the receive) is that function's, and nothing goes back.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ALoopEndedByAReceivedStepGivesTheStepBackTest {

    private static final AsyncTask<Object> FAILS = cx -> {
        throw new IllegalStateException("test: the last child fails");
    };

    private static <T> AsyncChannel<T> holding(List<T> values) {
        AsyncChannel<T> ch = new AsyncChannel<>(values.size());
        for (T v : values) {
            assertThat(ch.send(v).poll(new AsyncCombinatorTest.HandContext()).isReady()).isTrue();
        }
        return ch;
    }

    private static <T> T receiveNow(AsyncChannel<T> ch) {
        Poll<T> p = ch.receive().poll(new AsyncCombinatorTest.HandContext());
        assertThat(p.isReady()).as("a value to receive: the one given back").isTrue();
        return p.value();
    }

    private static void failAllOver(AsyncTask<?> child) {
        AsyncTask<List<Object>> all = Async.all(List.<AsyncTask<?>>of(child, FAILS));
        assertThatThrownBy(() -> all.poll(new AsyncCombinatorTest.HandContext()))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aFailedAllGivesBackTheStepTheLoopsLastReceiveTook() {
        Async.Step<Integer, String> next = Async.Step.next(1);
        Async.Step<Integer, String> done = Async.Step.done("x");
        AsyncChannel<Async.Step<Integer, String>> steps = holding(List.of(next, done));
        failAllOver(Async.loop(0, st -> steps.receive()));
        assertThat(receiveNow(steps)).as("the step that ended the loop, not its result").isSameAs(done);
        assertThat(steps.size()).as("the step that went on was the loop's: not given back").isZero();
    }

    @Test
    void aDroppedSelectionGivesBackTheStep() {
        Async.Step<Integer, String> done = Async.Step.done("x");
        AsyncChannel<Async.Step<Integer, String>> steps = holding(List.of(done));
        AsyncTask<Async.Selected<String>> select = Async.select(List.of(Async.loop(0, st -> steps.receive())));
        failAllOver(select);
        assertThat(receiveNow(steps)).isSameAs(done);
    }

    @Test
    void aLoopWhoseValueCannotBeWrappedGivesBackTheStep() {
        Async.Step<Integer, String> done = Async.Step.done("x");
        AsyncChannel<Async.Step<Integer, String>> steps = holding(List.of(done));
        AsyncTask<String> loop = Async.loop(0, st -> steps.receive());
        DirectTask.beforeWrap = t -> {
            if (t == loop) {
                throw new OutOfMemoryError("test: the Poll cannot be allocated");
            }
        };
        try {
            assertThatThrownBy(() -> loop.poll(new AsyncCombinatorTest.HandContext()))
                    .isInstanceOf(OutOfMemoryError.class);
        } finally {
            DirectTask.beforeWrap = null;
        }
        assertThat(receiveNow(steps)).isSameAs(done);
    }

    @Test
    void aLoopTheRuntimeDropsGivesBackTheStep() throws Exception {
        // its handle cancelled during the poll that completed it (by the loser of the any its
        // last turn is, once the receive won): the runtime drops its value
        Async.Step<Integer, String> done = Async.Step.done("x");
        AsyncChannel<Async.Step<Integer, String>> steps = holding(List.of(done));
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            JoinHandle<String> h = UnreceivedAcquireGivesBackItsPermitTest.spawnCancelledByItsLoser(rt,
                    loser -> Async.loop(0, st -> Async.any(List.<AsyncTask<? extends Async.Step<Integer, String>>>of(
                            steps.receive(), Async.map(loser, x -> Async.Step.<Integer, String>done("-"))))));
            assertThat(h.isCancelled()).isTrue();
            assertThat(receiveNow(steps)).isSameAs(done);
        }
    }

    @Test
    void aTurnThatIsAThenEndingInTheReceiveGivesBackTheStep() {
        Async.Step<Integer, String> done = Async.Step.done("x");
        AsyncChannel<Async.Step<Integer, String>> steps = holding(List.of(done));
        failAllOver(Async.loop(0, st -> Async.then(Async.ready(st), x -> steps.receive())));
        assertThat(receiveNow(steps)).isSameAs(done);
    }

    @Test
    void aLoopInsideALoopGivesBackTheInnerLoopsStep() {
        // the inner loop's value is the outer's step, made of the inner's received step by nobody's function
        Async.Step<Integer, String> outerDone = Async.Step.done("x");
        Async.Step<Integer, Async.Step<Integer, String>> innerDone = Async.Step.done(outerDone);
        AsyncChannel<Async.Step<Integer, Async.Step<Integer, String>>> steps = holding(List.of(innerDone));
        failAllOver(Async.loop(0, st -> Async.loop(0, in -> steps.receive())));
        assertThat(receiveNow(steps)).isSameAs(innerDone);
    }

    @Test
    void aStepAMapMadeOfTheReceivedValueIsNotGivenBack() {
        // the control: the map's function was given the message, its step is the function's
        AsyncChannel<String> values = holding(List.of("x"));
        failAllOver(Async.loop(0, st -> Async.map(values.receive(), v -> Async.Step.<Integer, String>done(v))));
        assertThat(values.size()).as("the function received the value: nothing goes back").isZero();
    }
}
