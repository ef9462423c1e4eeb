/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.JoinHandle;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A driven reactor whose runtime is closed has nobody selecting (a server stopped in-process, its
 * group kept for the next runtime): a stream closed then must still let go of its socket, as a
 * listener closed then frees its port ({@code UndrivenReleaseTest}).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UndrivenStreamCloseReleasesTheSocketTest {

    /**
     * The JDK closes a socket registered with a selector only when a select drops its cancelled
     * key; until then the close only shuts its output down. A stream closed after its runtime (a
     * server that stops its workers, then closes the connections it still holds) kept its key
     * and its socket until a new runtime selected or the group was closed: the file descriptor
     * stayed open, and the peer, which read the end of the stream, could go on sending into a
     * socket nobody would ever read, unanswered, until its buffers filled and its writes hung.
     */
    @Test
    void aStreamClosedAfterItsRuntimeLetsGoOfItsSocket() throws Exception {
        try (ReactorGroup driven = ReactorGroup.openDriven(1);
                AsyncTcpListener listener = AsyncTcpListener.bind(null, driven)) {
            Reactor reactor = driven.reactors().get(0);
            InetSocketAddress address = listener.localAddress();
            Socket client;
            AsyncTcpStream server;
            try (AsyncRuntime runtime = AsyncRuntime.builder().workers(1).driveIo(driven.reactors()).build()) {
                JoinHandle<AsyncTcpStream> accepted = runtime.spawn(listener.accept());
                awaitRegistered(reactor, 1);   // the accept's interest reached the selector
                client = new Socket(address.getAddress(), address.getPort());
                client.setSoTimeout(10_000);
                server = accepted.get(30, TimeUnit.SECONDS);
                JoinHandle<Integer> read = runtime.spawn(server.read(ByteBuffer.allocate(8)));
                awaitRegistered(reactor, 2);   // and the read's
                client.getOutputStream().write(7);
                assertThat(read.get(30, TimeUnit.SECONDS)).isEqualTo(1);
            }
            try {
                server.close();
                assertThat(reactor.registeredChannels()).as("channels registered: the listener's alone").isEqualTo(1);
                assertThat(client.getInputStream().read()).isEqualTo(-1);
                // a socket really closed answers the peer's next bytes with a reset
                OutputStream out = client.getOutputStream();
                byte[] chunk = new byte[64 * 1024];
                assertThatThrownBy(() -> {
                    for (int i = 0; i < 1_000; i++) {  // at most 64 MB: more than any socket buffers
                        out.write(chunk);
                        Thread.sleep(1);               // time for the reset to come back
                    }
                }).as("a write after the reset").isInstanceOf(IOException.class);
            } finally {
                client.close();
            }
        }
    }

    private static void awaitRegistered(Reactor reactor, int channels) throws InterruptedException {
        while (reactor.registeredChannels() < channels) {
            Thread.sleep(1);                   // bounded by the class's timeout
        }
    }
}
