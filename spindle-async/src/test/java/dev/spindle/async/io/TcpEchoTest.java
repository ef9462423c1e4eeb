/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.async.Async;
import dev.spindle.async.AsyncTask;
import dev.spindle.async.TestExecutor;
import java.io.ByteArrayOutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class TcpEchoTest {

    /** Echoes what it reads until end of stream, then closes. Small buffer: many would-blocks. */
    static AsyncTask<Long> echo(AsyncTcpStream s) {
        ByteBuffer buf = ByteBuffer.allocate(512);
        return Async.loop(0L, (Long total) -> Async.then(s.read(buf), (Integer n) -> {
            if (n < 0) {
                s.close();
                return Async.ready(Async.Step.<Long, Long>done(total));
            }
            buf.flip();
            return Async.map(s.writeAll(buf), x -> {
                buf.clear();
                return Async.Step.<Long, Long>next(total + n);
            });
        }));
    }

    /** Accepts {@code n} connections, runs an echo task per connection on {@code ex}. */
    static AsyncTask<Void> server(AsyncTcpListener listener, int n, TestExecutor ex) {
        CompletableFuture<Void> allClosed = new CompletableFuture<>();
        AtomicInteger finished = new AtomicInteger();
        AsyncTask<Void> acceptAll = Async.loop(0, (Integer i) -> i == n
                ? Async.ready(Async.Step.<Integer, Void>done(null))
                : Async.map(listener.accept(), stream -> {
                    ex.spawn(Async.map(echo(stream), bytes -> {
                        if (finished.incrementAndGet() == n) {
                            allClosed.complete(null);
                        }
                        return null;
                    }));
                    return Async.Step.<Integer, Void>next(i + 1);
                }));
        return Async.then(acceptAll, x -> Async.from(allClosed));
    }

    /** Sends {@code payload}, half-closes, reads everything back until the server closes. */
    static AsyncTask<byte[]> client(InetSocketAddress addr, byte[] payload) {
        return Async.then(AsyncTcpStream.connect(addr), s -> {
            AsyncTask<Void> writer = Async.map(s.writeAll(ByteBuffer.wrap(payload)), x -> {
                s.shutdownOutput();
                return null;
            });
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            ByteBuffer buf = ByteBuffer.allocate(700);
            AsyncTask<byte[]> reader = Async.loop(got, (ByteArrayOutputStream acc) ->
                    Async.map(s.read(buf), (Integer n) -> {
                        if (n < 0) {
                            s.close();
                            return Async.Step.<ByteArrayOutputStream, byte[]>done(acc.toByteArray());
                        }
                        acc.write(buf.array(), 0, n);
                        buf.clear();
                        return Async.Step.<ByteArrayOutputStream, byte[]>next(acc);
                    }));
            return Async.map(Async.all(List.<AsyncTask<?>>of(writer, reader)), r -> (byte[]) r.get(1));
        });
    }

    @Test
    void echoServerWithManyConcurrentConnectionsEchoesExactBytes() throws Exception {
        int threads = 4;
        int perThread = 75; // 300 connections, all open at once
        int connections = threads * perThread;
        try (AsyncTcpListener listener = AsyncTcpListener.bind(new InetSocketAddress("127.0.0.1", 0))) {
            InetSocketAddress addr = listener.localAddress();
            TestExecutor serverEx = new TestExecutor();
            ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
            Thread serverThread = new Thread(() -> {
                try {
                    serverEx.blockOn(server(listener, connections, serverEx));
                } catch (Throwable t) {
                    errors.add(t);
                }
            });
            serverThread.start();
            AtomicInteger verified = new AtomicInteger();
            List<Thread> clients = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int base = t * perThread;
                clients.add(new Thread(() -> {
                    List<byte[]> payloads = new ArrayList<>();
                    List<AsyncTask<byte[]>> tasks = new ArrayList<>();
                    for (int c = 0; c < perThread; c++) {
                        Random rnd = new Random(base + c);
                        byte[] p = new byte[1 + rnd.nextInt(64 * 1024)];
                        rnd.nextBytes(p);
                        payloads.add(p);
                        tasks.add(client(addr, p));
                    }
                    try {
                        // a small budget: reads and writes also take the yield path
                        List<byte[]> echoed = new TestExecutor(16, 20_000).blockOn(Async.all(tasks));
                        for (int c = 0; c < perThread; c++) {
                            assertThat(echoed.get(c)).isEqualTo(payloads.get(c));
                            verified.incrementAndGet();
                        }
                    } catch (Throwable e) {
                        errors.add(e);
                    }
                }));
            }
            clients.forEach(Thread::start);
            for (Thread c : clients) {
                c.join(25_000);
                assertThat(c.isAlive()).isFalse();
            }
            serverThread.join(25_000);
            assertThat(serverThread.isAlive()).isFalse();
            assertThat(errors).isEmpty();
            assertThat(serverEx.failures).isEmpty();
            assertThat(verified.get()).isEqualTo(connections);
        }
    }

    @Test
    void closingAStreamWakesAPendingReadWhichThenFails() throws Exception {
        try (Reactor reactor = Reactor.open();
                AsyncTcpListener listener = AsyncTcpListener.bind(new InetSocketAddress("127.0.0.1", 0), reactor)) {
            TestExecutor ex = new TestExecutor();
            AsyncTask<Void> t = Async.then(
                    Async.all(List.of(listener.accept(), AsyncTcpStream.connect(listener.localAddress(), reactor))),
                    pair -> {
                        AsyncTcpStream accepted = pair.get(0);
                        AsyncTask<Integer> read = accepted.read(ByteBuffer.allocate(16));
                        // close from another thread while the read waits
                        new Thread(() -> {
                            try {
                                Thread.sleep(30);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                            accepted.close();
                        }).start();
                        return Async.map(read, n -> {
                            pair.get(1).close();
                            return null;
                        });
                    });
            assertThatThrownBy(() -> ex.blockOn(t)).isInstanceOf(UncheckedIOException.class);
        }
    }

    @Test
    void connectToAClosedPortFails() throws Exception {
        InetSocketAddress addr;
        try (AsyncTcpListener l = AsyncTcpListener.bind(new InetSocketAddress("127.0.0.1", 0))) {
            addr = l.localAddress();
        }
        assertThatThrownBy(() -> TestExecutor.run(AsyncTcpStream.connect(addr)))
                .isInstanceOf(UncheckedIOException.class);
    }
}
