/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.SelectionKey;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The reactor notes the keys a select finds ready in an array of its own (the selector's
 * selected-key set allocated a node per ready key). A set holds a key once however many selects
 * find it ready before a dispatch takes it, and the array must too: a key noted twice was
 * dispatched twice, its read-ahead filled twice in one turn. Selects without a dispatch between
 * them happen where a driver's turn is preceded by the undriven release's {@code selectNow}, or
 * where a dispatch stopped early.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReadyKeyNotedOnceTest {

    @Test
    void aKeyThatTwoSelectsFindReadyIsDispatchedOnce() throws Exception {
        Reactor reactor = Reactor.openDriven();
        reactor.claim();
        Pipe pipe = Pipe.open();
        try (Pipe.SourceChannel source = pipe.source(); Pipe.SinkChannel sink = pipe.sink()) {
            source.configureBlocking(false);
            Reactor.Registration reg = reactor.register(source);
            AtomicInteger fills = new AtomicInteger();
            // reads nothing, so the byte stays and the key stays ready (level-triggered)
            reg.setReadAhead(() -> {
                fills.incrementAndGet();
                return Reactor.ReadAhead.Fill.MORE;
            });
            AtomicInteger woken = new AtomicInteger();
            reactor.await(reg, SelectionKey.OP_READ, woken::incrementAndGet);
            assertThat(reactor.select(0)).as("nothing to read yet").isZero();   // registers the key
            sink.write(ByteBuffer.wrap(new byte[] {42}));

            assertThat(reactor.select(TimeUnit.SECONDS.toNanos(10))).as("the byte made the key ready").isEqualTo(1);
            assertThat(reactor.select(0)).as("found ready again before a dispatch: still one key").isEqualTo(1);
            reactor.dispatch();
            assertThat(fills.get()).as("read-ahead fills in that dispatch").isEqualTo(1);
            assertThat(woken.get()).isEqualTo(1);

            assertThat(reactor.select(0)).as("the next turn finds it ready again").isEqualTo(1);
            reactor.dispatch();
            assertThat(fills.get()).as("and dispatches it once more").isEqualTo(2);
        } finally {
            reactor.close();
        }
    }
}
