/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.spindle.async.Async;
import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.AsyncTask;
import dev.spindle.async.Context;
import dev.spindle.async.JoinHandle;
import dev.spindle.async.Poll;
import dev.spindle.async.Waker;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntSupplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Wake-ups that reach a runtime while one of its workers waits inside a driven reactor's
 * {@code select} ({@code AsyncRuntime.Builder.driveIo}): from another thread (a waker called by
 * a plain thread, which makes the idle protocol unpark the worker inside {@code select}: only
 * {@code selector.wakeup()} gets it out) and from I/O (bytes arriving on a connection the
 * driver's selector watches). Every round waits until the previous wake-up has been consumed, and
 * every other round until every worker is parked, so the wake-up finds the driver inside
 * {@code select}; the odd rounds race with it on its way in or out. Each wake-up must be
 * delivered exactly once: the waker's task is polled exactly once per wake-up, and every byte is
 * read once and in order. A lost wake-up hangs a round, which the time limit turns into a
 * failure.
 */
class DrivenWakeStressTest {

    private static final int ROUNDS = 3000;

    /** Pending until it has seen {@code rounds} signals; counts its polls. */
    static final class SignalCounter implements AsyncTask<Long> {
        final AtomicLong signals = new AtomicLong();
        final AtomicReference<Waker> waker = new AtomicReference<>();
        final int rounds;
        volatile long seen = -1;       // -1 until the first poll has published the waker
        long polls;                    // the task's own: polls never overlap

        SignalCounter(int rounds) {
            this.rounds = rounds;
        }

        @Override
        public Poll<Long> poll(Context cx) {
            polls++;
            waker.set(cx.waker());
            long s = signals.get();
            seen = s;                  // after the waker is published: the sender may go on
            return s >= rounds ? Poll.ready(polls) : Poll.pending();
        }

        /** Called by the sending thread once the previous signal has been seen. */
        void signal() {
            signals.incrementAndGet();
            waker.get().wake();
        }
    }

    @ParameterizedTest(name = "workers: {0}")
    @ValueSource(ints = {1, 2, 3})
    void everyWakeDuringSelectIsDeliveredExactlyOnce(int workers) throws Exception {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            try (ReactorGroup reactors = ReactorGroup.openDriven(1);
                    AsyncRuntime rt = AsyncRuntime.builder().workers(workers).name("driven-stress")
                            .driveIo(reactors.reactors()).build();
                    AsyncTcpListener listener = AsyncTcpListener.bind(
                            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), reactors)) {
                IntSupplier parked = () -> rt.stats().parkedWorkers();

                SignalCounter counter = new SignalCounter(ROUNDS);
                JoinHandle<Long> counted = rt.spawn(counter);

                AtomicInteger bytesRead = new AtomicInteger();
                AtomicInteger outOfOrder = new AtomicInteger();
                JoinHandle<Integer> reader = rt.spawn(Async.then(listener.accept(),
                        stream -> readRounds(stream, bytesRead, outOfOrder)));

                Thread waker = new Thread(() -> {
                    for (int r = 1; r <= ROUNDS; r++) {
                        awaitValue(() -> (int) counter.seen, r - 1);
                        if (r % 2 == 0) {
                            awaitValue(parked, workers);
                        }
                        counter.signal();
                    }
                }, "stress-waker");
                Thread writer = new Thread(() -> {
                    try (Socket s = new Socket(listener.localAddress().getAddress(), listener.localAddress().getPort())) {
                        s.setTcpNoDelay(true);
                        OutputStream out = s.getOutputStream();
                        for (int r = 1; r <= ROUNDS; r++) {
                            awaitValue(bytesRead::get, r - 1);
                            if (r % 2 == 0) {
                                awaitValue(parked, workers);
                            }
                            out.write(r);
                            out.flush();
                        }
                        awaitValue(bytesRead::get, ROUNDS);
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                }, "stress-writer");
                waker.start();
                writer.start();
                waker.join();
                writer.join();

                // one poll to start, then exactly one per wake-up
                assertThat(counted.get(30, TimeUnit.SECONDS)).isEqualTo(ROUNDS + 1L);
                assertThat(reader.get(30, TimeUnit.SECONDS)).isEqualTo(ROUNDS);
                assertThat(bytesRead.get()).isEqualTo(ROUNDS);
                assertThat(outOfOrder.get()).isZero();
            }
        });
    }

    /** Reads single bytes 1, 2, 3, ... (mod 256) until {@value #ROUNDS} have come. */
    private static AsyncTask<Integer> readRounds(AsyncTcpStream stream, AtomicInteger read, AtomicInteger outOfOrder) {
        ByteBuffer buf = ByteBuffer.allocate(16);
        return Async.loop(0, (Integer n) -> n >= ROUNDS
                ? Async.ready(Async.Step.<Integer, Integer>done(n))
                : Async.map(stream.read(buf), k -> {
                    if (k < 0) {
                        throw new IllegalStateException("end of stream after " + n + " bytes");
                    }
                    buf.flip();
                    int m = n;
                    while (buf.hasRemaining()) {
                        m++;
                        if (buf.get() != (byte) m) {
                            outOfOrder.incrementAndGet();
                        }
                    }
                    buf.clear();
                    read.set(m);
                    return Async.Step.<Integer, Integer>next(m);
                }));
    }

    /** Waits (the test's time limit bounds it) until {@code value} reaches {@code target}. */
    private static void awaitValue(IntSupplier value, int target) {
        while (value.getAsInt() < target) {
            Thread.onSpinWait();
            Thread.yield();
        }
    }
}
