/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.async.AsyncTask;
import dev.spindle.async.Context;
import dev.spindle.async.Poll;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.SelectionKey;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A connect task polled again after the handshake but before the selector reported it (a poll
 * without a wake-up, which the {@code AsyncTask} contract allows: a wake meant for an earlier step
 * of the same task, a timeout's last look) handed out its stream with {@code OP_CONNECT} still
 * armed. Only the selector's report of readiness dropped it, and the JDK never reports
 * {@code OP_CONNECT} on a connected socket while epoll finds it always ready, so every
 * {@code select} returned at once for as long as the stream stayed open: the reactor's thread,
 * or the worker driving it, spun at full CPU. Found by review (session 39).
 */
class ConnectInterestRegressionTest {

    /**
     * Polls a connect once (it waits for {@code OP_CONNECT}), lets the server accept, and polls
     * it again before any selector turn: the stream it hands out must not keep that interest.
     */
    private static AsyncTcpStream connectPolledAgainBeforeReadiness(Reactor r, ServerSocket server,
            Socket[] accepted) throws Exception {
        AsyncTask<AsyncTcpStream> connect = AsyncTcpStream.connect(server.getLocalSocketAddress(), r);
        Context cx = ByHand.context(() -> { });  // the test polls by hand
        assertThat(connect.poll(cx).isReady()).as("the connect waits for the handshake").isFalse();
        accepted[0] = server.accept();                   // the handshake is done
        Poll<AsyncTcpStream> p = connect.poll(cx);       // polled again, not woken
        assertThat(p.isReady()).isTrue();
        return p.value();
    }

    @Test
    void aConnectMadeBeforeTheSelectorSawItLeavesNoConnectInterest() throws Exception {
        Socket[] accepted = new Socket[1];
        // driven, and not driven here: no selector turn can report the connect (and drop the
        // interest) between the two polls, as a reactor's own thread may
        try (ReactorGroup group = ReactorGroup.openDriven(1);
                ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Reactor r = group.reactors().get(0);
            try (AsyncTcpStream stream = connectPolledAgainBeforeReadiness(r, server, accepted)) {
                assertThat(stream.armedInterest() & SelectionKey.OP_CONNECT)
                        .as("OP_CONNECT left armed on a connected stream").isZero();
            } finally {
                accepted[0].close();
            }
        }
    }

    @Test
    void aDrivenReactorBlocksInSelectOnceTheConnectIsHandedOut() throws Exception {
        Socket[] accepted = new Socket[1];
        try (ReactorGroup group = ReactorGroup.openDriven(1);
                ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Reactor r = group.reactors().get(0);
            try (AsyncTcpStream stream = connectPolledAgainBeforeReadiness(r, server, accepted)) {
                r.select(0);                             // applies the queued interest changes
                r.dispatch();
                // Nothing is ready on the connected, silent stream: a select without a timeout
                // must wait until the other thread's wake-up, which it sends only after marking
                // that it did. With OP_CONNECT left armed, the select returned at once, unmarked.
                AtomicBoolean wakeupSent = new AtomicBoolean();
                CountDownLatch selecting = new CountDownLatch(1);
                Thread waker = new Thread(() -> {
                    try {
                        selecting.await();
                        Thread.sleep(200);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    wakeupSent.set(true);
                    r.wakeup();
                }, "connect-interest-waker");
                waker.start();
                selecting.countDown();
                r.select(-1);
                boolean returnedForTheWakeup = wakeupSent.get();
                waker.join(TimeUnit.SECONDS.toMillis(10));
                r.dispatch();
                assertThat(returnedForTheWakeup)
                        .as("select returned before the wake-up with nothing ready (OP_CONNECT still armed)")
                        .isTrue();
            } finally {
                accepted[0].close();
            }
        }
    }
}
