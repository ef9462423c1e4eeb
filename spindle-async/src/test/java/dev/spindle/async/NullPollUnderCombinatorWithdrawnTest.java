/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A task whose poll returns {@code null} instead of a {@link Poll} may have registered its waker
 * first; a runtime withdraws such a task ({@link Cancellable}), so that a receive it started does
 * not stay in the channel's wait queue ({@code WorkerFaultTest}). Under a combinator the null
 * became a {@link NullPointerException} thrown by the combinator's poll, and a task whose poll
 * throws is finished, so nobody withdrew the broken task: its receive took the next value sent
 * and nobody ever received it. A timeout also kept its timer entry until the deadline.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class NullPollUnderCombinatorWithdrawnTest {

    /** Starts a receive (which then waits in the channel), then answers null. */
    private static final class Broken implements AsyncTask<String>, Cancellable {
        final AsyncTask<String> receive;

        Broken(AsyncChannel<String> ch) {
            receive = ch.receive();
        }

        @Override
        public Poll<String> poll(Context cx) {
            receive.poll(cx);                  // now waits in the channel
            return null;
        }

        @Override
        public void cancel() {
            Async.cancel(receive);
        }
    }

    static Stream<Arguments> combinators() {
        return Stream.of(
                Arguments.of("map", (Function<AsyncTask<String>, AsyncTask<?>>) t -> Async.map(t, v -> v)),
                Arguments.of("then", (Function<AsyncTask<String>, AsyncTask<?>>) t -> Async.then(t, Async::ready)),
                Arguments.of("timeout", (Function<AsyncTask<String>, AsyncTask<?>>) t -> Async.timeout(t, Duration.ofHours(1))),
                Arguments.of("all", (Function<AsyncTask<String>, AsyncTask<?>>) t -> Async.all(List.of(t))),
                Arguments.of("select", (Function<AsyncTask<String>, AsyncTask<?>>) t -> Async.select(List.of(t))),
                Arguments.of("recover", (Function<AsyncTask<String>, AsyncTask<?>>) t -> Async.recover(t, e -> "recovered")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("combinators")
    void aTaskReturningNullUnderACombinatorIsWithdrawn(String name, Function<AsyncTask<String>, AsyncTask<?>> wrap) {
        AsyncChannel<String> ch = new AsyncChannel<>(1);
        AsyncCombinatorTest.HandContext cx = new AsyncCombinatorTest.HandContext();
        AsyncTask<?> outer = wrap.apply(new Broken(ch));
        int timersBefore = Timers.pending();

        if (name.equals("recover")) {
            Poll<?> p = outer.poll(cx);        // the null counts as the task's failure
            assertThat(p.isReady()).isTrue();
            assertThat(p.value()).isEqualTo("recovered");
        } else {
            assertThatThrownBy(() -> outer.poll(cx)).isInstanceOf(NullPointerException.class)
                    .hasMessageContaining("null");
        }

        assertThat(ch.send("next").poll(cx).isReady()).isTrue();
        Poll<String> r = ch.receive().poll(cx);
        assertThat(r.isReady()).as("the value sent after the broken task's poll is receivable").isTrue();
        assertThat(r.value()).isEqualTo("next");
        assertThat(Timers.pending()).as("timer entries left behind").isEqualTo(timersBefore);
    }
}
