/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A close on a driven reactor that no runtime drives lets go of the closed socket itself, with a
 * {@code selectNow} ({@code releaseUndriven}). A runtime may claim the reactor while that close
 * holds it, and a worker of that runtime, about to sleep in the reactor's {@code select}, be
 * woken for a task meanwhile: the wake-up is sticky ({@link dev.spindle.async.IoDriver#wakeup}),
 * so the worker's {@code select} must return at once.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UndrivenReleaseKeepsAWakeUpTest {

    /**
     * The close's {@code selectNow} consumed the selector's wake-up, and the close then cleared
     * the flag that said one was on its way: the worker's {@code select} without a timeout (no
     * timer pending) slept until a socket of the reactor became ready, for good on a quiet
     * server, and the task it had been woken for waited with it (on a one-worker runtime, or
     * with every other worker asleep too).
     */
    @Test
    void aWakeUpSentWhileACloseReleasesTheSocketEndsTheDriversNextSelect() throws Exception {
        try (ReactorGroup driven = ReactorGroup.openDriven(1)) {
            Reactor reactor = driven.reactors().get(0);
            AsyncTcpListener listener = AsyncTcpListener.bind(null, driven);
            // what a runtime built on another thread does during the close's release: it claims
            // the reactor, and the idle coordinator wakes the worker that is about to select
            // (which waits for the close's lock)
            AtomicBoolean claimed = new AtomicBoolean();
            Reactor.beforeUndrivenSelect = () -> {
                reactor.claim();
                claimed.set(true);
                reactor.wakeup();
            };
            try {
                listener.close();
            } finally {
                Reactor.beforeUndrivenSelect = null;
            }
            assertThat(claimed).as("claimed during the close's release").isTrue();
            CompletableFuture<Integer> select = new CompletableFuture<>();
            Thread worker = new Thread(() -> select.complete(reactor.select(-1)), "driving-worker");
            worker.setDaemon(true);
            worker.start();
            try {
                // slept in select() for good: nothing of the reactor ever became ready
                assertThat(select).as("the driver's select, woken before it began")
                        .succeedsWithin(Duration.ofSeconds(20));
            } finally {
                reactor.unclaim();             // the group's close then ends a select still asleep
            }
        }
    }
}
