/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Closing a listener or a stream wakes the tasks waiting on it on the closing thread: a waker
 * that throws there is reported, and neither keeps the others asleep nor the socket open.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CloseWithThrowingWakerTest {

    @Test
    void listenerCloseWakesTheOthersAndFreesThePort() throws Exception {
        try (Reactor reactor = Reactor.open()) {
            AsyncTcpListener listener = AsyncTcpListener.bind(null, reactor);
            InetSocketAddress address = listener.localAddress();
            AtomicInteger woken = new AtomicInteger();
            Reactor.Registration reg = listener.registration();
            reactor.await(reg, SelectionKey.OP_ACCEPT, woken::incrementAndGet);
            reactor.await(reg, SelectionKey.OP_ACCEPT, () -> {
                throw new IllegalStateException("waker failed");
            });
            reactor.await(reg, SelectionKey.OP_ACCEPT, woken::incrementAndGet);

            List<Throwable> reported = new CopyOnWriteArrayList<>();
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread closer = new Thread(() -> {
                try {
                    listener.close();
                } catch (Throwable t) {
                    thrown.set(t);
                }
            }, "closes-listener");
            closer.setUncaughtExceptionHandler((t, e) -> reported.add(e));
            closer.start();
            closer.join(TimeUnit.SECONDS.toMillis(20));

            assertThat(thrown.get()).as("close() threw").isNull();
            assertThat(woken.get()).as("the wakers around the failing one were woken").isEqualTo(2);
            assertThat(reported).singleElement().satisfies(e -> assertThat(e)
                    .isInstanceOf(IllegalStateException.class).hasMessage("waker failed"));
            try (ServerSocketChannel again = ServerSocketChannel.open()) {
                again.bind(address);           // the port is free again once close() returned
            }
        }
    }
}
