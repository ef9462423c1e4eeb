/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.testkit.Gc;
import dev.spindle.testkit.RequestThread;
import dev.spindle.testkit.RequestThread.Seen;
import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.SelectionKey;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The JVM-wide reactors ({@link Reactor#shared()}, {@link ReactorGroup#shared()}) are started by
 * whichever thread first does I/O; their selector threads live as long as the JVM and fire every
 * later task's wakers. They must keep nothing of that first thread: neither its context class
 * loader (a web application's, pinned for good), nor its {@link InheritableThreadLocal} values,
 * nor a lowered priority.
 */
class ThreadInheritanceRegressionTest {

    @Test
    void jvmWideReactorThreadKeepsNothingOfTheThreadThatStartedIt() throws Exception {
        AtomicReference<Reactor> made = new AtomicReference<>();
        WeakReference<ClassLoader> loader = RequestThread.run(
                () -> made.set(Reactor.openJvmWide("inherit-test-reactor")));   // as shared() makes them
        Reactor reactor = made.get();
        Pipe pipe = Pipe.open();
        try {
            pipe.source().configureBlocking(false);
            CompletableFuture<Seen> later = new CompletableFuture<>();
            reactor.await(reactor.register(pipe.source()), SelectionKey.OP_READ, () -> later.complete(Seen.here()));
            pipe.sink().write(ByteBuffer.wrap(new byte[] {1}));
            assertThat(later.get(30, TimeUnit.SECONDS)).as("what a later callback sees on the selector thread")
                    .isEqualTo(Seen.NOTHING_OF_A_REQUEST);
            assertThat(Gc.collected(loader)).as("the starting thread's class loader, pinned by the selector thread")
                    .isTrue();
        } finally {
            pipe.source().close();
            pipe.sink().close();
            reactor.close();
        }
    }
}
