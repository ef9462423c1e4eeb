/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.channels.Pipe;
import java.nio.channels.SelectionKey;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code Reactor.deregister} (a stream's or listener's close) marks the registration cancelled,
 * then collects its waiting wakers into a list to wake them. A collection that failed (no
 * memory for the list) went out of the close after the mark: the tasks waiting on the closed
 * channel were never woken, and a second close found the registration cancelled already and did
 * nothing. Now they are woken one at a time, which needs no list, and the key is still dropped.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DeregisterThatCannotCollectItsWakersTest {

    @AfterEach
    void clearSeam() {
        Reactor.beforeTakeAll = null;
    }

    @Test
    void theWaitingTasksAreWokenAndTheKeyDropped() throws Exception {
        Reactor reactor = Reactor.openDriven();
        reactor.claim();
        Pipe pipe = Pipe.open();
        try (Pipe.SourceChannel source = pipe.source(); Pipe.SinkChannel sink = pipe.sink()) {
            source.configureBlocking(false);
            sink.configureBlocking(false);
            Reactor.Registration reg = reactor.register(source);
            Reactor.Registration sinkReg = reactor.register(sink);
            AtomicInteger readers = new AtomicInteger();
            reactor.await(reg, SelectionKey.OP_READ, readers::incrementAndGet);
            reactor.await(reg, SelectionKey.OP_READ, readers::incrementAndGet);
            reactor.select(0);                 // applies the change: the key exists
            reactor.dispatch();
            assertThat(reactor.registeredChannels()).isEqualTo(1);
            assertThat(readers.get()).as("nothing to read yet").isZero();

            AtomicBoolean armed = new AtomicBoolean(true);
            Reactor.beforeTakeAll = () -> {
                if (armed.compareAndSet(true, false)) {
                    throw new OutOfMemoryError("no memory for the wakers' list (thrown by the test)");
                }
            };
            Throwable thrown = catchThrowable(() -> reactor.deregister(reg));
            assertThat(armed).as("the collection failed once").isFalse();
            assertThat(readers.get()).as("waiting readers woken by the close (thrown: %s)", thrown)
                    .isEqualTo(2);
            assertThat(thrown).as("the close, which did all it had to").isNull();
            reactor.deregister(reg);           // idempotent: wakes nobody twice
            assertThat(readers.get()).isEqualTo(2);
            reactor.select(0);                 // applies the cancel
            reactor.select(0);                 // and the selector drops the cancelled key
            assertThat(reactor.registeredChannels()).as("the key dropped").isZero();
            reactor.deregister(sinkReg);
        } finally {
            reactor.close();
        }
    }
}
