/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A spawn from a thread outside the runtime that looked at {@code closing} before a shutdown set
 * it, and offers its cell to the injector only after the shutdown has terminated: the shutdown
 * found the cell in the outside list and failed its handle (the caller is told), but the late
 * offer left the failed cell in the injector for good, held after termination and reported by
 * {@code stats()} as one queued task. Nothing may stay queued after termination.
 */
@Timeout(60)
class OutsideSpawnRacingShutdownTest {

    @Test
    void aSpawnWhoseOfferComesAfterTheShutdownLeavesNothingQueued() throws Exception {
        AsyncRuntime rt = AsyncRuntime.builder().workers(1).name("late-offer").build();
        rt.beforeOutsideOffer = () -> {
            rt.beforeOutsideOffer = null;
            rt.shutdown();                     // the whole shutdown, between the look and the offer
        };
        JoinHandle<Integer> h = rt.spawn(Async.ready(1));
        assertThat(rt.isTerminated()).isTrue();
        Throwable outcome = null;
        try {
            h.get(10, TimeUnit.SECONDS);
        } catch (CancellationException | ExecutionException e) {
            outcome = e;
        }
        assertThat(outcome).as("the caller is told: the handle failed with the shutdown")
                .isInstanceOf(CancellationException.class);
        assertThat(rt.stats().sharedQueued()).as("cells left in the injector after termination").isZero();
    }
}
