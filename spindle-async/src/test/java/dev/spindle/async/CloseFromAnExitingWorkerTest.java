/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A {@code close()} on a worker thread of the runtime after that worker's loop has ended: when a
 * task shut the runtime down, the last worker to exit completes the unfinished handles on its
 * own thread, and whatever that completion runs there (a {@link JoinHandle#toCompletableFuture}
 * callback, a waker, a {@link Cancellable}, the thread's uncaught-exception handler) runs on a
 * worker thread that {@code AsyncWorker.current()} no longer names. A close there took itself
 * for an outside caller and joined its own thread, which waited for good, holding the
 * termination lock, so that {@code isTerminated()} and every later {@code close()} waited too.
 */
class CloseFromAnExitingWorkerTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    void aCloseInACompletionCallbackOfTheLastExitingWorkerReturns() throws Exception {
        AsyncRuntime rt = AsyncRuntime.builder().workers(1).name("close-on-exit").build();
        JoinHandle<Object> forever = rt.spawn(cx -> Poll.pending());   // never woken: failed at shutdown
        AtomicReference<Thread> callbackThread = new AtomicReference<>();
        CompletableFuture<Object> closedInCallback = forever.toCompletableFuture().handle((v, e) -> {
            callbackThread.set(Thread.currentThread());
            rt.close();                        // a service closing its runtime once its main task ends
            return e;
        });
        rt.spawn(cx -> {
            rt.shutdown();                     // from inside: the exiting worker completes what is left
            return Poll.ready(null);
        });

        assertThat(closedInCallback).as("the close() in the callback").succeedsWithin(WAIT);
        assertThat(callbackThread.get()).isInstanceOf(AsyncWorker.WorkerThread.class);
        assertThat(forever.isCancelled()).isTrue();
        rt.close();                            // from outside: joins the worker, which has exited
        assertThat(rt.isTerminated()).isTrue();
    }
}
