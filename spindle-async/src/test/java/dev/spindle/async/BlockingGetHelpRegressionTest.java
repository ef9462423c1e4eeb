/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Tasks run from within blocked gets (AsyncWorker's <i>Blocking gets</i>) while other workers
 * search too: each runs to completion exactly once, whether it wakes itself, yields, spawns or
 * blocks in a get in turn; checked by review (session 31), held before and after its fixes.
 */
class BlockingGetHelpRegressionTest {

    private static final int WORKERS = 3;
    private static final int CHILDREN = 200;

    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void everyHelpedTaskCompletesExactlyOnce(AsyncPolicy policy) throws Exception {
        AsyncRuntime rt = AsyncRuntime.builder().workers(WORKERS).policy(policy).build();
        try {
            for (int round = 0; round < 5; round++) {
                AtomicIntegerArray completions = new AtomicIntegerArray(WORKERS * CHILDREN);
                CyclicBarrier together = new CyclicBarrier(WORKERS);
                List<JoinHandle<Long>> parents = new ArrayList<>();
                for (int p = 0; p < WORKERS; p++) {
                    int base = p * CHILDREN;
                    parents.add(rt.spawn(cx -> {
                        try {
                            together.await(10, TimeUnit.SECONDS);
                            List<JoinHandle<Integer>> children = new ArrayList<>();
                            for (int i = 0; i < CHILDREN; i++) {
                                children.add(rt.spawn(child(rt, base + i, completions)));
                            }
                            long sum = 0;
                            for (JoinHandle<Integer> h : children) {
                                sum += h.get();
                            }
                            return Poll.ready(sum);
                        } catch (Exception e) {
                            throw Async.unchecked(e);
                        }
                    }));
                }
                long total = 0;
                for (JoinHandle<Long> h : parents) {
                    total += h.get(20, TimeUnit.SECONDS);
                }
                int n = WORKERS * CHILDREN;
                assertThat(total).isEqualTo((long) n * (n - 1) / 2 + n);
                for (int i = 0; i < n; i++) {
                    assertThat(completions.get(i)).as("completions of child %d", i).isEqualTo(1);
                }
            }
        } finally {
            rt.shutdown();
        }
        assertThat(rt.isTerminated()).isTrue();
    }

    /** Wakes itself once, yields once, then spawns a grandchild and blocks in its get. */
    private static AsyncTask<Integer> child(AsyncRuntime rt, int id, AtomicIntegerArray completions) {
        int[] step = {0};
        return cx -> {
            switch (step[0]++) {
                case 0:
                    cx.waker().wake();
                    return Poll.pending();
                case 1:
                    cx.waker().wake();
                    return Poll.pending();
                default:
                    try {
                        int one = rt.spawn(c2 -> Poll.ready(1)).get();
                        completions.incrementAndGet(id);
                        return Poll.ready(id + one);
                    } catch (Exception e) {
                        throw Async.unchecked(e);
                    }
            }
        };
    }
}
