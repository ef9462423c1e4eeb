/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.SelectionKey;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A waker run on a reactor's selector thread (user code when a task is polled by hand) that
 * leaves the thread's interrupt status set, as the usual "catch InterruptedException, interrupt
 * again" does, made every later {@code select} return at once: the selector thread spun at full
 * CPU for as long as the reactor lived. The interrupt is a stray one there, and is dropped. (The
 * test checks the status the next waker sees, not the spin itself, which only a count over time
 * would show.)
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class InterruptedSelectorThreadTest {

    @Test
    void aWakerThatInterruptsTheSelectorThreadDoesNotMakeItSpin() throws Exception {
        try (Reactor reactor = Reactor.open()) {
            Pipe pipe = Pipe.open();
            try (Pipe.SourceChannel source = pipe.source(); Pipe.SinkChannel sink = pipe.sink()) {
                source.configureBlocking(false);
                Reactor.Registration reg = reactor.register(source);
                AtomicReference<Thread> selectorThread = new AtomicReference<>();
                CountDownLatch first = new CountDownLatch(1);
                reactor.await(reg, SelectionKey.OP_READ, () -> {
                    selectorThread.set(Thread.currentThread());
                    Thread.currentThread().interrupt();
                    first.countDown();
                });
                sink.write(ByteBuffer.wrap(new byte[] {1}));
                assertThat(first.await(10, TimeUnit.SECONDS)).isTrue();
                source.read(ByteBuffer.allocate(1));   // nothing left to select the key for

                // a later wait is still served, and the thread that serves it is no longer
                // interrupted: an interrupted thread's select returns at once, every time
                AtomicReference<Boolean> interrupted = new AtomicReference<>();
                CountDownLatch second = new CountDownLatch(1);
                reactor.await(reg, SelectionKey.OP_READ, () -> {
                    interrupted.set(Thread.currentThread().isInterrupted());
                    second.countDown();
                });
                sink.write(ByteBuffer.wrap(new byte[] {2}));
                assertThat(second.await(10, TimeUnit.SECONDS)).isTrue();

                assertThat(interrupted.get()).as("the selector thread still interrupted").isFalse();
            }
        }
    }
}
