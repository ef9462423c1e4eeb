/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.spindle.async.Waker;
import dev.spindle.testkit.Await;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.SelectionKey;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A waker whose {@link Waker#expired()} throws (a caller's own waker, polling a task by hand, that
 * breaks the "never throws" rule) broke the channel for every other task. The registration adds a
 * waker to its list before it drops the expired ones, and that drop asked every waker on the
 * list: the exception went out of the add of whichever task came when the list had grown to
 * {@link Reactor.Registration#PRUNE_MIN}, with the interest not armed and the next drop point not
 * moved, so every later read of the channel threw the bad waker's exception, and with nothing
 * armed no readiness ever came to clear the list. As a waker that throws from {@code wake()} is,
 * it is reported to the thread's uncaught-exception handler, kept (it may still matter), and the
 * others go on.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ThrowingExpiredWakerOnAChannelTest {

    @Test
    void aWakerWhoseExpiredThrowsDoesNotBreakTheOtherTasksOfItsChannel() throws Exception {
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        Thread self = Thread.currentThread();
        Thread.UncaughtExceptionHandler before = self.getUncaughtExceptionHandler();
        self.setUncaughtExceptionHandler((t, e) -> reported.add(e));
        try (Reactor reactor = Reactor.open()) {
            Pipe pipe = Pipe.open();
            try (Pipe.SourceChannel source = pipe.source(); Pipe.SinkChannel sink = pipe.sink()) {
                source.configureBlocking(false);
                Reactor.Registration reg = reactor.register(source);
                AtomicInteger badWakes = new AtomicInteger();
                Waker bad = new Waker() {
                    @Override
                    public void wake() {
                        badWakes.incrementAndGet();
                    }

                    @Override
                    public boolean expired() {
                        throw new IllegalStateException("expired() failed (injected)");
                    }
                };
                reactor.await(reg, SelectionKey.OP_READ, bad);
                int others = 2 * Reactor.Registration.PRUNE_MIN;
                AtomicInteger woken = new AtomicInteger();
                for (int i = 0; i < others; i++) {
                    int task = i;
                    assertThatCode(() -> reactor.await(reg, SelectionKey.OP_READ, woken::incrementAndGet))
                            .as("task %d waits for the channel", task)
                            .doesNotThrowAnyException();
                }

                sink.write(ByteBuffer.wrap(new byte[] {1}));
                Await.until("every task woken by the byte", () -> woken.get() == others);
                assertThat(badWakes.get()).as("the bad waker is kept, and woken too").isEqualTo(1);
                assertThat(reported).as("its exception reported").isNotEmpty()
                        .allSatisfy(e -> assertThat(e).hasMessage("expired() failed (injected)"));
            }
        } finally {
            self.setUncaughtExceptionHandler(before);
        }
    }
}
