/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.JoinHandle;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * A connect whose task is cancelled while the connection is still being made closes the socket
 * it opened: nobody else holds it, so it would otherwise stay open (and registered with the
 * selector) until the operating system gave up on the connection.
 */
class ConnectCancelTest {

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("timed out waiting for " + what).isNegative();
            Thread.sleep(1);
        }
    }

    @Test
    void cancellingAPendingConnectClosesItsSocket() throws Exception {
        List<SocketChannel> fillers = new ArrayList<>();
        try (Reactor reactor = Reactor.open();
                ServerSocketChannel server = ServerSocketChannel.open();
                AsyncRuntime rt = AsyncRuntime.builder().workers(1).name("connect-cancel").build()) {
            // a listener that never accepts, its backlog filled: one more connect stays pending
            server.bind(new InetSocketAddress("127.0.0.1", 0), 1);
            for (int i = 0; i < 4; i++) {
                SocketChannel f = SocketChannel.open();
                fillers.add(f);
                f.configureBlocking(false);
                f.connect(server.getLocalAddress());
            }
            JoinHandle<AsyncTcpStream> h =
                    rt.spawn(AsyncTcpStream.connect(server.getLocalAddress(), reactor));
            await(() -> h.isDone() || reactor.registeredChannels() == 1, "the connect to wait");
            assumeTrue(!h.isDone(), "this system completed the connect: nothing stays pending");
            assertThat(h.cancel(false)).isTrue();
            await(() -> reactor.registeredChannels() == 0, "the abandoned connect's socket to close");
        } finally {
            for (SocketChannel f : fillers) {
                f.close();
            }
        }
    }
}
