/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.channels.spi.AbstractSelectableChannel;
import java.nio.channels.spi.AbstractSelector;
import java.nio.channels.spi.SelectorProvider;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A select may invoke its action more than once for the same key, each time with the key's ready
 * set holding another subset of the operations the channel is ready for ({@link Selector#select(Consumer)};
 * the kqueue selector of macOS and the BSDs does so, one call per filter), and the ready set of each
 * call replaces the last one's. The reactor notes a key once, and its dispatch read the ready set
 * the last call left: a key ready to read and to write woke only its writers in that turn, and its
 * readers waited for a later select to report the read again. The selected-key set it replaced
 * joined the subsets, and the dispatch now takes them all.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReadySubsetsOfOneSelectTest {

    /**
     * A selector whose next select finds its key ready to read and to write, and tells its action
     * so in two calls, read first, as a kqueue selector may.
     */
    private static final class SplittingSelector extends AbstractSelector {
        final Set<SelectionKey> keys = new LinkedHashSet<>();
        volatile boolean readyNext;

        SplittingSelector() {
            super(SelectorProvider.provider());
        }

        @Override
        protected void implCloseSelector() {
            keys.clear();
        }

        @Override
        protected SelectionKey register(AbstractSelectableChannel ch, int ops, Object att) {
            FakeSelectionKey k = new FakeSelectionKey(ch, this, ops, att);
            keys.add(k);
            return k;
        }

        @Override
        public Set<SelectionKey> keys() {
            return keys;
        }

        @Override
        public Set<SelectionKey> selectedKeys() {
            return new HashSet<>();
        }

        @Override
        public int selectNow(Consumer<SelectionKey> action) {
            if (!readyNext) {
                return 0;
            }
            readyNext = false;
            for (SelectionKey k : keys) {
                FakeSelectionKey key = (FakeSelectionKey) k;
                key.ready = SelectionKey.OP_READ;
                action.accept(key);
                key.ready = SelectionKey.OP_WRITE;
                action.accept(key);
            }
            return keys.size();
        }

        @Override
        public int select(Consumer<SelectionKey> action, long timeout) {
            return selectNow(action);
        }

        @Override
        public int select(Consumer<SelectionKey> action) {
            return selectNow(action);
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

    @Test
    void aKeyReportedReadyToReadThenToWriteWakesItsReadersAndItsWriters() throws Exception {
        SplittingSelector selector = new SplittingSelector();
        Reactor reactor = new Reactor(selector, null, false);
        reactor.claim();
        try (SocketChannel channel = SocketChannel.open()) {
            channel.configureBlocking(false);
            Reactor.Registration reg = reactor.register(channel);
            AtomicInteger readers = new AtomicInteger();
            AtomicInteger writers = new AtomicInteger();
            reactor.await(reg, SelectionKey.OP_READ, readers::incrementAndGet);
            reactor.await(reg, SelectionKey.OP_WRITE, writers::incrementAndGet);
            assertThat(reactor.select(0)).as("registers the key").isZero();

            selector.readyNext = true;
            assertThat(reactor.select(0)).as("one key, noted once").isEqualTo(1);
            reactor.dispatch();
            assertThat(writers.get()).as("the writer").isEqualTo(1);
            assertThat(readers.get()).as("the reader, whose readiness the first call reported").isEqualTo(1);
            assertThat(reg.interest()).as("both operations handled").isZero();
        } finally {
            reactor.close();
        }
    }
}
