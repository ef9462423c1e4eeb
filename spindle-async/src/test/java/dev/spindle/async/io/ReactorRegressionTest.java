/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.async.TestExecutor;
import dev.spindle.testkit.ChildJvm;
import java.io.File;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Defects found in reviews of the reactor and the TCP streams: each test failed on the code
 * before its fix (docs/measurements/2026-11-29-s24/edge-regressions-before-after.txt and, for
 * the close racing the driver's changes, docs/measurements/2026-11-29-s26/io-console-review-before-after.txt).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ReactorRegressionTest {

    /** A non-blocking server channel bound to a free loopback port. */
    private static ServerSocketChannel listening() throws java.io.IOException {
        ServerSocketChannel channel = ServerSocketChannel.open();
        channel.bind(new InetSocketAddress("127.0.0.1", 0));
        channel.configureBlocking(false);
        return channel;
    }

    /**
     * Reactor.close() of a driven reactor promises to wake every waiting task, but wakes only
     * the tasks of channels already registered with the selector: a task whose interest change
     * is still queued (the driving worker has not selected since) is never woken.
     */
    @Test
    void closingADrivenReactorWakesATaskWhoseInterestIsStillQueued() throws Exception {
        Reactor reactor = Reactor.openDriven();
        reactor.claim();
        try (ServerSocketChannel channel = listening()) {
            Reactor.Registration reg = reactor.register(channel);
            AtomicInteger woken = new AtomicInteger();
            reactor.await(reg, SelectionKey.OP_ACCEPT, woken::incrementAndGet);
            reactor.close();
            assertThat(woken.get()).as("wake-ups of the task waiting to accept").isEqualTo(1);
        }
    }

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
        try (ServerSocketChannel channel = listening()) {
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

    /**
     * The selector thread allocates each stream's 16 KiB direct read-ahead buffer itself
     * (AsyncTcpStream.Inbound.fill, from Reactor.Registration.takeReady). When the JVM's direct
     * memory is exhausted (many connections, each of which sent a byte, hold 16 KiB each), the
     * OutOfMemoryError escapes Reactor.run(), which catches only IOException: the selector thread
     * dies and the reactor is closed for good, so every other connection and listener on it
     * fails, for the shared reactor the whole JVM's. Run in a child JVM with a small
     * -XX:MaxDirectMemorySize; it reports whether the reactor still accepts a connection once
     * memory is free again.
     */
    @Test
    void exhaustedDirectMemoryDoesNotKillTheReactor() throws Exception {
        String out = ChildJvm.run(Child.class, 25, "-Xmx64m", "-XX:MaxDirectMemorySize=2m");
        assertThat(out).as("child output").contains("REACTOR ALIVE");
    }

    /** The child JVM of {@link #exhaustedDirectMemoryDoesNotKillTheReactor}. */
    public static final class Child {
        public static void main(String[] args) throws Exception {
            Reactor reactor = Reactor.open();
            TestExecutor ex = new TestExecutor();
            ExecutorService clientThread = Executors.newSingleThreadExecutor();
            AsyncTcpListener listener = AsyncTcpListener.bind(new InetSocketAddress("127.0.0.1", 0), reactor);
            Socket client = new Socket();
            client.connect(listener.localAddress());
            OutputStream out = client.getOutputStream();
            AsyncTcpStream server = ex.blockOn(listener.accept());
            ByteBuffer dst = ByteBuffer.allocateDirect(16);
            // warm up both threads' temporary direct buffers while memory is free
            clientThread.submit(() -> {
                out.write(1);
                return null;
            }).get();
            System.out.println("first read: " + ex.blockOn(server.read(dst)));
            dst.clear();
            List<ByteBuffer> hog = new ArrayList<>();
            try {
                while (true) {
                    hog.add(ByteBuffer.allocateDirect(4096));
                }
            } catch (OutOfMemoryError full) {
                System.out.println("direct memory exhausted: " + full.getMessage());
            }
            // the next read waits (arming the read-ahead); the byte that arrives makes the
            // selector thread allocate the stream's buffer
            Future<?> sent = clientThread.submit(() -> {
                Thread.sleep(300);
                out.write(2);
                return null;
            });
            try {
                System.out.println("second read: " + ex.blockOn(server.read(dst)));
            } catch (Throwable t) {
                System.out.println("second read failed: " + t);
            }
            sent.get();
            hog.clear();
            System.gc();
            // memory is free again: does the reactor still serve a new listener?
            try (AsyncTcpListener second = AsyncTcpListener.bind(new InetSocketAddress("127.0.0.1", 0), reactor)) {
                clientThread.submit(() -> {
                    Thread.sleep(300);
                    new Socket().connect(second.localAddress());
                    return null;
                });
                AsyncTcpStream s = ex.blockOn(second.accept());
                System.out.println("REACTOR ALIVE: accepted " + s.remoteAddress());
            } catch (Throwable t) {
                System.out.println("reactor dead: " + t);
            }
            System.out.flush();
            Runtime.getRuntime().halt(0);
        }
    }
}
