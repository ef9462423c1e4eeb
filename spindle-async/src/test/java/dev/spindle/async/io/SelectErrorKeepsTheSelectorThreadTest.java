/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.spindle.testkit.Await;
import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.spi.AbstractSelectableChannel;
import java.nio.channels.spi.AbstractSelector;
import java.nio.channels.spi.SelectorProvider;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An {@link Error} out of the selector thread's {@code select} (no memory for the selected-key
 * set as the JDK fills it, say) went out of the reactor's loop: the thread died with it and the
 * reactor closed, for every channel it served, its waiting tasks failing with "the reactor is
 * closed". For a reactor of the shared group, kept open, that was every later one-argument
 * {@code connect} and {@code bind} of the JVM. Unlike an {@code IOException} (an
 * {@code epoll_wait} error, after which the selector never reports again), such an error is not
 * the selector's: the driven reactors' drivers already report it and drive the reactor again,
 * and the selector thread now does the same.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SelectErrorKeepsTheSelectorThreadTest {

    /**
     * A selector that registers nothing, whose first {@code select} throws an error and whose
     * later ones wait for a wake-up or the close. Before throwing, it installs the test's
     * handler on the selecting thread, so the error is seen whether the thread reports it or
     * dies of it.
     */
    static final class ErrorOnceSelector extends AbstractSelector {
        final AtomicInteger selects = new AtomicInteger();
        final List<Throwable> reported = new CopyOnWriteArrayList<>();
        private boolean woken;

        ErrorOnceSelector() {
            super(SelectorProvider.provider());
        }

        @Override
        protected synchronized void implCloseSelector() {
            woken = true;
            notifyAll();
        }

        @Override
        protected SelectionKey register(AbstractSelectableChannel ch, int ops, Object att) {
            throw new UnsupportedOperationException("this selector registers nothing");
        }

        @Override
        public Set<SelectionKey> keys() {
            return Set.of();
        }

        @Override
        public Set<SelectionKey> selectedKeys() {
            return new HashSet<>();
        }

        @Override
        public int selectNow() {
            selects.incrementAndGet();
            return 0;
        }

        @Override
        public int select(long timeout) throws IOException {
            return select();
        }

        @Override
        public synchronized int select() throws IOException {
            if (selects.incrementAndGet() == 1) {
                Thread.currentThread().setUncaughtExceptionHandler((t, e) -> reported.add(e));
                throw new OutOfMemoryError("injected: no memory for the selected keys");
            }
            try {
                while (!woken && isOpen()) {
                    wait();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            woken = false;
            return 0;
        }

        @Override
        public synchronized Selector wakeup() {
            woken = true;
            notifyAll();
            return this;
        }
    }

    @Test
    void anErrorFromSelectIsReportedAndTheReactorGoesOn() throws Exception {
        ErrorOnceSelector selector = new ErrorOnceSelector();
        Reactor reactor = new Reactor(selector, "select-error-test", false);
        try {
            Await.until("the selector thread selects again, or dies",
                    () -> selector.selects.get() >= 2 || reactor.isClosed());

            assertThat(reactor.isClosed()).as("the reactor is still open").isFalse();
            assertThatCode(reactor::checkOpen).doesNotThrowAnyException();
            assertThat(selector.selects.get()).as("its thread selects again").isGreaterThanOrEqualTo(2);
            Await.until("the error reported", () -> !selector.reported.isEmpty());
            assertThat(selector.reported).singleElement().satisfies(e -> assertThat(e)
                    .isInstanceOf(OutOfMemoryError.class)
                    .hasMessage("injected: no memory for the selected keys"));

            int before = selector.selects.get();
            reactor.wakeup();
            Await.until("a wake-up still ends its select", () -> selector.selects.get() > before);
        } finally {
            reactor.close();
        }
        assertThat(selector.isOpen()).as("the close stopped the thread, which closed the selector").isFalse();
    }
}
