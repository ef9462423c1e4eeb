/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.spi.AbstractSelectableChannel;
import java.nio.channels.spi.AbstractSelector;
import java.nio.channels.spi.SelectorProvider;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A driven reactor whose selector fails to close ({@link Reactor#close()} documents the
 * {@link IOException}) is closed all the same: the tasks waiting on it are woken, and see it
 * closed.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class DrivenCloseFailureTest {

    /** A selector that registers nothing, never selects anything, and fails to close. */
    static final class CloseFailingSelector extends AbstractSelector {
        CloseFailingSelector() {
            super(SelectorProvider.provider());
        }

        @Override
        protected void implCloseSelector() throws IOException {
            throw new IOException("injected: the selector's close failed");
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
            return 0;
        }

        @Override
        public int select(long timeout) {
            return 0;
        }

        @Override
        public int select() {
            return 0;
        }

        @Override
        public Selector wakeup() {
            return this;
        }
    }

    /**
     * The close threw the selector's IOException between collecting what waits and waking it: the
     * reactor was marked closed, so nothing would ever select or wake there again, and the tasks
     * waiting on it slept for good.
     */
    @Test
    void aDrivenReactorWhoseSelectorCannotCloseStillWakesItsWaiters() throws Exception {
        Reactor reactor = new Reactor(new CloseFailingSelector(), null, false);
        try (ServerSocketChannel channel = ServerSocketChannel.open()) {
            channel.configureBlocking(false);
            Reactor.Registration reg = reactor.register(channel);
            AtomicInteger woken = new AtomicInteger();
            reactor.await(reg, SelectionKey.OP_ACCEPT, woken::incrementAndGet);  // queued for a driver

            assertThatThrownBy(reactor::close)
                    .isInstanceOf(IOException.class)
                    .hasMessage("injected: the selector's close failed");
            assertThat(reactor.isClosed()).isTrue();
            assertThat(woken.get()).as("the task waiting on the closed reactor was woken").isEqualTo(1);
        }
    }
}
