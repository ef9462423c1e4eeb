/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.async.Async;
import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.JoinHandle;
import dev.spindle.async.AsyncPolicy;
import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import java.util.stream.Stream;

/**
 * An echo server on the real runtime: reactor wake-ups drive runtime tasks. (The README's own
 * handler is run the same way in spindle-examples.) Both ways of serving I/O: the shared
 * reactor group's selector threads ({@code reactors = 0}), and driven reactors whose selectors
 * the runtime's idle workers wait in ({@code AsyncRuntime.Builder.driveIo}).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EchoOnRuntimeTest {

    static Stream<Arguments> modes() {
        return Stream.of(AsyncPolicy.values()).flatMap(p -> Stream.of(
                Arguments.of(p, 0), Arguments.of(p, 1), Arguments.of(p, 2)));
    }

    @ParameterizedTest(name = "{0}, driven reactors: {1}")
    @MethodSource("modes")
    void anEchoServerEchoesEveryByteOfManyClients(AsyncPolicy policy, int drivenReactors) throws Exception {
        int clients = 64;
        ExecutorService pool = Executors.newFixedThreadPool(8);
        ReactorGroup driven = drivenReactors == 0 ? null : ReactorGroup.openDriven(drivenReactors);
        AsyncRuntime.Builder b = AsyncRuntime.builder().workers(2).policy(policy);
        if (driven != null) {
            b.driveIo(driven.reactors());
        }
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try (AsyncRuntime runtime = b.build();
                AsyncTcpListener listener = driven == null ? AsyncTcpListener.bind(loopback)
                        : AsyncTcpListener.bind(loopback, driven)) {
            JoinHandle<Void> acceptLoop = runtime.spawn(Async.whileTrue(() -> Async.map(listener.accept(), stream -> {
                runtime.spawn(TcpEchoTest.echo(stream));           // one task per connection
                return true;
            })));
            List<Future<Boolean>> results = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                int seed = c;
                results.add(pool.submit(() -> {
                    byte[] payload = new byte[1 + new Random(seed).nextInt(32 * 1024)];
                    new Random(seed).nextBytes(payload);
                    try (Socket s = new Socket(listener.localAddress().getAddress(), listener.localAddress().getPort())) {
                        OutputStream out = s.getOutputStream();
                        out.write(payload);
                        out.flush();
                        byte[] back = new byte[payload.length];
                        new DataInputStream(s.getInputStream()).readFully(back);
                        return java.util.Arrays.equals(payload, back);
                    }
                }));
            }
            for (Future<Boolean> r : results) {
                assertThat(r.get(30, TimeUnit.SECONDS)).isTrue();
            }
            assertThat(acceptLoop.isDone()).isFalse();                // still accepting
            runtime.close();
            assertThat(acceptLoop.isCancelled() || acceptLoop.isDone()).isTrue();
            try {
                acceptLoop.get(10, TimeUnit.SECONDS);
            } catch (CancellationException expected) {
                // the pending accept loop is cancelled by the shutdown: nothing hangs
            }
        } finally {
            pool.shutdownNow();
            if (driven != null) {
                driven.close();
            }
        }
    }
}
