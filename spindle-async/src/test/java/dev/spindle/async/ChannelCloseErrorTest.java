/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A close fails the waiting senders, and the waiting receivers once nothing is left to receive
 * (so does the receive that takes the last value in flight to another receive). Each was
 * unlinked and marked failed, then its waker added to a list to wake after the unlock: an
 * {@link OutOfMemoryError} growing that list (past 16 waiters) left the operations failed and
 * unlinked yet never woken, their tasks waiting for good (the close, once marked, was not done
 * again), and the receive that had taken the last value in flight threw it away with the error.
 * The failed operations are now detached from the channel as their whole queue and woken from
 * it, so nothing is allocated and nothing can fail in between: that is what these tests check,
 * by the thread's allocation counter, since the failure needs an allocation to fail.
 */
@Timeout(60)
class ChannelCloseErrorTest {

    private static final int WAITERS = 40;

    private static final class CountingContext implements Context {
        int wakes;
        private final Waker waker = new Waker() {
            @Override
            public void wake() {
                wakes++;
            }

            @Override
            public boolean expired() {
                return false;
            }
        };

        @Override
        public Waker waker() {
            return waker;
        }

        @Override
        public boolean consumeBudget() {
            return true;
        }
    }

    @Test
    void aCloseFailsAndWakesManyWaitersWithoutAllocating() throws Throwable {
        MethodHandle allocated = AllocationCounter.forCurrentThread();
        assumeTrue(allocated != null, "no allocation counter for threads");
        long most = 0;
        for (int round = 0; round < 30; round++) {         // the first rounds load and link code
            AsyncChannel<Integer> senders = new AsyncChannel<>(1);
            AsyncChannel<Integer> receivers = new AsyncChannel<>(1);
            CountingContext cx = new CountingContext();
            assertThat(senders.send(-1).poll(cx).isReady()).isTrue();
            List<AsyncTask<?>> waiting = new ArrayList<>();
            for (int i = 0; i < WAITERS; i++) {
                AsyncTask<Void> s = senders.send(i);
                AsyncTask<Integer> r = receivers.receive();
                assertThat(s.poll(cx).isPending()).isTrue();
                assertThat(r.poll(cx).isPending()).isTrue();
                waiting.add(s);
                waiting.add(r);
            }
            long before = (long) allocated.invokeExact();
            senders.close();
            receivers.close();
            long bytes = (long) allocated.invokeExact() - before;
            most = round < 20 ? 0 : Math.max(most, bytes);
            assertThat(cx.wakes).as("every waiter woken").isEqualTo(2 * WAITERS);
            for (AsyncTask<?> t : waiting) {
                assertThatThrownBy(() -> t.poll(cx)).isInstanceOf(ChannelClosedException.class);
            }
        }
        assertThat(most).as("bytes allocated by two closes failing %d waiters each", WAITERS).isZero();
    }

    @Test
    void theReceiveOfTheLastValueInFlightFailsTheOthersWithoutAllocating() throws Throwable {
        MethodHandle allocated = AllocationCounter.forCurrentThread();
        assumeTrue(allocated != null, "no allocation counter for threads");
        long most = 0;
        for (int round = 0; round < 30; round++) {
            AsyncChannel<Integer> ch = new AsyncChannel<>(1);
            CountingContext cx = new CountingContext();
            DirectTask<Integer> holding = (DirectTask<Integer>) ch.receive();
            assertThat(holding.pollDirect(cx)).isSameAs(DirectTask.PENDING);
            assertThat(ch.send(7).poll(cx).isReady()).isTrue();   // handed to it: in flight
            ch.close();
            List<AsyncTask<Integer>> others = new ArrayList<>();
            for (int i = 0; i < WAITERS; i++) {
                AsyncTask<Integer> r = ch.receive();
                assertThat(r.poll(cx).isPending()).as("a value is still in flight").isTrue();
                others.add(r);
            }
            int wakes = cx.wakes;
            long before = (long) allocated.invokeExact();
            Object got = holding.pollDirect(cx);
            long bytes = (long) allocated.invokeExact() - before;
            most = round < 20 ? 0 : Math.max(most, bytes);
            assertThat(got).isEqualTo(7);
            assertThat(cx.wakes - wakes).as("every other receive woken").isEqualTo(WAITERS);
            for (AsyncTask<Integer> r : others) {
                assertThatThrownBy(() -> r.poll(cx)).isInstanceOf(ChannelClosedException.class);
            }
        }
        assertThat(most).as("bytes allocated by the receive that failed %d others", WAITERS).isZero();
    }
}
