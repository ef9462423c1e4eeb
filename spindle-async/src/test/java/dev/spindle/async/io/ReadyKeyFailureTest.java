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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A failure while a reactor handles one ready key (here a read-ahead whose {@code fill} throws;
 * in production no memory left for the list of its wakers) went out of the reactor's dispatch:
 * on a driven reactor out of the driving worker's park, which shut its runtime down, with the
 * key's tasks never woken; on a reactor with a thread of its own it ended that thread and closed
 * the reactor for every channel it served. It must be reported, the key's tasks woken to retry,
 * the key disarmed (not selected again at every turn while the failure recurs), and the reactor
 * must go on.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReadyKeyFailureTest {

    @Test
    void aFailingKeyOnADrivenReactorIsReportedItsTasksWokenAndTheDispatchReturns() throws Exception {
        Reactor reactor = Reactor.openDriven();
        reactor.claim();
        Pipe pipe = Pipe.open();
        try (Pipe.SourceChannel source = pipe.source(); Pipe.SinkChannel sink = pipe.sink()) {
            source.configureBlocking(false);
            Reactor.Registration reg = reactor.register(source);
            reg.setReadAhead(() -> {
                throw new IllegalStateException("fill failed (injected)");
            });
            AtomicInteger woken = new AtomicInteger();
            reactor.await(reg, SelectionKey.OP_READ, woken::incrementAndGet);
            assertThat(reactor.select(0)).as("nothing to read yet").isZero();   // registers the key
            sink.write(ByteBuffer.wrap(new byte[] {1}));

            List<Throwable> reported = new CopyOnWriteArrayList<>();
            AtomicBoolean returned = new AtomicBoolean();
            AtomicInteger selected = new AtomicInteger(-2);
            AtomicInteger selectedAgain = new AtomicInteger(-2);
            Thread driver = new Thread(() -> {
                selected.set(reactor.select(TimeUnit.SECONDS.toNanos(10)));
                reactor.dispatch();
                returned.set(true);
                selectedAgain.set(reactor.select(0));
            }, "drives-reactor");
            driver.setUncaughtExceptionHandler((t, e) -> reported.add(e));
            driver.start();
            driver.join(TimeUnit.SECONDS.toMillis(20));

            assertThat(driver.isAlive()).isFalse();
            assertThat(selected.get()).as("the byte made the key ready").isEqualTo(1);
            assertThat(returned.get()).as("the dispatch returned").isTrue();
            assertThat(woken.get()).as("the key's task was woken to retry").isEqualTo(1);
            assertThat(selectedAgain.get()).as("the failed key is not selected again until re-armed").isZero();
            assertThat(reg.interest()).isZero();
            assertThat(reactor.isClosed()).isFalse();
            assertThat(reported).singleElement().satisfies(e -> assertThat(e)
                    .isInstanceOf(IllegalStateException.class).hasMessage("fill failed (injected)"));
        } finally {
            reactor.close();
        }
    }

    @Test
    void aFailingKeyDoesNotEndTheSelectorThreadOfAReactor() throws Exception {
        try (Reactor reactor = Reactor.open()) {
            Pipe pipe = Pipe.open();
            try (Pipe.SourceChannel source = pipe.source(); Pipe.SinkChannel sink = pipe.sink()) {
                source.configureBlocking(false);
                Reactor.Registration reg = reactor.register(source);
                AtomicInteger fills = new AtomicInteger();
                reg.setReadAhead(() -> {
                    if (fills.incrementAndGet() == 1) {
                        throw new IllegalStateException("fill failed (injected)");
                    }
                    return Reactor.ReadAhead.Fill.ENDED;   // wakes the readers and drops the interest
                });
                CountDownLatch first = new CountDownLatch(1);
                reactor.await(reg, SelectionKey.OP_READ, first::countDown);
                sink.write(ByteBuffer.wrap(new byte[] {1}));
                assertThat(first.await(10, TimeUnit.SECONDS)).as("the key's task was woken").isTrue();
                assertThat(reactor.isClosed()).as("the reactor goes on").isFalse();

                // and it still serves readiness: the retry re-arms, and the byte is still there
                CountDownLatch second = new CountDownLatch(1);
                reactor.await(reg, SelectionKey.OP_READ, second::countDown);
                assertThat(second.await(10, TimeUnit.SECONDS)).as("a later wait is served").isTrue();
                assertThat(reactor.isClosed()).isFalse();
            }
        }
    }
}
