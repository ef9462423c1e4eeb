/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.async.io.Reactor;
import dev.spindle.async.io.ReactorGroup;
import dev.spindle.testkit.Gc;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Defects of a runtime's life cycle (a failed build, the state kept after shutdown), found by
 * review (session 29), each test failing before its fix.
 */
class AsyncShutdownRegressionTest {

    /** A payload whose collection the tests watch. */
    static final class Payload {
        final byte[] bytes = new byte[1 << 20];
    }

    /**
     * A runtime kept in a field after {@code close()} (a service's runtime, closed at stop) kept
     * the lists of live tasks as they were at the shutdown, and with them every finished cell
     * not yet pruned and its result: here the result of a task spawned from outside whose
     * handle was dropped long ago.
     */
    @Test
    void aClosedRuntimeDoesNotKeepTheResultOfATaskSpawnedFromOutside() throws Exception {
        AsyncRuntime rt = AsyncRuntime.builder().workers(1).build();
        JoinHandle<Payload> h = rt.spawn(cx -> {
            rt.shutdown();                     // from inside: the worker exits after this poll, unparked
            return Poll.ready(new Payload());
        });
        WeakReference<Payload> result = new WeakReference<>(h.get(10, TimeUnit.SECONDS));
        h = null;
        rt.close();
        assertThat(rt.isTerminated()).isTrue();
        assertThat(Gc.collected(result)).as("the result of a finished task of a closed runtime").isTrue();
        assertThat(rt.isShutdown()).isTrue();   // the runtime itself stays reachable to the end
    }

    /**
     * The same for a task spawned on a worker that returned pending once (so that its worker's
     * list of live tasks holds it) and then finished.
     */
    @Test
    void aClosedRuntimeDoesNotKeepTheResultOfATaskListedOnAWorker() throws Exception {
        AsyncRuntime rt = AsyncRuntime.builder().workers(1).build();
        AtomicReference<JoinHandle<Payload>> inner = new AtomicReference<>();
        JoinHandle<Void> outer = rt.spawn(cx -> {
            inner.set(rt.spawn(new AsyncTask<Payload>() {
                private boolean yielded;

                @Override
                public Poll<Payload> poll(Context c) {
                    if (!yielded) {
                        yielded = true;
                        c.waker().wake();      // pending once: listed on this worker
                        return Poll.pending();
                    }
                    rt.shutdown();
                    return Poll.ready(new Payload());
                }
            }));
            return Poll.ready(null);
        });
        outer.get(10, TimeUnit.SECONDS);
        WeakReference<Payload> result = new WeakReference<>(inner.get().get(10, TimeUnit.SECONDS));
        inner.set(null);
        rt.close();
        assertThat(rt.isTerminated()).isTrue();
        assertThat(Gc.collected(result)).as("the result of a finished task of a closed runtime").isTrue();
        assertThat(rt.isShutdown()).isTrue();
    }

    /**
     * {@code build()} claims the drivers one after another; when a later one could not be claimed
     * (here a reactor with a selector thread of its own, listed by mistake) the build failed but
     * the drivers claimed before stayed claimed, by no runtime: building again with the right
     * list failed with "driven by another runtime already", and nothing could ever drive them.
     */
    @Test
    void aBuildThatFailsToClaimADriverLeavesTheOthersFree() throws Exception {
        try (ReactorGroup driven = ReactorGroup.openDriven(1); ReactorGroup threaded = ReactorGroup.open(1)) {
            Reactor mine = driven.reactors().get(0);
            assertThatThrownBy(() -> AsyncRuntime.builder().workers(2)
                    .driveIo(List.of(mine, threaded.reactors().get(0))).build())
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("thread of its own");
            try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).driveIo(List.of(mine)).build()) {
                assertThat(rt.spawn(Async.sleep(Duration.ofMillis(1))).get(10, TimeUnit.SECONDS)).isNull();
            }
        }
    }
}
