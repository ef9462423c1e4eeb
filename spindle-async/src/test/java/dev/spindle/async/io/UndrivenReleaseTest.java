/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import dev.spindle.async.AsyncRuntime;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A driven reactor whose runtime is closed (a server restarted in-process keeps its group, as
 * {@code DrivenRestartRegressionTest} does) has nobody selecting: a listener closed then lets go
 * of its port in the close itself, not at a select that may never come.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UndrivenReleaseTest {

    /**
     * The JDK closes a channel registered with a selector only when a select drops its cancelled
     * key. With no runtime driving the group, the closed listener's port stayed bound, and kept
     * listening, until the group was closed: binding it again, to restart the server before
     * building its new runtime, failed with "Address already in use".
     */
    @Test
    void aListenerClosedAfterItsRuntimeFreesItsPort() throws Exception {
        try (ReactorGroup driven = ReactorGroup.openDriven(1)) {
            Reactor reactor = driven.reactors().get(0);
            AsyncTcpListener listener = AsyncTcpListener.bind(null, driven);
            InetSocketAddress address = listener.localAddress();
            try (AsyncRuntime runtime = AsyncRuntime.builder().workers(1).driveIo(driven.reactors()).build()) {
                runtime.spawn(listener.accept());
                awaitRegistered(reactor, 1);   // the accept's interest reached the selector
            }
            listener.close();
            try (ServerSocketChannel again = ServerSocketChannel.open()) {
                again.bind(address);           // threw BindException: Address already in use
            }
        }
    }

    private static void awaitRegistered(Reactor reactor, int channels) throws InterruptedException {
        while (reactor.registeredChannels() < channels) {
            Thread.sleep(1);                   // bounded by the class's timeout
        }
    }
}
