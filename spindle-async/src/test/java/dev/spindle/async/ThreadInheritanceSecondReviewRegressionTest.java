/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.async.io.AsyncTcpListener;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URL;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The JVM-wide timer and reactor threads run the wakers a caller hands them, which are user code
 * when the caller polls a task itself (its own executor, a bridge to another event loop). That
 * code may use the thread's context class loader, as code on the common pool's workers does (a
 * resource, a {@code ServiceLoader}): those threads must have one, the system class loader as the
 * common pool's have, and not null, on which {@code getContextClassLoader().getResource(...)}
 * throws a {@link NullPointerException}. Before these threads stopped taking their creator's
 * loader, they had one (the creator's).
 */
class ThreadInheritanceSecondReviewRegressionTest {

    /** A resource the system class loader finds: this class's own class file. */
    private static final String RESOURCE =
            ThreadInheritanceSecondReviewRegressionTest.class.getName().replace('.', '/') + ".class";

    /** A context of a caller that polls a task itself, with a waker that loads a resource through the TCCL. */
    private static Context userContext(CompletableFuture<String> seen) {
        return new Context() {
            @Override
            public Waker waker() {
                return () -> {
                    try {
                        URL url = Thread.currentThread().getContextClassLoader().getResource(RESOURCE);
                        seen.complete(Thread.currentThread().getName() + " found " + (url != null));
                    } catch (Throwable t) {
                        seen.complete(Thread.currentThread().getName() + " threw " + t);
                    }
                };
            }

            @Override
            public boolean consumeBudget() {
                return true;
            }
        };
    }

    @Test
    void aUsersWakerOnTheSharedTimerThreadHasAContextClassLoader() throws Exception {
        CompletableFuture<String> seen = new CompletableFuture<>();
        Poll<Void> first = Async.sleep(Duration.ofMillis(50)).poll(userContext(seen));
        assertThat(first.isPending()).as("a sleep of 50 ms, polled at once").isTrue();
        assertThat(seen.get(30, TimeUnit.SECONDS)).isEqualTo("spindle-async-timer found true");
    }

    @Test
    void aUsersWakerOnTheSharedReactorThreadHasAContextClassLoader() throws Exception {
        CompletableFuture<String> seen = new CompletableFuture<>();
        try (AsyncTcpListener listener = AsyncTcpListener.bind(null)) {
            Poll<?> first = listener.accept().poll(userContext(seen));
            assertThat(first.isPending()).as("an accept with no connection yet").isTrue();
            InetSocketAddress at = listener.localAddress();
            try (Socket client = new Socket(at.getAddress(), at.getPort())) {
                assertThat(seen.get(30, TimeUnit.SECONDS)).startsWith("spindle-async-reactor").endsWith(" found true");
            }
        }
    }
}
