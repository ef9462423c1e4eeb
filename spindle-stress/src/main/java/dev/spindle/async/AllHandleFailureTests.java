/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.List;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * {@code Async.all} of three handles, one left pending (see {@code Async.Parent}, "Handles"):
 * one thread completes the first with a value and fails the second while another runs the
 * parent's first poll. A completion with a value never wakes the parent while a handle is
 * pending, but the failure must reach it: if the racing poll is pending, a wake comes after it
 * and the next poll fails with the second handle's error; the poll may also meet the failure
 * itself. Either way the parent fails, never stays pending and never returns a list.
 */
@JCStressTest
@Description("Async.all of handles: a failure racing the first poll always fails the parent.")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the first poll met the failure")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the first poll was early; woken, the next poll failed")
@Outcome(expect = FORBIDDEN, desc = "a lost failure, a list, or a pending poll never woken")
@State
public class AllHandleFailureTests {

    private final AsyncPromise<Integer> a = new AsyncPromise<>();
    private final AsyncPromise<Integer> b = new AsyncPromise<>();
    private final AsyncPromise<Integer> pending = new AsyncPromise<>();
    private final CountingContext cx = new CountingContext();
    private final AsyncTask<List<Integer>> all = Async.all(List.of(a, b, pending));

    @Actor
    public void complete() {
        a.complete(10);
        b.completeExceptionally(new IllegalStateException("b"));
    }

    @Actor
    public void poll(II_Result r) {
        r.r1 = outcome();
    }

    @Arbiter
    public void pollAgain(II_Result r) {
        r.r2 = r.r1 == 1 ? 1 : r.r1 == 0 && cx.wakes() > 0 ? outcome() : -1;
    }

    private int outcome() {
        try {
            return all.poll(cx).isPending() ? 0 : -2;
        } catch (RuntimeException e) {
            return "b".equals(rootMessage(e)) ? 1 : -3;
        }
    }

    private static String rootMessage(Throwable t) {
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t.getMessage();
    }
}
