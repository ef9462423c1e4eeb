/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.channels.ServerSocketChannel;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A bind that meets an {@link Error} once its socket is bound (no memory for the listener, say)
 * fails, and leaves no socket bound: the socket was closed on an {@code IOException} or a
 * {@code RuntimeException} only, so on an Error its port stayed bound for good, held by nobody.
 */
@Timeout(60)
class ListenerBindErrorTest {

    @AfterEach
    void clearSeam() {
        AsyncTcpListener.afterBind = null;
    }

    @Test
    void anErrorAfterTheBindClosesTheSocket() throws Exception {
        AtomicReference<ServerSocketChannel> bound = new AtomicReference<>();
        AsyncTcpListener.afterBind = ch -> {
            bound.set(ch);
            throw new OutOfMemoryError("no memory for the listener");
        };
        try (Reactor reactor = Reactor.open()) {
            assertThatThrownBy(() -> AsyncTcpListener.bind(null, reactor))
                    .isInstanceOf(OutOfMemoryError.class)
                    .hasMessage("no memory for the listener");
        }
        assertThat(bound.get()).isNotNull();
        assertThat(bound.get().isOpen()).as("the bound socket is closed").isFalse();
    }
}
