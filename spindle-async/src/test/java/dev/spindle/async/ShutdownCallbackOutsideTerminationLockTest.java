/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * At shutdown the handles of the tasks that did not finish are completed by the final cancel
 * pass, and a {@link JoinHandle#toCompletableFuture} callback runs on its thread. That pass held
 * the termination lock while it completed them, and {@link AsyncRuntime#isTerminated()} takes
 * that lock: a callback that waited for a thread asking {@code isTerminated()} waited for good
 * (here, until its bounded wait gave up), and every such caller waited as long as the callback.
 * Now the handles are completed outside the lock: the other thread is answered {@code false}
 * (not terminated yet: a handle's callback is still running), and {@code true} once the
 * shutdown has returned.
 */
class ShutdownCallbackOutsideTerminationLockTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void aCallbackWaitingForAThreadThatAsksIsTerminatedDoesNotDeadlock() throws Exception {
        AsyncRuntime rt = AsyncRuntime.builder().workers(1).name("callback-outside-lock").build();
        JoinHandle<Object> forever = rt.spawn(cx -> Poll.pending());   // never woken: failed at shutdown
        CompletableFuture<Object> callback = forever.toCompletableFuture().handle((v, e) -> {
            CompletableFuture<Boolean> asked = new CompletableFuture<>();
            Thread monitor = new Thread(() -> asked.complete(rt.isTerminated()), "asks-isTerminated");
            monitor.setDaemon(true);
            monitor.start();
            try {
                return asked.get(10, TimeUnit.SECONDS);   // bounded: a deadlock fails the test
            } catch (TimeoutException deadlocked) {
                return "isTerminated() blocked while the callback ran";
            } catch (Exception other) {
                return other;
            }
        });

        CompletableFuture<Void> closing = CompletableFuture.runAsync(rt::shutdown);

        assertThat(callback).succeedsWithin(WAIT).isEqualTo(Boolean.FALSE);
        assertThat(closing).succeedsWithin(WAIT);
        assertThat(forever.isCancelled()).isTrue();
        assertThat(rt.isTerminated()).isTrue();
    }
}
