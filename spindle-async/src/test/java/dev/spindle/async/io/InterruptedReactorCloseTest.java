/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link Reactor#close()} called by a thread whose interrupt status is set (a server's shutdown
 * hook, a task's {@code finally} after an interrupt) waits for the selector thread like any
 * other close, and leaves the status set.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class InterruptedReactorCloseTest {

    /**
     * The close joined the selector thread with {@code Thread.join}, which threw at once for an
     * interrupted caller: close() returned with the selector thread still running and the
     * selector still open. Here the selector thread is held in a waker until the closing thread
     * waits, so that the close cannot find it finished by luck.
     */
    @Test
    void anInterruptedCloseStillWaitsForTheSelectorThreadAndKeepsTheInterrupt() throws Exception {
        Reactor reactor = Reactor.open();
        CountDownLatch inWaker = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<Thread> selectorThread = new AtomicReference<>();
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            server.configureBlocking(false);
            Reactor.Registration reg = reactor.register(server);
            reactor.await(reg, SelectionKey.OP_ACCEPT, () -> {
                selectorThread.set(Thread.currentThread());
                inWaker.countDown();
                try {
                    release.await(20, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            try (Socket client = new Socket(InetAddress.getLoopbackAddress(), server.socket().getLocalPort())) {
                inWaker.await();               // the selector thread is in the waker
                Thread closer = Thread.currentThread();
                Thread releaser = new Thread(() -> {
                    // lets the waker return once the close waits for the selector thread
                    while (release.getCount() > 0 && closer.getState() != Thread.State.TIMED_WAITING) {
                        Thread.onSpinWait();
                    }
                    release.countDown();
                }, "releases-the-waker");
                releaser.setDaemon(true);
                releaser.start();
                boolean interruptedAfter;
                boolean aliveAfter;
                try {
                    closer.interrupt();
                    reactor.close();
                    aliveAfter = selectorThread.get().isAlive();
                } finally {
                    interruptedAfter = Thread.interrupted();
                    release.countDown();
                }
                assertThat(aliveAfter).as("the selector thread runs on after close() returned").isFalse();
                assertThat(interruptedAfter).as("the caller's interrupt status is kept").isTrue();
                assertThat(reactor.registeredChannels()).as("the selector is closed").isZero();
            }
        }
    }
}
