/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An acquire of a semaphore with no permit, and a receive from an empty channel or a send to a
 * full one, polled with a context whose {@code waker()} is {@code null} (a hand-written context,
 * a mock answering by default) must be refused with a {@link NullPointerException} naming the
 * waker, as a handle, a promise and the combinators refuse it: each queued itself with the null
 * waker, so that the release, send or receive that served it later woke nobody (the failed wake
 * was reported as a stray) and its task waited for good.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class NullWakerWaitingOpTest {

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

    /** A context with a waker that does nothing: the operations it polls complete at once here. */
    private static final Context READY = new Context() {
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
    };

    @Test
    void anAcquireThatMustWaitRefusesANullWaker() {
        AsyncSemaphore s = new AsyncSemaphore(0);
        assertThatThrownBy(() -> s.acquire().poll(NO_WAKER)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("waker");
        s.release();
        assertThat(s.availablePermits()).as("the permit went to nobody queued").isEqualTo(1);
    }

    @Test
    void aReceiveThatMustWaitRefusesANullWaker() {
        AsyncChannel<Integer> ch = new AsyncChannel<>(1);
        assertThatThrownBy(() -> ch.receive().poll(NO_WAKER)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("waker");
        assertThat(ch.send(1).poll(READY).isReady()).isTrue();
        assertThat(ch.size()).as("the value went to nobody queued").isEqualTo(1);
    }

    @Test
    void aSendThatMustWaitRefusesANullWaker() {
        AsyncChannel<Integer> ch = new AsyncChannel<>(1);
        assertThat(ch.send(1).poll(READY).isReady()).isTrue();
        assertThatThrownBy(() -> ch.send(2).poll(NO_WAKER)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("waker");
        assertThat(ch.receive().poll(READY).value()).isEqualTo(1);
        assertThat(ch.size()).as("the refused send's value was not taken").isZero();
    }
}
