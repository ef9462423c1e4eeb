/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.async.AsyncPolicy;
import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.JoinHandle;
import dev.spindle.testkit.Await;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.spi.AbstractSelectableChannel;
import java.nio.channels.spi.AbstractSelectionKey;
import java.nio.channels.spi.AbstractSelector;
import java.nio.channels.spi.SelectorProvider;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A driven reactor wakes some tasks inside its {@code select} rather than in {@code dispatch}:
 * when its selector fails it closes and wakes every waiting task there, and returns -1 to its
 * driver. Those wake-ups ran on the driving worker while it was parked in the idle protocol,
 * outside any poll. Under HYBRID a wake-up on a worker thread into that worker's own empty wake
 * channel wakes nobody (the worker is expected to look there after its poll), and the driver,
 * given -1 and no events, went back to sleep without looking: the woken task sat in the channel
 * of the worker asleep beside it, and an accept waiting on the failed reactor never failed.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DrivenSelectorFailureWakesOnTheRuntimeTest {

    /**
     * A selector that registers channels but never finds one ready: {@code select} waits for a
     * wake-up, and throws (as an {@code epoll_wait} error does) once {@link #failNow} is called.
     */
    static final class FailOnCueSelector extends AbstractSelector {
        private final Set<SelectionKey> keys = ConcurrentHashMap.newKeySet();
        private boolean woken;
        private boolean failing;

        FailOnCueSelector() {
            super(SelectorProvider.provider());
        }

        synchronized void failNow() {
            failing = true;
            notifyAll();
        }

        @Override
        protected void implCloseSelector() {
            for (SelectionKey k : keys) {
                deregister((AbstractSelectionKey) k); // the channel's close then frees its socket
            }
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
        public synchronized int selectNow() throws IOException {
            return turn(-1);
        }

        @Override
        public synchronized int select(long timeout) throws IOException {
            return turn(timeout);
        }

        @Override
        public synchronized int select() throws IOException {
            return turn(0);
        }

        /** One selection: waits {@code waitMillis} at most (0: until woken, -1: not at all). */
        private int turn(long waitMillis) throws IOException {
            if (waitMillis >= 0 && !woken && !failing) {
                try {
                    wait(waitMillis);      // a timeout or a spurious return is a selection with nothing ready
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            woken = false;
            if (failing) {
                throw new IOException("injected: epoll_wait failed");
            }
            return 0;
        }

        @Override
        public synchronized Selector wakeup() {
            woken = true;
            notifyAll();
            return this;
        }
    }

    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void anAcceptWaitingOnADrivenReactorWhoseSelectorFailsFails(AsyncPolicy policy) throws Exception {
        FailOnCueSelector selector = new FailOnCueSelector();
        Reactor reactor = new Reactor(selector, null, false);
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).policy(policy)
                .driveIo(List.of(reactor)).build();
                AsyncTcpListener listener = AsyncTcpListener.bind(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), reactor)) {
            JoinHandle<AsyncTcpStream> accept = rt.spawn(listener.accept());
            Await.until("the accept waits on the reactor's selector",
                    () -> listener.registration().readWakerCount() == 1 && selector.keys().size() == 1);

            selector.failNow();

            assertThatThrownBy(() -> accept.get(10, TimeUnit.SECONDS))
                    .as("the accept woken by the reactor's failure fails, naming it")
                    .isInstanceOf(ExecutionException.class)
                    .hasRootCauseMessage("injected: epoll_wait failed");
            assertThat(reactor.isClosed()).isTrue();
        }
    }
}
