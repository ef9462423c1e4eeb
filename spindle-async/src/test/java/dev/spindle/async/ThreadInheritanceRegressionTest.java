/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.testkit.Gc;
import dev.spindle.testkit.RequestThread;
import dev.spindle.testkit.RequestThread.Seen;
import java.lang.ref.WeakReference;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Long-lived threads of spindle-async must not keep what the thread that happened to create
 * them had: its context class loader (a web application's, pinned for the life of the thread),
 * its {@link InheritableThreadLocal} values (seen by every later, unrelated callback), or a
 * lowered priority. The JVM-wide timer thread is started by whichever task schedules the first
 * timer; a runtime's workers are made by the thread that builds it.
 */
class ThreadInheritanceRegressionTest {

    @Test
    void sharedTimerThreadKeepsNothingOfTheTaskThatStartedIt() throws Exception {
        Timers timers = new Timers(null);   // as SHARED is made: a thread of its own, started lazily
        CompletableFuture<Void> first = new CompletableFuture<>();
        WeakReference<ClassLoader> loader = RequestThread.run(() ->
                timers.add(System.nanoTime(), () -> first.complete(null)));
        first.get(30, TimeUnit.SECONDS);

        // a later, unrelated timer: what does its waker see on the timer thread?
        CompletableFuture<Seen> later = new CompletableFuture<>();
        timers.add(System.nanoTime(), () -> later.complete(Seen.here()));
        assertThat(later.get(30, TimeUnit.SECONDS)).as("what a later callback sees on the timer thread")
                .isEqualTo(Seen.NOTHING_OF_A_REQUEST);
        assertThat(Gc.collected(loader)).as("the request's class loader, pinned by the timer thread").isTrue();
    }

    @Test
    void runtimeWorkersSeeNoInheritableValueOfTheBuildingThread() throws Exception {
        AtomicReference<AsyncRuntime> rt = new AtomicReference<>();
        RequestThread.run(() -> rt.set(AsyncRuntime.builder().workers(2).name("inherit-test").build()));
        try (AsyncRuntime runtime = rt.get()) {
            String seen = runtime.spawn(cx -> Poll.ready(String.valueOf(RequestThread.REQUEST.get())))
                    .get(30, TimeUnit.SECONDS);
            assertThat(seen).as("a task's view of the building thread's inheritable value").isEqualTo("null");
        }
    }
}
