/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.SelectionKey;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A failure while the selecting thread applies one registration's interest change (here an
 * operation the channel does not support, so that {@code register} throws; in production no
 * memory left for the key) was not that registration's alone: the registration, already off the
 * queue and not registered, was in neither place a wake-up looks, so its task slept for good
 * (and, its interest left armed, so did every later read of its stream); on a driven reactor
 * the error went out of {@code select}, on a reactor with a thread of its own it ended that
 * thread and closed the reactor for every channel it served. It must be reported, the
 * registration's tasks woken to retry, and the reactor must go on.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FailedInterestChangeTest {

    @Test
    void aFailedChangeOnADrivenReactorIsReportedAndItsTaskWoken() throws Exception {
        Reactor reactor = Reactor.openDriven();
        reactor.claim();
        Pipe pipe = Pipe.open();
        try (Pipe.SourceChannel source = pipe.source(); Pipe.SinkChannel sink = pipe.sink()) {
            source.configureBlocking(false);
            Reactor.Registration reg = reactor.register(source);
            AtomicInteger woken = new AtomicInteger();
            reactor.await(reg, SelectionKey.OP_WRITE, woken::incrementAndGet);   // register() refuses it

            List<Throwable> reported = new CopyOnWriteArrayList<>();
            AtomicInteger selected = new AtomicInteger(-2);
            Thread driver = new Thread(() -> selected.set(reactor.select(0)), "drives-reactor");
            driver.setUncaughtExceptionHandler((t, e) -> reported.add(e));
            driver.start();
            driver.join(TimeUnit.SECONDS.toMillis(20));

            assertThat(reported).singleElement().isInstanceOf(IllegalArgumentException.class);
            assertThat(selected.get()).as("select returned").isZero();
            assertThat(woken.get()).as("the registration's task was woken to retry").isEqualTo(1);
            assertThat(reg.interest()).isZero();
            assertThat(reactor.isClosed()).isFalse();

            // the registration still works: a later wait is applied and served
            reactor.await(reg, SelectionKey.OP_READ, woken::incrementAndGet);
            assertThat(reactor.select(0)).isZero();                              // registers the key
            sink.write(ByteBuffer.wrap(new byte[] {1}));
            assertThat(reactor.select(TimeUnit.SECONDS.toNanos(10))).isEqualTo(1);
            reactor.dispatch();
            assertThat(woken.get()).as("the later wait was served").isEqualTo(2);
        } finally {
            reactor.close();
        }
    }

    @Test
    void aFailedChangeDoesNotEndTheSelectorThreadOfAReactor() throws Exception {
        try (Reactor reactor = Reactor.open()) {
            Pipe pipe = Pipe.open();
            try (Pipe.SourceChannel source = pipe.source(); Pipe.SinkChannel sink = pipe.sink()) {
                source.configureBlocking(false);
                Reactor.Registration reg = reactor.register(source);
                CountDownLatch first = new CountDownLatch(1);
                reactor.await(reg, SelectionKey.OP_WRITE, first::countDown);     // register() refuses it
                assertThat(first.await(10, TimeUnit.SECONDS)).as("the task was woken").isTrue();
                assertThat(reactor.isClosed()).as("the reactor goes on").isFalse();

                CountDownLatch second = new CountDownLatch(1);
                reactor.await(reg, SelectionKey.OP_READ, second::countDown);
                sink.write(ByteBuffer.wrap(new byte[] {1}));
                assertThat(second.await(10, TimeUnit.SECONDS)).as("a later wait is served").isTrue();
                assertThat(reactor.isClosed()).isFalse();
            }
        }
    }
}
