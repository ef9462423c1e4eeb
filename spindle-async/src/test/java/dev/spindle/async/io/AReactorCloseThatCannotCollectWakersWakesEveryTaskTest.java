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
 * A reactor's close wakes every task waiting on it, registration by registration, each
 * registration's wakers collected into a list first. A collection that failed (no memory for the
 * list) went out of the close at the first registration: the tasks of that one and of every
 * registration after it (those with keys, and those whose interest change was still queued) were
 * never woken, on a reactor closed for good, and so waited for good. A driven reactor's
 * {@code close()} threw the error; a selector thread died of it before closing its selector, so
 * the epoll instance stayed open too. As a stream's close already did for its own tasks, the
 * wakers of a registration whose list cannot be made are now woken one at a time, which
 * allocates nothing, and the close goes on with the others.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AReactorCloseThatCannotCollectWakersWakesEveryTaskTest {

    @AfterEach
    void clearSeam() {
        Reactor.beforeTakeAll = null;
    }

    /** The first collection of wakers fails, as with a full heap; the others work. */
    private static AtomicBoolean failFirstCollection() {
        AtomicBoolean armed = new AtomicBoolean(true);
        Reactor.beforeTakeAll = () -> {
            if (armed.compareAndSet(true, false)) {
                throw new OutOfMemoryError("no memory for the wakers' list (thrown by the test)");
            }
        };
        return armed;
    }

    @Test
    void aDrivenReactorWakesTheTasksOfEveryRegistration() throws Exception {
        Reactor reactor = Reactor.openDriven();
        reactor.claim();
        Pipe a = Pipe.open();
        Pipe b = Pipe.open();
        Pipe c = Pipe.open();
        try {
            AtomicInteger woken = new AtomicInteger();
            for (Pipe p : new Pipe[] {a, b}) {
                p.source().configureBlocking(false);
                Reactor.Registration reg = reactor.register(p.source());
                reactor.await(reg, SelectionKey.OP_READ, woken::incrementAndGet);
                reactor.await(reg, SelectionKey.OP_READ, woken::incrementAndGet);
            }
            reactor.select(0);                 // applies both changes: the keys exist
            reactor.dispatch();
            assertThat(reactor.registeredChannels()).isEqualTo(2);
            c.source().configureBlocking(false);
            Reactor.Registration queued = reactor.register(c.source());
            reactor.await(queued, SelectionKey.OP_READ, woken::incrementAndGet);  // still queued
            assertThat(woken.get()).as("nothing to read yet").isZero();

            AtomicBoolean armed = failFirstCollection();
            Throwable thrown = catchThrowable(reactor::close);

            assertThat(armed).as("a collection failed").isFalse();
            assertThat(woken.get()).as("every waiting task woken (close threw %s)", thrown).isEqualTo(5);
            assertThat(thrown).as("the close, which did all it had to").isNull();
        } finally {
            Reactor.beforeTakeAll = null;
            reactor.close();
            for (Pipe p : new Pipe[] {a, b, c}) {
                p.source().close();
                p.sink().close();
            }
        }
    }

    @Test
    void aSelectorThreadWakesTheTasksOfEveryRegistrationAndClosesItsSelector() throws Exception {
        Reactor reactor = Reactor.open();
        Pipe a = Pipe.open();
        Pipe b = Pipe.open();
        try {
            AtomicInteger woken = new AtomicInteger();
            for (Pipe p : new Pipe[] {a, b}) {
                p.source().configureBlocking(false);
                Reactor.Registration reg = reactor.register(p.source());
                reactor.await(reg, SelectionKey.OP_READ, woken::incrementAndGet);
                reactor.await(reg, SelectionKey.OP_READ, woken::incrementAndGet);
            }
            // registered by the selector thread or still queued: the close wakes both kinds
            AtomicBoolean armed = failFirstCollection();
            Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
            Thread.setDefaultUncaughtExceptionHandler((t, e) -> { });   // what the dying thread reported
            try {
                reactor.close();               // returns once the selector thread has ended
            } finally {
                Thread.setDefaultUncaughtExceptionHandler(before);
            }

            assertThat(armed).as("a collection failed").isFalse();
            assertThat(woken.get()).as("every waiting task woken").isEqualTo(4);
            assertThat(reactor.registeredChannels()).as("the selector closed, its keys with it").isZero();
            assertThat(a.source().isRegistered() || b.source().isRegistered()).as("a channel still registered").isFalse();
        } finally {
            Reactor.beforeTakeAll = null;
            reactor.close();
            for (Pipe p : new Pipe[] {a, b}) {
                p.source().close();
                p.sink().close();
            }
        }
    }
}
