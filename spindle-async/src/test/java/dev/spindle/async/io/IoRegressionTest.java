/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Defects found in a review of the I/O layer: each test failed on the code before its fix
 * (docs/measurements/2026-11-29-s26/io-console-review-before-after.txt).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class IoRegressionTest {

    /**
     * A driven reactor's close() wakes the tasks of the keys it finds and of the changes still
     * queued. The driving worker applies queued changes after its select returns, without any
     * order with a close on another thread: a registration it has taken off the queue but not yet
     * registered is in neither place, and its register then fails on the closed selector
     * (ClosedSelectorException, which ends the select as "closed"), so its task was never woken.
     * The test holds the registration's lock so that the driver stops right there while the
     * reactor closes.
     */
    @Test
    void closingADrivenReactorWakesATaskWhoseChangeTheDriverIsApplying() throws Exception {
        Reactor reactor = Reactor.openDriven();
        reactor.claim();
        try (ServerSocketChannel channel = ServerSocketChannel.open()) {
            channel.bind(new InetSocketAddress("127.0.0.1", 0));
            channel.configureBlocking(false);
            Reactor.Registration reg = reactor.register(channel);
            CountDownLatch woken = new CountDownLatch(1);
            reactor.await(reg, SelectionKey.OP_ACCEPT, woken::countDown);
            AtomicInteger selected = new AtomicInteger(Integer.MIN_VALUE);
            Thread driver = new Thread(() -> selected.set(reactor.select(-1)), "driver");
            Thread closer = new Thread(() -> {
                try {
                    reactor.close();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, "closer");
            synchronized (reg) {
                driver.start();
                // the driver's select returns at once (the await's wake-up is sticky) and stops
                // in applyChanges, on this lock, with the registration taken off the queue
                while (driver.getState() != Thread.State.BLOCKED) {
                    Thread.onSpinWait();
                }
                closer.start();
                // before the fix the close ends at once; after it, it waits for the driver
                while (closer.isAlive() && closer.getState() != Thread.State.BLOCKED
                        && closer.getState() != Thread.State.WAITING) {
                    Thread.onSpinWait();
                }
            }
            driver.join();
            closer.join();
            assertThat(woken.await(5, TimeUnit.SECONDS)).as("the waiting task was woken").isTrue();
        }
    }
}
