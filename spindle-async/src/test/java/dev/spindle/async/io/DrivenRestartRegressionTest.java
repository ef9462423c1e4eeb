/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.JoinHandle;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A server restarted in-process: the driven reactor group (and the listener bound to it) outlives
 * the runtime whose workers drive it, and a new runtime takes over the driving. Closing the first
 * runtime must give its claim on the reactors back, or the group can never be driven again.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DrivenRestartRegressionTest {

    @Test
    void aNewRuntimeDrivesTheReactorsOfAClosedOne() throws Exception {
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try (ReactorGroup driven = ReactorGroup.openDriven(1);
                AsyncTcpListener listener = AsyncTcpListener.bind(loopback, driven)) {
            for (int generation = 0; generation < 3; generation++) {
                try (AsyncRuntime runtime = AsyncRuntime.builder().workers(2)
                        .driveIo(driven.reactors()).build()) {
                    JoinHandle<Long> served = runtime.spawn(
                            dev.spindle.async.Async.then(listener.accept(), TcpEchoTest::echo));
                    byte[] msg = {1, 2, 3, (byte) generation};
                    try (Socket s = new Socket(listener.localAddress().getAddress(),
                            listener.localAddress().getPort())) {
                        s.setSoTimeout(20_000);
                        s.getOutputStream().write(msg);
                        s.shutdownOutput();
                        InputStream in = s.getInputStream();
                        assertThat(in.readAllBytes()).as("generation %d", generation).isEqualTo(msg);
                    }
                    assertThat(served.get(30, TimeUnit.SECONDS)).isEqualTo((long) msg.length);
                }
            }
        }
    }
}
