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
 * An {@link Async#any} is a stage of its own kind (it takes the winner's value out of its
 * selection), but a chain of more than {@code FLATTEN_DEPTH} stages counted it as a link like a
 * map or a recover, and the pipeline that runs such a chain let it through as a recover: the
 * selection itself went on to the next stage (a {@link ClassCastException} in a map expecting
 * the value, or the selection as the chain's result), and the receive that won it was not found
 * to give its value back. An any now starts a chain rather than linking one.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AnAnyInALongChainIsNotPassedThroughAsItsSelectionTest {

    private static final int LONGER_THAN_FLATTENED = Async.FLATTEN_DEPTH + 6;

    @Test
    void mapsAfterAnAnyGetItsWinnersValue() {
        AsyncTask<Integer> t = Async.any(List.of(Async.ready(5)));
        for (int i = 0; i < LONGER_THAN_FLATTENED; i++) {
            t = Async.map(t, x -> x + 1);
        }
        Poll<Integer> p = t.poll(new AsyncCombinatorTest.HandContext());
        assertThat(p.isReady()).isTrue();
        assertThat(p.value()).isEqualTo(5 + LONGER_THAN_FLATTENED);
    }

    @Test
    void aLongChainOfRecoversOverAnAnyCompletesWithTheWinnersValue() {
        AsyncTask<String> t = Async.any(List.of(new AsyncPromise<String>(), Async.ready("b")));
        for (int i = 0; i < LONGER_THAN_FLATTENED; i++) {
            t = Async.recover(t, e -> "recovered");
        }
        Poll<?> p = ((AsyncTask<?>) t).poll(new AsyncCombinatorTest.HandContext());
        assertThat(p.isReady()).isTrue();
        assertThat((Object) p.value()).isEqualTo("b");
    }

    @Test
    void aLongChainOfRecoversOverAnAnyWonByAReceiveGivesItsValueBack() {
        // passed before too, the selection being what the chain passed on untouched; kept so
        // that the any, now the chain's start, is still found to have its receive's value
        AsyncChannel<String> ch = new AsyncChannel<>(1);
        assertThat(ch.send("a").poll(new AsyncCombinatorTest.HandContext()).isReady()).isTrue();
        AsyncTask<String> t = Async.any(List.of(ch.receive(), new AsyncPromise<String>()));
        for (int i = 0; i < LONGER_THAN_FLATTENED; i++) {
            t = Async.recover(t, e -> "recovered");
        }
        AsyncTask<List<Object>> all = Async.all(List.<AsyncTask<?>>of(t, cx -> {
            throw new IllegalStateException("test: the last child fails");
        }));
        assertThatThrownBy(() -> all.poll(new AsyncCombinatorTest.HandContext()))
                .isInstanceOf(IllegalStateException.class);
        assertThat(ch.size()).as("the value the any's receive took, given back").isEqualTo(1);
    }

    @Test
    void aShortChainWasRightAlready() {
        // the control: below the depth that is run as a pipeline
        AsyncTask<Integer> t = Async.any(List.of(Async.ready(5)));
        for (int i = 0; i < 3; i++) {
            t = Async.map(t, x -> x + 1);
        }
        assertThat(t.poll(new AsyncCombinatorTest.HandContext()).value()).isEqualTo(8);
    }
}
