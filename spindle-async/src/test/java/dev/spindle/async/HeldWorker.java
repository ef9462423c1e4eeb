/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static dev.spindle.async.WakerSemanticsTest.WAIT_S;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A worker of a runtime held by a blocking poll until {@link #release()}: the tests that need one
 * worker busy while the other parks, polls or watches set the scene with it.
 */
final class HeldWorker {
    final JoinHandle<Boolean> handle;
    private final CountDownLatch release = new CountDownLatch(1);

    /** Spawns the blocking task on {@code rt} and returns once a worker polls it. */
    HeldWorker(AsyncRuntime rt) throws InterruptedException {
        CountDownLatch held = new CountDownLatch(1);
        handle = rt.spawn(StalledPollTest.blockingUntil(held, release));
        assertThat(held.await(WAIT_S, TimeUnit.SECONDS)).isTrue();
    }

    /** Lets the poll finish and waits for it. */
    void release() throws Exception {
        release.countDown();
        assertThat(handle.get(WAIT_S, TimeUnit.SECONDS)).isTrue();
    }
}
