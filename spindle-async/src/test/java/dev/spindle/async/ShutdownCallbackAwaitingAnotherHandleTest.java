/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * At shutdown the final pass completes the handles of the unfinished tasks one after another, on
 * its own thread, and a {@link JoinHandle#toCompletableFuture} callback runs as its handle is
 * completed. A callback that waited for another unfinished handle of the runtime (a join of a
 * sibling, as {@code CompletableFuture} code does) waited for the very thread running it, which
 * was to complete that handle next: the shutdown never ended. Now every handle has its outcome
 * before any of their waiters is released, so such a wait returns at once.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ShutdownCallbackAwaitingAnotherHandleTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    /** What a get of {@code h} gave within a bounded wait (a hang reads as "still waiting"). */
    private static Object boundedGet(JoinHandle<?> h) {
        try {
            return h.get(10, TimeUnit.SECONDS);
        } catch (CancellationException e) {
            return "cancelled";
        } catch (TimeoutException e) {
            return "still waiting";
        } catch (Exception e) {
            return e;
        }
    }

    @Test
    void aCallbackJoiningAnotherUnfinishedHandleDoesNotHangTheShutdown() throws Exception {
        AsyncRuntime rt = AsyncRuntime.builder().workers(2).name("callback-joins-sibling").build();
        JoinHandle<Object> a = rt.spawn(cx -> Poll.pending());   // never woken: failed at shutdown
        JoinHandle<Object> b = rt.spawn(cx -> Poll.pending());
        // whichever the pass completes first, its callback waits for the other
        CompletableFuture<Object> afterA = a.toCompletableFuture().handle((v, e) -> boundedGet(b));
        CompletableFuture<Object> afterB = b.toCompletableFuture().handle((v, e) -> boundedGet(a));

        CompletableFuture<Void> closing = CompletableFuture.runAsync(rt::shutdown);

        assertThat(afterA).succeedsWithin(WAIT).isEqualTo("cancelled");
        assertThat(afterB).succeedsWithin(WAIT).isEqualTo("cancelled");
        assertThat(closing).succeedsWithin(WAIT);
        assertThat(rt.isTerminated()).isTrue();
    }
}
