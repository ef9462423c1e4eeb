/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.SelectionKey;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Queueing a registration's interest change for the selecting thread marks it queued, then adds
 * it to the queue; an add that failed (no memory for the queue's node) left it marked queued and
 * on no queue. Every later change of that registration then saw it queued and added nothing, so
 * no change of it ever reached the selector again: the read that armed its interest failed with
 * the error, and every later read of the stream (its interest armed, so it only added its waker)
 * slept for good, bytes arriving or not, as did a close's key cancel. The failed add is now
 * handled as a change that failed to apply ({@code failedChange}): reported, the mark cleared,
 * the registration's tasks woken with its interest dropped, so a retry arms it again.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FailedQueueingOfAChangeTest {

    /** A change queue whose first add throws, as one that finds no memory for its node does. */
    static final class FailOnceQueue<E> extends ConcurrentLinkedQueue<E> {
        final AtomicBoolean failed = new AtomicBoolean();

        @Override
        public boolean add(E e) {
            if (failed.compareAndSet(false, true)) {
                throw new OutOfMemoryError("injected: no memory for the queue's node");
            }
            return super.add(e);               // which offers it
        }
    }

    @Test
    void aChangeThatCouldNotBeQueuedDoesNotWedgeItsRegistration() throws Exception {
        Reactor reactor = Reactor.openDriven();
        reactor.claim();
        Field changes = Reactor.class.getDeclaredField("changes");
        changes.setAccessible(true);
        changes.set(reactor, new FailOnceQueue<>());
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        Thread self = Thread.currentThread();
        Thread.UncaughtExceptionHandler before = self.getUncaughtExceptionHandler();
        self.setUncaughtExceptionHandler((t, e) -> reported.add(e));
        Pipe pipe = Pipe.open();
        try (Pipe.SourceChannel source = pipe.source(); Pipe.SinkChannel sink = pipe.sink()) {
            source.configureBlocking(false);
            Reactor.Registration reg = reactor.register(source);
            AtomicInteger first = new AtomicInteger();
            Throwable thrown = catchThrowable(() -> reactor.await(reg, SelectionKey.OP_READ, first::incrementAndGet));

            // the task tries again, as a woken one does, or another read of the stream comes
            AtomicInteger retry = new AtomicInteger();
            reactor.await(reg, SelectionKey.OP_READ, retry::incrementAndGet);
            sink.write(ByteBuffer.wrap(new byte[] {1}));
            for (int turn = 0; turn < 20 && retry.get() == 0; turn++) {
                if (reactor.select(TimeUnit.MILLISECONDS.toNanos(100)) > 0) {
                    reactor.dispatch();
                }
            }

            assertThat(retry.get()).as("the retry woken by the byte").isEqualTo(1);
            assertThat(thrown).as("the failed queueing thrown at the first wait").isNull();
            assertThat(first.get()).as("the first wait woken to retry").isPositive();
            assertThat(reported).singleElement().satisfies(e -> assertThat(e)
                    .isInstanceOf(OutOfMemoryError.class).hasMessage("injected: no memory for the queue's node"));
        } finally {
            self.setUncaughtExceptionHandler(before);
            reactor.close();
        }
    }
}
