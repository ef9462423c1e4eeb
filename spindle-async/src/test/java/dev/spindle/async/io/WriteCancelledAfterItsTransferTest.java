/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.AsyncTask;
import dev.spindle.async.JoinHandle;
import dev.spindle.async.Poll;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The mirror of {@link ReadCancelledAfterItsTransferTest} for a write, whose bytes cannot be
 * taken back once sent: a write whose handle is cancelled during the poll that wrote drops its
 * count, and {@code src}'s position is what tells the caller how many bytes went (as
 * {@link AsyncTcpStream#write} documents). Pins that contract: a caller that goes on from the
 * position sends every byte once.
 */
@Timeout(60)
class WriteCancelledAfterItsTransferTest {

    @Test
    void aWriteCancelledInThePollThatWroteLeavesSrcsPositionPastTheBytesSent() throws Exception {
        byte[] sent = new byte[3000];
        for (int i = 0; i < sent.length; i++) {
            sent[i] = (byte) (i % 251);
        }
        try (Reactor reactor = Reactor.open();
                ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                SocketChannel ch = SocketChannel.open(server.getLocalSocketAddress());
                Socket peer = server.accept();
                AsyncRuntime rt = AsyncRuntime.builder().workers(1).name("write-cancel").build()) {
            AsyncTcpStream stream = new AsyncTcpStream(ch, reactor);
            ByteBuffer src = ByteBuffer.wrap(sent);
            AsyncTask<Integer> write = stream.write(src);
            CompletableFuture<JoinHandle<Integer>> self = new CompletableFuture<>();
            JoinHandle<Integer> h = rt.spawn(cx -> {
                Poll<Integer> p = write.poll(cx);
                if (p.isReady()) {
                    self.join().cancel(false); // the count the runtime then drops
                }
                return p;
            });
            self.complete(h);
            assertThatThrownBy(() -> h.get(10, SECONDS)).isInstanceOf(CancellationException.class);
            // the caller goes on from src's position (the one worker has finished that poll)
            rt.spawn(stream.writeAll(src)).get(10, SECONDS);
            stream.shutdownOutput();
            peer.setSoTimeout(10_000);
            InputStream in = peer.getInputStream();
            assertThat(in.readAllBytes()).as("every byte once, in order").isEqualTo(sent);
            stream.close();
        }
    }
}
