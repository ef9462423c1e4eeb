/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static dev.spindle.async.WakerSemanticsTest.WAIT_S;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A handle polled with a {@link Context} whose {@link Context#waker()} is {@code null} (a broken
 * hand-written context, a mock's default answer): the poll must fail at once, naming the waker,
 * rather than leave a {@code null} entry in the handle's waiter stack, whose release later threw
 * in the completing thread (a worker, which died, shutting its runtime down) and left the
 * waiters below it unwoken for good.
 */
@Timeout(60)
class NullWakerContextTest {

    /** A context with no waker, as a mock of the interface answers by default. */
    private static final Context NO_WAKER = new Context() {
        @Override
        public Waker waker() {
            return null;
        }

        @Override
        public boolean consumeBudget() {
            return true;
        }
    };

    /** What {@code h.poll(NO_WAKER)} threw, or {@code null}; it must be pending (the handle is not done). */
    private static Throwable pollThrown(JoinHandle<?> h) {
        try {
            assertThat(h.poll(NO_WAKER).isPending()).isTrue();
            return null;
        } catch (NullPointerException e) {
            return e;
        }
    }

    @Test
    void aPromisePolledWithANullWakerIsRefusedAndItsOtherWaitersAreStillReleased() throws Exception {
        AsyncPromise<Integer> p = new AsyncPromise<>();
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
            JoinHandle<Integer> awaiting = rt.spawn(Async.map(p, v -> v + 1));
            // wait until the task has registered with the promise (its one entry)
            for (long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S); p.waiterCount() == 0; ) {
                assertThat(System.nanoTime() - end).as("the task registered").isNegative();
                Thread.onSpinWait();
            }
            Throwable refused = pollThrown(p);
            assertThat(p.complete(41)).isTrue();
            assertThat(awaiting.get(WAIT_S, TimeUnit.SECONDS)).isEqualTo(42);
            assertThat(refused).isInstanceOf(NullPointerException.class).hasMessageContaining("waker");
        }
    }

    @Test
    void aSpawnedTasksHandlePolledWithANullWakerDoesNotKillTheWorkerThatCompletesIt() throws Exception {
        AsyncPromise<Integer> gate = new AsyncPromise<>();
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
            JoinHandle<Integer> h = rt.spawn(Async.map(gate, v -> v));
            JoinHandle<Integer> joiner = rt.spawn(Async.map(h, v -> v * 2));
            for (long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S); h.waiterCount() == 0; ) {
                assertThat(System.nanoTime() - end).as("the joiner registered").isNegative();
                Thread.onSpinWait();
            }
            Throwable refused = pollThrown(h);
            gate.complete(21);                 // h completes on a worker, which releases its waiters
            assertThat(joiner.get(WAIT_S, TimeUnit.SECONDS)).isEqualTo(42);
            assertThat(rt.isShutdown()).as("a worker died").isFalse();
            assertThat(rt.spawn(Async.ready(7)).get(WAIT_S, TimeUnit.SECONDS)).isEqualTo(7);
            assertThat(refused).isInstanceOf(NullPointerException.class).hasMessageContaining("waker");
        }
    }
}
