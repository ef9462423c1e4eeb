/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.async.Async;
import dev.spindle.async.AsyncPolicy;
import dev.spindle.async.AsyncRuntime;
import java.io.DataInputStream;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * As many driven reactors as workers, more workers than this machine has cores, and clients that
 * go quiet and then end their side of the connection. Each connection must see the server close
 * it: its end of stream reaches the server only through its own reactor, so a reactor that no idle
 * worker drives (every worker parked, one slot free) leaves its connections open. The echo
 * benchmark once reported four of 64 connections, one reactor's share with 16 reactors, left
 * open for 10 s on a 2-core machine; this is that shape, repeated.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DrivenReactorsEndOfStreamTest {

    private static final int ROUNDS = 5;
    private static final int CLIENTS = 48;

    @ParameterizedTest(name = "{0}")
    @EnumSource(AsyncPolicy.class)
    void everyConnectionOfEveryReactorIsClosedAfterItsClientEndsIt(AsyncPolicy policy) throws Exception {
        int workers = 8;
        ExecutorService clients = Executors.newFixedThreadPool(16);
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try (ReactorGroup driven = ReactorGroup.openDriven(workers);
                AsyncRuntime runtime = AsyncRuntime.builder().workers(workers).policy(policy)
                        .driveIo(driven.reactors()).build();
                AsyncTcpListener listener = AsyncTcpListener.bind(loopback, driven)) {
            runtime.spawn(Async.whileTrue(() -> Async.map(listener.accept(), stream -> {
                runtime.spawn(TcpEchoTest.echo(stream));
                return true;
            })));
            for (int round = 0; round < ROUNDS; round++) {
                List<Future<String>> results = new ArrayList<>();
                for (int c = 0; c < CLIENTS; c++) {
                    int id = round * CLIENTS + c;
                    results.add(clients.submit(() -> endOneConnection(listener.localAddress(), id)));
                }
                List<String> failures = new ArrayList<>();
                for (Future<String> r : results) {
                    String f = r.get(60, TimeUnit.SECONDS);
                    if (f != null) {
                        failures.add(f);
                    }
                }
                assertThat(failures).as("round %d", round).isEmpty();
                Thread.sleep(round * 50L);     // let every worker park (and take a reactor) between rounds
            }
        } finally {
            clients.shutdownNow();
        }
    }

    /** Echoes a few messages with pauses, ends its side, and waits for the server's end; null if all went well. */
    private static String endOneConnection(InetSocketAddress server, int id) throws Exception {
        try (Socket s = new Socket(server.getAddress(), server.getPort())) {
            s.setSoTimeout(20_000);
            InputStream in = s.getInputStream();
            byte[] msg = new byte[64];
            for (int m = 0; m < 3; m++) {
                msg[0] = (byte) m;
                s.getOutputStream().write(msg);
                new DataInputStream(in).readFully(new byte[msg.length]);
                Thread.sleep(id % 7);           // quiet spells: workers park and drive the reactors
            }
            s.shutdownOutput();
            try {
                int b = in.read();
                return b == -1 ? null : "connection " + id + ": a byte after the end of its stream";
            } catch (java.net.SocketTimeoutException e) {
                return "connection " + id + ": the server did not close it within 20 s";
            }
        }
    }
}
