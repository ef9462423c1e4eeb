/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Defects found in a review (session 28) of the lifecycle under races: {@code close()} when the
 * closing thread is interrupted. Each test failed on the code before its fix.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PoolCloseRegressionTest {

    /**
     * close() answers an interrupt with shutdownNow() and dropped the tasks it returned. A task
     * from submit() that had not started was then neither run, nor returned to anyone, nor
     * failed: its Future never completed, and a caller waiting in get() waited for good.
     */
    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void anInterruptedCloseCancelsTheFuturesOfTasksItDrops(PoolKind kind) throws Exception {
        PoolCore pool = kind.build(kind.builder().workers(1).name(kind + "-interrupted-close"));
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        pool.execute(() -> {
            started.countDown();
            for (;;) {
                try {
                    if (release.await(30, TimeUnit.SECONDS)) {
                        return;
                    }
                } catch (InterruptedException e) {
                    interrupted.countDown();   // shutdownNow's: keep the worker until released
                }
            }
        });
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        AtomicInteger ran = new AtomicInteger();
        List<Future<Integer>> queued = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            queued.add(pool.submit(ran::incrementAndGet));
        }
        Thread closer = new Thread(pool::close, "closer");
        closer.start();
        while (!pool.isShutdown()) {
            Thread.onSpinWait();
        }
        closer.interrupt();                    // close() stops the pool: shutdownNow
        assertThat(interrupted.await(10, TimeUnit.SECONDS)).as("the pool was stopped").isTrue();
        release.countDown();
        closer.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(closer.isAlive()).as("close() returned").isFalse();
        assertThat(pool.isTerminated()).isTrue();

        assertThat(queued.stream().filter(f -> !f.isDone()).count())
                .as("futures of dropped tasks neither completed nor cancelled once close() returned")
                .isZero();
        assertThat(ran.get()).as("dropped tasks do not run").isZero();
        for (Future<Integer> f : queued) {
            assertThatThrownBy(f::get).isInstanceOf(CancellationException.class);
        }
    }
}
