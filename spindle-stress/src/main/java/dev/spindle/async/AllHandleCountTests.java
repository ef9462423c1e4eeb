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
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * {@code Async.all} of two handles (see {@code Async.Parent}, "Handles"): one thread completes
 * both promises while another runs the parent's first poll. Each handle child must be counted
 * once, by the poll if it found it done or by its one wake if the poll registered with it: a
 * child counted twice ends the count early (the sweep then meets a pending handle, or a
 * racing poll returns too soon), a child counted by neither leaves the parent pending for good.
 * If the racing poll is pending, exactly one wake reaches the parent afterwards (the count
 * reaching zero), and the next poll is ready with both values; if it is ready, no wake comes at
 * all (the first poll holds a share of the count until it ends, so no wake can reach zero
 * during it).
 */
@JCStressTest
@Description("Async.all of handles: completions racing the parent's first poll are counted once.")
@Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "the first poll found both done")
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "the first poll was early; one wake, then ready")
@Outcome(expect = FORBIDDEN, desc = "a wrong result, a lost or extra wake, or a parent never ready")
@State
public class AllHandleCountTests {

    private final AsyncPromise<Integer> a = new AsyncPromise<>();
    private final AsyncPromise<Integer> b = new AsyncPromise<>();
    private final CountingContext cx = new CountingContext();
    private final AsyncTask<List<Integer>> all = Async.all(List.of(a, b));

    @Actor
    public void complete() {
        a.complete(10);
        b.complete(20);
    }

    @Actor
    public void poll(III_Result r) {
        r.r1 = outcome(all.poll(cx));
    }

    @Arbiter
    public void pollAgain(III_Result r) {
        r.r3 = cx.wakes();
        r.r2 = r.r1 == 1 ? 1 : r.r1 == 0 && r.r3 > 0 ? outcome(all.poll(cx)) : -1;
    }

    private static int outcome(Poll<List<Integer>> p) {
        try {
            if (p.isPending()) {
                return 0;
            }
            return p.value().equals(List.of(10, 20)) ? 1 : -2;
        } catch (RuntimeException e) {
            return -3;
        }
    }
}
