/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static dev.spindle.async.JoinHandleLincheckTest.check;
import static dev.spindle.async.JoinHandleLincheckTest.outcome;
import static dev.spindle.testkit.Threads.runAll;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.jetbrains.lincheck.Lincheck;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Lincheck model checking of {@link AsyncPromise}'s claim before the handle's outcome CAS: two
 * completers with different values race a canceller, a polling task and a blocked {@code get},
 * in every interleaving Lincheck explores.
 *
 * <p>Checks, after the threads are joined: exactly one of the three calls returned
 * {@code true}; the promise reports that call's outcome (its value, not the loser's, and never a
 * value dropped by a loser that cleared the result); the blocked {@code get} returned it; a
 * waker registered by a pending poll was woken exactly once, one whose poll saw the outcome
 * never.
 *
 * <p>Teeth (audit of 2026-11-28, each bug put into the production class): the test fails on
 * {@code complete} without the claim ("the promise reports null, expected 1002": a loser cleared
 * the winner's value; kept in the suite by {@link #detectsACompleteWithoutTheClaim}), on the
 * claim made a read and a write ("winners: 2"), on the result written after the outcome CAS
 * ("get returned null") and on {@code fire()} taking the waiter stack with a read and a write
 * ("woken 2 times"); all but the last within 50 invocations.
 */
class AsyncPromiseLincheckTest {

    private static final Integer ONE = 1001;
    private static final Integer TWO = 1002;

    static void twoCompletersACancelAPollAndAGet() {
        AsyncPromise<Integer> p = new AsyncPromise<>();
        JoinHandleLincheckTest.OnePoll poll = new JoinHandleLincheckTest.OnePoll();
        boolean[] won = new boolean[3];
        Object[] got = new Object[1];
        runAll(
                new Thread(() -> won[0] = p.complete(ONE)),
                new Thread(() -> won[1] = p.complete(TWO)),
                new Thread(() -> won[2] = p.cancel(false)),
                poll.of(p),
                new Thread(() -> got[0] = outcome(p)));
        int winners = (won[0] ? 1 : 0) + (won[1] ? 1 : 0) + (won[2] ? 1 : 0);
        check(winners == 1, "winners: " + winners);
        Object expected = won[0] ? ONE : won[1] ? TWO : "cancelled";
        check(p.isDone() && p.isCancelled() == won[2], "the outcome is the winner's");
        check(expected.equals(outcome(p)), "the promise reports " + outcome(p) + ", expected " + expected);
        check(expected.equals(got[0]), "get returned " + got[0] + ", expected " + expected);
        poll.check(expected);
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void completersCancelPollAndBlockedGet() {
        Lincheck.runConcurrentTest(1000, AsyncPromiseLincheckTest::twoCompletersACancelAPollAndAGet);
    }

    /** complete() without the claim: a losing completer clears the winner's result. */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void detectsACompleteWithoutTheClaim() {
        Throwable e = Mutant.of(AsyncPromise.class, JoinHandleLincheckTest.HANDLE_GROUP)
                .replace("return claim() && complete(VALUE, value, false);", "return complete(VALUE, value, false);")
                .failureOf(AsyncPromiseLincheckTest.class, "completersCancelPollAndBlockedGet");
        assertThat(e).isInstanceOf(LincheckAssertionError.class).hasMessageContaining("null, expected 100");
    }
}
