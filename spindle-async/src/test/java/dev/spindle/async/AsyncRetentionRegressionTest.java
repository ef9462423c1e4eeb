/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.testkit.Gc;
import java.lang.ref.WeakReference;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Retention defects found by review (session 28), each test failing before its fix: objects a
 * finished or cancelled task produced or held stayed reachable from something that lives on.
 */
class AsyncRetentionRegressionTest {

    /** A payload whose collection the tests watch. */
    static final class Payload {
        final byte[] bytes = new byte[1 << 20];
    }


    /**
     * {@code Async.from(stage)} attaches a callback to the stage that holds the task and the
     * waker of its poll; a stage can not take a callback back, so when the task is dropped
     * (the losing branch of a select, say) the stage kept the waker, and through it the select,
     * the spawned task and its result, until the stage completed: a long-lived stage (a
     * shutdown signal) raced in every request kept every request's result.
     */
    @Test
    void aDroppedFromStageDoesNotKeepTheTaskThatAwaitedIt() throws Exception {
        CompletableFuture<Payload> shutdown = new CompletableFuture<>();
        WeakReference<Payload> result;
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            JoinHandle<Async.Selected<Payload>> h = rt.spawn(Async.select(List.of(
                    Async.from(shutdown),
                    Async.then(Async.yieldNow(), x -> Async.ready(new Payload())))));
            result = new WeakReference<>(h.get(5, TimeUnit.SECONDS).value());
            assertThat(result.get()).isNotNull();
            h = null;
            assertThat(Gc.collected(result)).as("the select's result, once its handle is dropped").isTrue();
        }
        assertThat(shutdown).isNotDone();
    }
}
