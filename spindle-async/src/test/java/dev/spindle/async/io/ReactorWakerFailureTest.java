/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A waker that throws when its reactor wakes it is reported, not swallowed, and the others still wake. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ReactorWakerFailureTest {

    @Test
    void closingAReactorReportsAThrowingWakerAndWakesTheOthers() throws Exception {
        Reactor reactor = Reactor.openDriven();
        reactor.claim();
        try (ServerSocketChannel channel = ServerSocketChannel.open()) {
            channel.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            channel.configureBlocking(false);
            Reactor.Registration reg = reactor.register(channel);
            AtomicInteger woken = new AtomicInteger();
            reactor.await(reg, SelectionKey.OP_ACCEPT, woken::incrementAndGet);
            reactor.await(reg, SelectionKey.OP_ACCEPT, () -> {
                throw new IllegalStateException("waker failed");
            });
            reactor.await(reg, SelectionKey.OP_ACCEPT, woken::incrementAndGet);
            assertThat(reactor.select(0)).as("nothing to accept yet").isZero();   // registers the key

            List<Throwable> reported = new CopyOnWriteArrayList<>();
            Thread closer = new Thread(() -> {
                try {
                    reactor.close();           // wakes every waiting task on this thread
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }, "closes-reactor");
            closer.setUncaughtExceptionHandler((t, e) -> reported.add(e));
            closer.start();
            closer.join(TimeUnit.SECONDS.toMillis(10));
            assertThat(closer.isAlive()).isFalse();
            assertThat(woken.get()).as("the wakers around the failing one were woken").isEqualTo(2);
            assertThat(reported).singleElement().satisfies(e -> assertThat(e)
                    .isInstanceOf(IllegalStateException.class).hasMessage("waker failed"));
        }
    }
}
