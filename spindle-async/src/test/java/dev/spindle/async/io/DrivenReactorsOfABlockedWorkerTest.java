/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.AsyncTask;
import dev.spindle.async.JoinHandle;
import dev.spindle.async.Poll;
import java.net.Socket;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A runtime with as many driven reactors as workers, one worker held by a long poll (here one
 * that blocks): the other worker, asleep in one driver's {@code select}, must still serve the
 * driver nobody waits in, its sockets and (in slot 0) the timers, rather than leave them to the
 * busy worker's next pick, which a long poll puts off for as long as it runs.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class DrivenReactorsOfABlockedWorkerTest {

    /** A task that says it runs, then blocks its worker until {@code release}. */
    private static AsyncTask<Void> blocking(CountDownLatch running, CountDownLatch release) {
        return cx -> {
            running.countDown();
            await(release);
            return Poll.ready(null);
        };
    }

    private static void await(CountDownLatch latch) {
        try {
            // a hang guard, released by the test: longer than the test's own waits, or their
            // failure would be hidden by this worker coming back to drive its reactor
            latch.await(150, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The accept on the reactor that the blocked worker would have driven never completed (the
     * guard of 60 s its only end), with the other worker asleep in its own driver.
     */
    @Test
    void anAcceptOnEitherReactorCompletesWhileTheOtherWorkerIsBlocked() throws Exception {
        try (ReactorGroup group = ReactorGroup.openDriven(2);
                AsyncRuntime runtime = AsyncRuntime.builder().workers(2).driveIo(group.reactors()).build()) {
            CountDownLatch running = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            runtime.spawn(blocking(running, release));
            try {
                assertThat(running.await(60, TimeUnit.SECONDS)).isTrue();
                for (Reactor reactor : group.reactors()) {
                    try (AsyncTcpListener listener = AsyncTcpListener.bind(null, reactor);
                            Socket client = new Socket()) {
                        JoinHandle<AsyncTcpStream> accept = runtime.spawn(listener.accept());
                        // the accept's interest applied (by whichever worker last looked at this
                        // reactor) before the peer connects: its readiness is the reactor's to see
                        for (int i = 0; i < 10_000 && reactor.registeredChannels() == 0; i++) {
                            Thread.sleep(1);   // bounded; not applied by then, the test goes on
                        }
                        client.connect(listener.localAddress(), 10_000);
                        accept.get(60, TimeUnit.SECONDS).close();
                    }
                }
            } finally {
                release.countDown();
            }
        }
    }
}
