/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A runtime of {@link #WORKERS} workers whose tasks block in a {@code get} of a task of the same
 * runtime, and every handle spawned through it: {@link #close()} cancels them and shuts the runtime
 * down on a daemon thread, so that a worker a failing test left blocked is released without the
 * test itself hanging in that shutdown.
 */
final class BlockedGetFixture implements AutoCloseable {

    static final int WORKERS = 2;

    /** A body a task runs on worker {@code n} of {@link #onEveryWorker}, after all have met. */
    interface PerWorker<T> {
        T run(int n) throws Exception;
    }

    final AsyncRuntime rt;
    final List<JoinHandle<?>> handles = new CopyOnWriteArrayList<>();

    BlockedGetFixture() {
        this(AsyncRuntime.builder().workers(WORKERS));
    }

    BlockedGetFixture(AsyncRuntime.Builder builder) {
        this.rt = builder.build();
    }

    /** Remembers {@code handle} to be cancelled at {@link #close()}, and returns it. */
    <T> JoinHandle<T> track(JoinHandle<T> handle) {
        handles.add(handle);
        return handle;
    }

    /** Spawns (and tracks) a child that stays pending well past any test: a get on it ends only by shutdown. */
    JoinHandle<Void> spawnForever() {
        return track(rt.spawn(Async.sleep(Duration.ofHours(1))));
    }

    /**
     * Spawns (and tracks) a task that blocks its worker in a get of a child that stays pending
     * ({@link #spawnForever}) and completes with what {@link #outcomeOfGet} says of that get: the
     * worker that tests of a get cycle keep blocked beside the one where the cycle forms.
     */
    JoinHandle<String> spawnBlockedOnForever() {
        return track(rt.spawn(cx -> {
            try {
                return Poll.ready(outcomeOfGet(spawnForever()));
            } catch (Exception e) {
                throw Async.unchecked(e);
            }
        }));
    }

    /**
     * Blocks in {@code child.get()}; "child done" if it completed, "child cancelled" if a
     * shutdown cancelled it; any other failure (an interrupt included) is thrown.
     */
    static String outcomeOfGet(JoinHandle<?> child) throws Exception {
        try {
            child.get();
            return "child done";
        } catch (CancellationException e) {
            return "child cancelled";
        }
    }

    /**
     * Spawns one task per worker: they first meet at a barrier (so that each holds a worker of its
     * own), then each runs {@code body} with its index and completes with what it returns; what it
     * throws fails that task.
     */
    <T> List<JoinHandle<T>> onEveryWorker(PerWorker<T> body) {
        CyclicBarrier together = new CyclicBarrier(WORKERS);
        List<JoinHandle<T>> parents = new CopyOnWriteArrayList<>();
        for (int i = 0; i < WORKERS; i++) {
            int n = i;
            parents.add(track(rt.spawn(cx -> {
                try {
                    together.await(10, TimeUnit.SECONDS);
                    return Poll.ready(body.run(n));
                } catch (Exception e) {
                    throw Async.unchecked(e);
                }
            })));
        }
        return parents;
    }

    /** Waits (10 seconds at the most, then fails) until {@code condition} holds. */
    static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(1);
        }
    }

    /** Cancels the handles and shuts the runtime down on a daemon thread, not waiting for it. */
    @Override
    public void close() {
        handles.forEach(h -> h.cancel(false));
        Thread closer = new Thread(rt::shutdown, "release-" + rt);
        closer.setDaemon(true);
        closer.start();
    }
}
