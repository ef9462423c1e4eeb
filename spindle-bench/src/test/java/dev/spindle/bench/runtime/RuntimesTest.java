/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RuntimesTest {

    @ParameterizedTest
    @EnumSource(RuntimeKind.class)
    void prestartStartsEveryWorkerAndOwnsOnlyThem(RuntimeKind kind) throws InterruptedException {
        try (BenchRuntime rt = Runtimes.create(kind, 3)) {
            assertThat(rt.kind()).isEqualTo(kind);
            assertThat(rt.workers()).isEqualTo(3);
            rt.prestart();
            long owned = Thread.getAllStackTraces().keySet().stream().filter(rt::ownsThread).count();
            assertThat(owned).isEqualTo(3);
            assertThat(rt.ownsThread(Thread.currentThread())).isFalse();

            Set<Thread> ran = ConcurrentHashMap.newKeySet();
            CountDownLatch done = new CountDownLatch(1);
            rt.execute(() -> {
                ran.add(Thread.currentThread());
                done.countDown();
            });
            assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(ran).allMatch(rt::ownsThread);
        }
    }

    @ParameterizedTest
    @EnumSource(value = RuntimeKind.class, names = {"FJP", "FJP_ASYNC", "TPE"})
    void onlySpindleHasASpindlePool(RuntimeKind kind) {
        try (BenchRuntime rt = Runtimes.create(kind, 1)) {
            assertThatThrownBy(rt::spindle).isInstanceOf(UnsupportedOperationException.class);
        }
        try (BenchRuntime rt = Runtimes.create(RuntimeKind.SPINDLE, 1)) {
            assertThat(rt.spindle().parallelism()).isEqualTo(1);
            assertThatThrownBy(rt::forkJoinPool).isInstanceOf(UnsupportedOperationException.class);
        }
    }
}
