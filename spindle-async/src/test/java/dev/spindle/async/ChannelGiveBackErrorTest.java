/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A receive cancelled while holding a value that no receiver waits for gives the value back to
 * the channel. It used to add itself to a list created (and grown) there, after it had taken the
 * value out of the in-flight count: an {@link OutOfMemoryError} from that allocation left the
 * value in neither, and the cancel threw with the value lost for good (a receive of the closed
 * channel then failed "closed and empty", one of the open channel waited for good). The give-back
 * now links the receive through its own links and allocates nothing, so nothing can make it fail:
 * that is what the first test checks (by the thread's allocation counter, since the failure needs
 * an allocation to fail). With a hook that threw just before the add, the lost value was seen:
 * "ChannelClosedException: receive: the channel is closed and empty".
 */
@Timeout(60)
class ChannelGiveBackErrorTest {

    private static final class HandContext implements Context {
        private final Waker waker = new Waker() {
            @Override
            public void wake() {
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

    /** Receives that hold the values sent, one each, in order: {@code values.length} of them. */
    private static List<AsyncTask<String>> holding(AsyncChannel<String> ch, HandContext cx, String... values) {
        List<AsyncTask<String>> receives = new ArrayList<>();
        for (String ignored : values) {
            AsyncTask<String> r = ch.receive();
            assertThat(r.poll(cx).isPending()).isTrue();
            receives.add(r);
        }
        for (String v : values) {
            assertThat(ch.send(v).poll(cx).isReady()).isTrue();   // handed to the oldest receive
        }
        return receives;
    }

    @Test
    void aCancelledReceiveGivesItsValueBackWithoutAllocating() throws Throwable {
        MethodHandle allocated = AllocationCounter.forCurrentThread();
        assumeTrue(allocated != null, "no allocation counter for threads");
        HandContext cx = new HandContext();
        long most = 0;
        for (int round = 0; round < 50; round++) {         // the first rounds load and link code
            AsyncChannel<String> ch = new AsyncChannel<>(1);
            List<AsyncTask<String>> r = holding(ch, cx, "a", "b", "c");
            long before = (long) allocated.invokeExact();
            Async.cancel(r.get(1));
            Async.cancel(r.get(2));
            Async.cancel(r.get(0));
            long bytes = (long) allocated.invokeExact() - before;
            most = round < 40 ? 0 : Math.max(most, bytes);
            ch.close();
            for (String v : List.of("a", "b", "c")) {
                Poll<String> p = ch.receive().poll(cx);
                assertThat(p.isReady()).isTrue();
                assertThat(p.value()).isEqualTo(v);
            }
        }
        assertThat(most).as("bytes allocated by three give-backs of a warm channel").isZero();
    }

    @Test
    void valuesGivenBackOutOfOrderAreReceivedInTheOrderTheyWereSent() {
        HandContext cx = new HandContext();
        AsyncChannel<String> ch = new AsyncChannel<>(1);
        List<AsyncTask<String>> r = holding(ch, cx, "a", "b", "c", "d", "e");
        for (int i : new int[] {3, 1, 4, 0, 2}) {
            Async.cancel(r.get(i));
        }
        assertThat(ch.size()).isEqualTo(5);
        ch.close();
        List<String> got = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            Poll<String> p = ch.receive().poll(cx);
            assertThat(p.isReady()).as("receive %d (got %s so far)", i, got).isTrue();
            got.add(p.value());
        }
        assertThat(got).containsExactly("a", "b", "c", "d", "e");
        assertThat(ch.size()).isZero();
    }
}
