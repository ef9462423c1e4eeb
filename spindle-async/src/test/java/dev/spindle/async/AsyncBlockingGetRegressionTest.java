/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Blocking gets on a handle of the same runtime from every worker at once, as code ported from
 * {@code CompletableFuture.join} on a pool does; found by review (session 31). Every worker was
 * blocked, only workers poll cells, so the awaited children stayed queued for good.
 */
class AsyncBlockingGetRegressionTest {

    private static final int WORKERS = 2;

    /**
     * Each of two parents, one per worker (the barrier holds both workers until both run), spawns
     * a child and blocks in its {@code get()}. Before the fix both workers waited for good. The
     * children are recorded so that the test can cancel them and release the workers even when
     * it fails, and the runtime then shuts down without leaking its threads.
     */
    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void everyWorkerBlockedInGetOfAQueuedChildStillCompletes(AsyncPolicy policy) throws Exception {
        List<JoinHandle<?>> children = new CopyOnWriteArrayList<>();
        AsyncRuntime rt = AsyncRuntime.builder().workers(WORKERS).policy(policy).build();
        try {
            CyclicBarrier together = new CyclicBarrier(WORKERS);
            List<JoinHandle<Integer>> tops = new CopyOnWriteArrayList<>();
            for (int i = 0; i < WORKERS; i++) {
                int n = i;
                tops.add(rt.spawn(cx -> {
                    try {
                        together.await(10, TimeUnit.SECONDS);  // both workers are in a parent
                        JoinHandle<Integer> child = rt.spawn(c2 -> Poll.ready(n * 10));
                        children.add(child);
                        // a nested level too: the child's own blocking get of a grandchild
                        JoinHandle<Integer> outer = rt.spawn(c2 -> {
                            JoinHandle<Integer> grand = rt.spawn(c3 -> Poll.ready(1));
                            children.add(grand);
                            try {
                                return Poll.ready(grand.get() + child.get(10, TimeUnit.SECONDS));
                            } catch (Exception e) {
                                throw Async.unchecked(e);
                            }
                        });
                        children.add(outer);
                        return Poll.ready(child.get() + outer.get());
                    } catch (Exception e) {
                        throw Async.unchecked(e);
                    }
                }));
                children.add(tops.get(i));
            }
            for (int i = 0; i < WORKERS; i++) {
                assertThat(tops.get(i).get(10, TimeUnit.SECONDS))
                        .as("parent %d, whose worker waits in get() like every other worker", i)
                        .isEqualTo(i * 10 + 1 + i * 10);
            }
        } finally {
            release(children, rt);
        }
        assertThat(rt.isTerminated()).isTrue();
    }

    /**
     * Cancels every handle until all are done (a task released by a cancellation may spawn and
     * block on one more), so that no worker stays blocked, then shuts the runtime down.
     */
    private static void release(List<JoinHandle<?>> handles, AsyncRuntime rt) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!handles.stream().allMatch(JoinHandle::isDone) && System.nanoTime() < deadline) {
            handles.forEach(h -> h.cancel(false));
            Thread.sleep(10);
        }
        rt.shutdown();
    }
}
