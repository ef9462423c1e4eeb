/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.JoinHandle;
import dev.spindle.async.io.AsyncTcpListener;
import dev.spindle.async.io.AsyncTcpStream;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The README's echo server against a client that resets its connection (SO_LINGER 0) instead
 * of closing it: the handler closed its stream only at end of stream, so the failed read of a
 * reset connection ended the task with the socket still open and registered, one file
 * descriptor lost per reset client until the server ran out of them.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ReadmeEchoRegressionTest {

    @Test
    void theEchoHandlerClosesAStreamWhoseClientResetsIt() throws Exception {
        try (AsyncRuntime runtime = AsyncRuntime.builder().workers(2).build();
                AsyncTcpListener listener = AsyncTcpListener.bind(new InetSocketAddress("127.0.0.1", 0))) {
            Socket client = new Socket();
            client.connect(listener.localAddress());
            AsyncTcpStream stream = runtime.run(listener.accept());
            JoinHandle<Void> handler = runtime.spawn(EchoServerExample.echo(stream));
            client.getOutputStream().write(new byte[] {1, 2, 3});
            InputStream in = client.getInputStream();
            assertThat(in.readNBytes(3)).as("the echo").containsExactly(1, 2, 3);
            client.setSoLinger(true, 0);
            client.close();                    // RST: the handler's next read fails
            try {
                handler.get(20, TimeUnit.SECONDS);
            } catch (ExecutionException failed) {
                // how the handler ends is its own affair; that the stream is closed is not
            }
            assertThat(stream.isOpen()).as("the server's stream after its client reset it").isFalse();
        }
    }
}
