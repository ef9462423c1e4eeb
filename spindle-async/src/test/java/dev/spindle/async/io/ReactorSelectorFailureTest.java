/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.async.AsyncTask;
import dev.spindle.async.Context;
import dev.spindle.testkit.Await;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.spi.AbstractSelectableChannel;
import java.nio.channels.spi.AbstractSelector;
import java.nio.channels.spi.SelectorProvider;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A reactor whose selector fails (an {@code IOException} from {@code select}, as an
 * {@code epoll_wait} error gives) closes itself, wakes every task waiting on it and refuses later
 * operations with the failure as their cause. The selector thread's loop always closed on it; a
 * driven reactor returned -1 to its driver, which retired it, but stayed open: {@code checkOpen}
 * passed, {@link ReactorGroup#next()} still handed it out and the tasks waiting on it were never
 * woken. Found by review (session 39).
 */
class ReactorSelectorFailureTest {

    /** A selector that registers nothing and fails every selection. */
    static final class FailingSelector extends AbstractSelector {
        FailingSelector() {
            super(SelectorProvider.provider());
        }

        @Override
        protected void implCloseSelector() {
        }

        @Override
        protected SelectionKey register(AbstractSelectableChannel ch, int ops, Object att) {
            throw new UnsupportedOperationException("the failing selector registers nothing");
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
        public int selectNow() throws IOException {
            throw new IOException("injected: epoll_wait failed");
        }

        @Override
        public int select(long timeout) throws IOException {
            return selectNow();
        }

        @Override
        public int select() throws IOException {
            return selectNow();
        }

        @Override
        public Selector wakeup() {
            return this;
        }
    }

    private static InetSocketAddress loopback() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    }

    @Test
    void aDrivenReactorWhoseSelectorFailsClosesWakesItsWaitersAndSaysWhy() throws Exception {
        Reactor r = new Reactor(new FailingSelector(), null, false);
        List<Throwable> reported = new ArrayList<>();
        Thread self = Thread.currentThread();
        Thread.UncaughtExceptionHandler before = self.getUncaughtExceptionHandler();
        self.setUncaughtExceptionHandler((t, e) -> reported.add(e));
        try (AsyncTcpListener listener = AsyncTcpListener.bind(loopback(), r)) {
            AtomicInteger wakes = new AtomicInteger();
            Context cx = ByHand.context(wakes::incrementAndGet);
            AsyncTask<AsyncTcpStream> accept = listener.accept();
            assertThat(accept.poll(cx).isReady()).as("nothing to accept yet").isFalse();

            assertThat(r.select(0)).as("a failed selection ends the driver's turns").isEqualTo(-1);

            assertThat(wakes.get()).as("the accept waiting on the failed reactor was woken").isPositive();
            assertThat(r.isClosed()).as("the failed reactor is closed").isTrue();
            assertThat(reported).as("the failure reported to the driving thread's handler").singleElement()
                    .satisfies(e -> assertThat(e).hasRootCauseMessage("injected: epoll_wait failed"));
            assertThatThrownBy(() -> accept.poll(cx))
                    .as("the woken accept fails, naming the selector's failure")
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("selector failed")
                    .hasRootCauseMessage("injected: epoll_wait failed");
            assertThatThrownBy(() -> AsyncTcpListener.bind(loopback(), r))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("closed");
            assertThat(r.select(-1)).as("and never waits again").isEqualTo(-1);
        } finally {
            self.setUncaughtExceptionHandler(before);
        }
    }

    @Test
    void aSelectorThreadWhoseSelectorFailsClosesItsReactorAndSaysWhy() throws Exception {
        Reactor r = new Reactor(new FailingSelector(), "failing-selector-test", false);
        Await.until("the reactor closed by its selector's failure", r::isClosed);
        assertThatThrownBy(() -> AsyncTcpListener.bind(loopback(), r))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("selector failed")
                .hasRootCauseMessage("injected: epoll_wait failed");
    }
}
