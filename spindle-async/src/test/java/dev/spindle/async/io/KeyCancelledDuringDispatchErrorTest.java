/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.async.Waker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.SelectionKey;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A dispatch whose key was cancelled meanwhile (its channel closed by another thread) takes what
 * is left of the registration's wakers ({@code takeAll}) to wake them with those it had taken. A
 * failure there (no memory for that list) was outside the key's failure handling: on a driven
 * reactor it went out of {@code dispatch} with the wakers already taken, which nobody woke, so a
 * read waiting on a stream closed as its bytes came in waited for good; on a reactor with a
 * selector thread it ended the thread and closed the reactor. It is now handled as any failure of
 * a ready key ({@code failedKey}): reported, the taken wakers woken, and the dispatch goes on.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class KeyCancelledDuringDispatchErrorTest {

    /**
     * The registration's read wakers, whose first copy fails: takeAll's (takeReady hands one
     * waker over without copying the list).
     */
    static final class FailingFirstCopy extends ArrayList<Waker> {
        final AtomicInteger copies = new AtomicInteger();

        @Override
        public Object[] toArray() {
            if (copies.incrementAndGet() == 1) {
                throw new OutOfMemoryError("injected: no memory for the wakers left");
            }
            return super.toArray();
        }
    }

    @Test
    void aFailureTakingTheRestOfACancelledKeysWakersStillWakesThoseTaken() throws Exception {
        Reactor reactor = Reactor.openDriven();
        reactor.claim();
        Pipe pipe = Pipe.open();
        try (Pipe.SourceChannel source = pipe.source(); Pipe.SinkChannel sink = pipe.sink()) {
            source.configureBlocking(false);
            Reactor.Registration reg = reactor.register(source);
            Field readWakers = Reactor.Registration.class.getDeclaredField("readWakers");
            readWakers.setAccessible(true);
            readWakers.set(reg, new FailingFirstCopy());
            // Stands in for a stream's read-ahead: it reads what came in, and at that moment
            // another thread closes the stream, whose channel's close cancels the key.
            reg.setReadAhead(() -> {
                try {
                    source.read(ByteBuffer.allocate(16));
                    source.close();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                return Reactor.ReadAhead.Fill.MORE;
            });
            AtomicInteger woken = new AtomicInteger();
            reactor.await(reg, SelectionKey.OP_READ, woken::incrementAndGet);   // a read waiting for bytes
            assertThat(reactor.select(0)).as("nothing to read yet").isZero();    // registers the key
            sink.write(ByteBuffer.wrap(new byte[] {42}));

            List<Throwable> reported = new CopyOnWriteArrayList<>();
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            AtomicInteger selected = new AtomicInteger(-2);
            Thread driver = new Thread(() -> {
                selected.set(reactor.select(TimeUnit.SECONDS.toNanos(10)));
                try {
                    reactor.dispatch();
                } catch (Throwable e) {
                    thrown.set(e);
                }
            }, "drives-reactor");
            driver.setUncaughtExceptionHandler((t, e) -> reported.add(e));
            driver.start();
            driver.join(TimeUnit.SECONDS.toMillis(20));

            assertThat(selected.get()).as("the byte made the key ready").isEqualTo(1);
            assertThat(woken.get()).as("the read taken by the dispatch was woken").isEqualTo(1);
            assertThat(thrown.get()).as("the dispatch returned").isNull();
            assertThat(reported).singleElement().satisfies(e -> assertThat(e)
                    .isInstanceOf(OutOfMemoryError.class).hasMessage("injected: no memory for the wakers left"));
            assertThat(reactor.isClosed()).isFalse();
        } finally {
            reactor.close();
        }
    }
}
