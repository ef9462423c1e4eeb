/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A channel closed by another thread while the selector thread dispatches its key. The close
 * cancels the key at once ({@code SocketChannel.close()}), and only then deregisters, which wakes
 * the wakers still registered. A dispatch that had taken the ready wakers when the cancel came
 * ({@code takeReady}) failed at {@code key.interestOps} with a {@code CancelledKeyException}, and
 * its handler replaced the wakers taken with what was left ({@code takeAll}, nothing): those
 * tasks were never woken, and the close's own wake-up found none of them. A read waiting on an
 * {@link AsyncTcpStream} that another task closed as the peer's bytes came in waited for good,
 * although a close wakes every waiting operation, which then fails.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class KeyCancelledDuringDispatchTest {

    @Test
    void aWakerTakenByADispatchWhoseKeyIsCancelledMeanwhileIsStillWoken() throws Exception {
        try (Reactor reactor = Reactor.open();
                ServerSocketChannel server = ServerSocketChannel.open()
                        .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                SocketChannel ours = SocketChannel.open(server.getLocalAddress());
                SocketChannel peer = server.accept()) {
            ours.configureBlocking(false);
            Reactor.Registration reg = reactor.register(ours);
            CountDownLatch filled = new CountDownLatch(1);
            // Stands in for a stream's read-ahead: it reads what came in, and at that moment
            // another thread closes the stream, whose channel's close cancels the key.
            reg.setReadAhead(() -> {
                try {
                    ours.read(ByteBuffer.allocate(16));
                    ours.close();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                } finally {
                    filled.countDown();
                }
                return Reactor.ReadAhead.Fill.MORE;
            });
            CountDownLatch woken = new CountDownLatch(1);
            reactor.await(reg, SelectionKey.OP_READ, woken::countDown);   // a read waiting for bytes
            peer.write(ByteBuffer.wrap(new byte[] {42}));
            assertThat(filled.await(10, TimeUnit.SECONDS)).as("the reactor read ahead").isTrue();
            reactor.deregister(reg);           // the rest of the stream's close: wakes what is registered
            assertThat(woken.await(10, TimeUnit.SECONDS))
                    .as("the waiting read is woken (by the readiness or the close)").isTrue();
        }
    }
}
