/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.async.Async;
import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.AsyncTask;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A read or accept that timed out or was cancelled left its task's waker on the connection until
 * the connection became ready or closed. A task that gives up and a new task that tries again
 * (a request handler with a read timeout on an idle keep-alive connection, say) added one entry,
 * and kept one finished task reachable, per attempt, without bound
 * (docs/measurements/2026-11-29-s26/expired-waker-before-after.txt).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ExpiredWakerRegressionTest {

    /** Attempts that give up; before the fix each left an entry. */
    private static final int ATTEMPTS = 2_000;

    @Test
    void acceptsThatTimedOutDoNotStayOnTheListener() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build();
                AsyncTcpListener listener = AsyncTcpListener.bind(new InetSocketAddress("127.0.0.1", 0))) {
            for (int i = 0; i < ATTEMPTS; i++) {
                AsyncTask<AsyncTcpStream> attempt = Async.timeout(listener.accept(), Duration.ofMillis(1));
                assertThatThrownBy(() -> rt.spawn(attempt).get(10, TimeUnit.SECONDS))
                        .isInstanceOf(ExecutionException.class).hasRootCauseInstanceOf(TimeoutException.class);
            }
            assertThat(listener.registration().readWakerCount())
                    .as("wakers left on the listener by %d accepts that timed out", ATTEMPTS)
                    .isLessThanOrEqualTo(2 * Reactor.Registration.PRUNE_MIN);
            // the listener still accepts, and wakes the task that waits now
            var accepted = rt.spawn(listener.accept());
            try (Socket client = new Socket("127.0.0.1", listener.localAddress().getPort())) {
                try (AsyncTcpStream stream = accepted.get(10, TimeUnit.SECONDS)) {
                    assertThat(stream.isOpen()).isTrue();
                }
            }
        }
    }
}
