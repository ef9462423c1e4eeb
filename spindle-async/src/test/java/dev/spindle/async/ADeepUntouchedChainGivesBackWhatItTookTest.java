/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A receive or an acquire that a chain passes on untouched (timeouts over it, a then ending in
 * it, recovers whose handlers did not run) gives back what it took when nobody receives the
 * value ({@code Async.takerOf}). The walk that finds the operation stopped after
 * {@code FLATTEN_DEPTH} + 1 steps, a guard against a cycle of thens; but timeouts are not
 * flattened, and a then's skip does not cross a timeout, so a chain of more steps than that
 * without any cycle (70 nested timeouts, a recursive then that puts a timeout round each turn)
 * was taken for one whose value nobody took: a failed {@code all} dropped the message, and a
 * permit was gone for good.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ADeepUntouchedChainGivesBackWhatItTookTest {

    private static final int DEEPER_THAN_THE_WALK = Async.FLATTEN_DEPTH + 6;
    private static final Duration LONG = Duration.ofHours(1);

    private static final AsyncTask<Object> FAILS = cx -> {
        throw new IllegalStateException("test: the last child fails");
    };

    private static <T> AsyncTask<T> nestedTimeouts(AsyncTask<T> task, int depth) {
        for (int i = 0; i < depth; i++) {
            task = Async.timeout(task, LONG);
        }
        return task;
    }

    /** A then per turn, each turn's next one inside a timeout: {@code turns} * 2 steps to the end. */
    private static <T> AsyncTask<T> recursiveThens(int turns, java.util.function.Supplier<AsyncTask<T>> last) {
        if (turns == 0) {
            return last.get();
        }
        return Async.then(Async.ready(turns),
                n -> Async.timeout(recursiveThens(turns - 1, last), LONG));
    }

    private static void failAllOver(AsyncTask<?> child) {
        AsyncTask<List<Object>> all = Async.all(List.<AsyncTask<?>>of(child, FAILS));
        assertThatThrownBy(() -> all.poll(new AsyncCombinatorTest.HandContext()))
                .isInstanceOf(IllegalStateException.class);
    }

    private static <T> void receivedBack(AsyncChannel<T> ch, T value) {
        assertThat(ch.size()).as("the value the failed all's receive took, given back").isEqualTo(1);
        Poll<T> p = ch.receive().poll(new AsyncCombinatorTest.HandContext());
        assertThat(p.isReady()).isTrue();
        assertThat(p.value()).isSameAs(value);
    }

    private static AsyncChannel<String> holdingA() {
        AsyncChannel<String> ch = new AsyncChannel<>(1);
        assertThat(ch.send("a").poll(new AsyncCombinatorTest.HandContext()).isReady()).isTrue();
        return ch;
    }

    @Test
    void aReceiveUnderMoreTimeoutsThanTheWalkOnceTookIsGivenBack() {
        AsyncChannel<String> ch = holdingA();
        failAllOver(nestedTimeouts(ch.receive(), DEEPER_THAN_THE_WALK));
        receivedBack(ch, "a");
    }

    @Test
    void anAcquireUnderMoreTimeoutsThanTheWalkOnceTookGivesBackItsPermit() {
        AsyncSemaphore s = new AsyncSemaphore(1);
        failAllOver(nestedTimeouts(s.acquire(), DEEPER_THAN_THE_WALK));
        assertThat(s.availablePermits()).as("the permit nobody received").isEqualTo(1);
    }

    @Test
    void aReceiveAtTheEndOfARecursiveThenWithATimeoutPerTurnIsGivenBack() {
        AsyncChannel<String> ch = holdingA();
        failAllOver(recursiveThens(DEEPER_THAN_THE_WALK / 2 + 1, ch::receive));
        receivedBack(ch, "a");
    }

    @Test
    void aSelectionWonByADeepChainOverAReceiveIsGivenBackWhenTheRuntimeDropsIt() {
        AsyncChannel<String> ch = holdingA();
        AsyncTask<Async.Selected<String>> select = Async.select(
                List.of(nestedTimeouts(ch.receive(), DEEPER_THAN_THE_WALK), new AsyncPromise<String>()));
        Poll<Async.Selected<String>> p = select.poll(new AsyncCombinatorTest.HandContext());
        assertThat(p.isReady()).isTrue();
        assertThat(ch.size()).isZero();
        Async.dropValueOf(select, p.value());  // as the runtime drops it (its handle cancelled meanwhile)
        receivedBack(ch, "a");
    }

    @Test
    void aShallowChainStillGivesBackAndADeliveredValueStaysTheCallers() {
        // the control: a chain the walk always reached, and a list that is received
        AsyncChannel<String> ch = holdingA();
        failAllOver(nestedTimeouts(ch.receive(), 3));
        receivedBack(ch, "a");
        AsyncChannel<String> kept = holdingA();
        Poll<List<String>> p = Async.all(List.of(nestedTimeouts(kept.receive(), DEEPER_THAN_THE_WALK)))
                .poll(new AsyncCombinatorTest.HandContext());
        assertThat(p.isReady()).isTrue();
        assertThat(p.value()).containsExactly("a");
        assertThat(kept.size()).as("a received value is not given back").isZero();
    }

    @Test
    @SuppressWarnings("unchecked")
    void theWalkStillEndsAtACycleOfThens() {
        // two thens whose functions return each other: polling them overflows the stack (see
        // ThenTask.tail), and leaves the second then's second pointing at itself. Nothing that
        // completed has such a cycle, but the walk must not go round one for good
        AsyncTask<?>[] thens = new AsyncTask<?>[2];
        thens[0] = Async.then(Async.ready(1), x -> (AsyncTask<Object>) thens[1]);
        thens[1] = Async.then(Async.ready(1), x -> (AsyncTask<Object>) thens[0]);
        assertThatThrownBy(() -> thens[0].poll(new AsyncCombinatorTest.HandContext()))
                .isInstanceOf(StackOverflowError.class);
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            assertThat(Async.takerOf(thens[0])).isNull();
            assertThat(Async.takerOf(thens[1])).isNull();
        });
    }
}
