/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.testkit.Gc;
import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A closed reactor hands out no more read-ahead buffers, so it keeps none: the spare buffers of
 * its closed streams go back to the garbage collector at its close, and a buffer a stream gives
 * back after it is not kept.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ClosedReactorSpareBuffersTest {

    /**
     * A closed reactor kept up to 16 spare buffers (256 KiB of direct memory) for as long as
     * anything reached it: each of its streams still open does, and so does whoever holds the
     * reactor or its group (a server that keeps its closed group around until it restarts).
     */
    @ParameterizedTest(name = "driven = {0}")
    @ValueSource(booleans = {false, true})
    void aClosedReactorKeepsNoSpareBuffer(boolean driven) throws Exception {
        Reactor reactor = driven ? Reactor.openDriven() : Reactor.open();
        AsyncTcpStream kept = new AsyncTcpStream(SocketChannel.open(), reactor);  // reaches the reactor
        ByteBuffer before = reactor.takeBuffer(AsyncTcpStream.READ_AHEAD_BYTES);
        ByteBuffer after = reactor.takeBuffer(AsyncTcpStream.READ_AHEAD_BYTES);
        reactor.giveBuffer(before);            // a stream closed before the reactor
        reactor.close();
        reactor.giveBuffer(after);             // a stream closed after it
        WeakReference<ByteBuffer> beforeRef = new WeakReference<>(before);
        WeakReference<ByteBuffer> afterRef = new WeakReference<>(after);
        before = null;
        after = null;
        assertThat(Gc.collected(beforeRef)).as("a spare buffer given back before the close").isTrue();
        assertThat(Gc.collected(afterRef)).as("a buffer given back after the close").isTrue();
        assertThat(kept.reactor()).isSameAs(reactor);  // the reactor stays reachable to the end
        kept.close();
    }
}
