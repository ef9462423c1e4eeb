/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.async.TestExecutor;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A read into a buffer without room, and a write or writeAll of an empty buffer, on a closed
 * stream answered 0 (or completed) as if the stream were open: the shortcut for "nothing to
 * move" came before any look at the channel, so a protocol that sends an empty frame (or polls
 * with a full buffer) after the connection was closed was told it had succeeded. A
 * {@code SocketChannel} throws {@link ClosedChannelException} for these, as this stream does for
 * every other operation after {@code close()}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EmptyTransferAfterCloseTest {

    private static AsyncTcpStream acceptFrom(AsyncTcpListener listener, Socket client) throws Exception {
        client.connect(listener.localAddress(), 5_000);
        return TestExecutor.tenSecondLimit().blockOn(listener.accept());
    }

    @Test
    void emptyReadsAndWritesOnAClosedStreamFailAsClosed() throws Exception {
        try (Reactor reactor = Reactor.open();
                AsyncTcpListener listener = AsyncTcpListener.bind(null, reactor);
                Socket client = new Socket()) {
            AsyncTcpStream s = acceptFrom(listener, client);
            // open: nothing to move is 0 at once, as documented
            assertThat(TestExecutor.tenSecondLimit().blockOn(s.read(ByteBuffer.allocate(0)))).isZero();
            assertThat(TestExecutor.tenSecondLimit().blockOn(s.write(ByteBuffer.allocate(0)))).isZero();
            assertThat(TestExecutor.tenSecondLimit().blockOn(s.writeAll(ByteBuffer.allocate(0)))).isNull();
            s.close();
            assertThatThrownBy(() -> TestExecutor.tenSecondLimit().blockOn(s.read(ByteBuffer.allocate(0))))
                    .as("a read without room on a closed stream")
                    .isInstanceOf(UncheckedIOException.class).hasCauseInstanceOf(ClosedChannelException.class);
            assertThatThrownBy(() -> TestExecutor.tenSecondLimit().blockOn(s.write(ByteBuffer.allocate(0))))
                    .as("an empty write on a closed stream")
                    .isInstanceOf(UncheckedIOException.class).hasCauseInstanceOf(ClosedChannelException.class);
            assertThatThrownBy(() -> TestExecutor.tenSecondLimit().blockOn(s.writeAll(ByteBuffer.allocate(0))))
                    .as("an empty writeAll on a closed stream")
                    .isInstanceOf(UncheckedIOException.class).hasCauseInstanceOf(ClosedChannelException.class);
        }
    }
}
