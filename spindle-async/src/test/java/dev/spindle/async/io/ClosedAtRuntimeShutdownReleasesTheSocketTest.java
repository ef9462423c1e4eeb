/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.AsyncTask;
import dev.spindle.async.Cancellable;
import dev.spindle.async.Context;
import dev.spindle.async.Poll;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A socket of a driven reactor closed while its runtime shuts down, after its workers stopped
 * selecting and before the runtime gives the reactor back (the tasks left at shutdown are
 * cancelled then, and a task's cancel may close what it holds: a connect closes its socket, a
 * server task its listener), is let go of when the runtime gives the reactor back: nobody would
 * select it again until a new runtime drives the group or the group is closed.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClosedAtRuntimeShutdownReleasesTheSocketTest {

    /**
     * The listener's close found the reactor still claimed and left its key to the driver's next
     * select, which never came: the port stayed bound, and listening, after the runtime's close
     * returned, and binding it again to restart the server threw "Address already in use".
     */
    @Test
    void aListenerClosedByATaskCancelledAtShutdownFreesItsPort() throws Exception {
        try (ReactorGroup driven = ReactorGroup.openDriven(1)) {
            Reactor reactor = driven.reactors().get(0);
            AsyncTcpListener listener = AsyncTcpListener.bind(null, driven);
            InetSocketAddress address = listener.localAddress();
            AtomicBoolean cancelled = new AtomicBoolean();
            try (AsyncRuntime runtime = AsyncRuntime.builder().workers(1).driveIo(driven.reactors()).build()) {
                runtime.spawn(new Server(listener, cancelled));
                awaitRegistered(reactor, 1);   // the accept's interest reached the selector
            }
            assertThat(cancelled).as("the server task was cancelled at shutdown").isTrue();
            assertThat(listener.isOpen()).as("its cancel closed the listener").isFalse();
            try (ServerSocketChannel again = ServerSocketChannel.open()) {
                again.bind(address);           // threw BindException: Address already in use
            }
        }
    }

    /** A task that accepts on a listener it owns, and closes it when cancelled. */
    private static final class Server implements AsyncTask<Void>, Cancellable {
        private final AsyncTcpListener listener;
        private final AtomicBoolean cancelled;
        private final AsyncTask<AsyncTcpStream> accept;

        Server(AsyncTcpListener listener, AtomicBoolean cancelled) {
            this.listener = listener;
            this.cancelled = cancelled;
            this.accept = listener.accept();
        }

        @Override
        public Poll<Void> poll(Context cx) {
            Poll<AsyncTcpStream> p = accept.poll(cx);
            if (p.isReady()) {
                p.value().close();             // nobody connects in this test
            }
            return Poll.pending();
        }

        @Override
        public void cancel() {
            cancelled.set(true);
            listener.close();
        }
    }

    private static void awaitRegistered(Reactor reactor, int channels) throws InterruptedException {
        while (reactor.registeredChannels() < channels) {
            Thread.sleep(1);                   // bounded by the class's timeout
        }
    }
}
