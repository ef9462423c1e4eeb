/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.spindle.bench.runtime.VirtualThreads;
import dev.spindle.bench.workload.Size;
import dev.spindle.bench.workload.WrongResultException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AsyncWorkloadsTest {

    @Test
    void everyWorkloadChecksOutOnEveryRuntime() {
        for (String id : AsyncTargets.defaultIds()) {
            try (AsyncTargets.Target t = AsyncTargets.byId(id).open(2)) {
                for (String name : AsyncWorkloads.names()) {
                    if (AsyncWorkloads.CONTENTION.contains(name)) {
                        continue;                      // async runtimes only: their own test below
                    }
                    AsyncWorkload w = AsyncWorkloads.create(name, Size.TINY);
                    for (int i = 0; i < 5; i++) {
                        assertThat(t.run(w)).as(name + " on " + id).isPositive();
                    }
                }
            }
        }
    }

    @Test
    void tinyResultsAreTheKnownAnswers() {
        try (AsyncTargets.Target a = AsyncTargets.byId("async-ws").open(2);
                AsyncTargets.Target c = AsyncTargets.byId("cf-fjp").open(2)) {
            for (AsyncTargets.Target t : new AsyncTargets.Target[] {a, c}) {
                assertThat(t.run(new SpawnManyAsync(100))).isEqualTo(4950);
                assertThat(t.run(new YieldManyAsync(8, 20))).isEqualTo(160);
                assertThat(t.run(new PingPongAsync(20))).isEqualTo(210);
                assertThat(t.run(new PingPongAsync(20, true))).isEqualTo(210);
                assertThat(t.run(new ChainedSpawnAsync(50))).isEqualTo(50);
            }
        }
    }

    @Test
    void virtualThreadVersionsGiveTheKnownAnswers() {
        assumeTrue(VirtualThreads.available(), "virtual threads need JDK 21+");
        try (AsyncTargets.Target t = AsyncTargets.byId("vthreads").open(2)) {
            for (int i = 0; i < 3; i++) {
                assertThat(t.run(new SpawnManyAsync(100))).isEqualTo(4950);
                assertThat(t.run(new YieldManyAsync(8, 20))).isEqualTo(160);
                assertThat(t.run(new PingPongAsync(20))).isEqualTo(210);
                assertThat(t.run(new ChainedSpawnAsync(50))).isEqualTo(50);
            }
        }
    }

    /** The virtual-thread idiom is blocking code on a thread per task: it runs on platform threads too (any JDK). */
    @Test
    void virtualThreadIdiomGivesTheKnownAnswersOnAThreadPerTask() {
        ExecutorService threads = Executors.newCachedThreadPool();
        try {
            assertThat(new SpawnManyAsync(100).runVirtual(threads)).isEqualTo(4950);
            assertThat(new YieldManyAsync(8, 20).runVirtual(threads)).isEqualTo(160);
            assertThat(new PingPongAsync(20).runVirtual(threads)).isEqualTo(210);
            assertThat(new ChainedSpawnAsync(50).runVirtual(threads)).isEqualTo(50);
        } finally {
            VirtualThreads.shutdown(threads, Duration.ofSeconds(10));
        }
    }

    @Test
    void virtualThreadVersionsDetectAWrongResult() {
        ExecutorService miscounting = new Miscounting(Executors.newCachedThreadPool());
        try {
            for (AsyncWorkload w : List.of(new SpawnManyAsync(100), new YieldManyAsync(8, 20), new PingPongAsync(20))) {
                assertThatThrownBy(() -> w.runVirtual(miscounting)).as(w.name())
                        .isInstanceOf(WrongResultException.class).hasMessageContaining(w.name());
            }
        } finally {
            VirtualThreads.shutdown(miscounting, Duration.ofSeconds(10));
        }
    }

    @Test
    void vthreadsIsOnlyDefaultWhereVirtualThreadsExistAndNamedOnAnOlderJdkIsRefused() {
        assertThat(AsyncTargets.ids()).contains("vthreads");
        assertThat(AsyncTargets.byId("vthreads").family()).isEqualTo(AsyncTargets.Family.VT);
        if (VirtualThreads.available()) {
            assertThat(AsyncTargets.defaultIds()).isEqualTo(AsyncTargets.ids());
        } else {
            assertThat(AsyncTargets.defaultIds()).containsExactly("async-ws", "async-hybrid", "cf-fjp", "cf-fjp-async");
            assertThatThrownBy(() -> AsyncTargets.byId("vthreads").open(2))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("async runtime 'vthreads' needs JDK 21+ (virtual threads), this is Java "
                            + System.getProperty("java.version"));
        }
    }

    /** Runs tasks on {@code delegate}, but every {@code Long} a submitted task returns comes back one too high. */
    private static final class Miscounting extends AbstractExecutorService {
        private final ExecutorService delegate;

        Miscounting(ExecutorService delegate) {
            this.delegate = delegate;
        }

        @Override
        @SuppressWarnings("unchecked")
        public <T> Future<T> submit(Callable<T> task) {
            return super.submit(() -> {
                T v = task.call();
                return v instanceof Long ? (T) Long.valueOf((Long) v + 1) : v;
            });
        }

        @Override
        public void execute(Runnable r) {
            delegate.execute(r);
        }

        @Override
        public void shutdown() {
            delegate.shutdown();
        }

        @Override
        public List<Runnable> shutdownNow() {
            return delegate.shutdownNow();
        }

        @Override
        public boolean isShutdown() {
            return delegate.isShutdown();
        }

        @Override
        public boolean isTerminated() {
            return delegate.isTerminated();
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
            return delegate.awaitTermination(timeout, unit);
        }
    }

    @Test
    void fullSizesAreTokios() {
        assertThat(AsyncWorkloads.create("spawn_many", Size.QUICK).operations()).isEqualTo(10_000);
        assertThat(AsyncWorkloads.create("yield_many", Size.FULL).operations()).isEqualTo(200_000);
        assertThat(AsyncWorkloads.create("ping_pong", Size.FULL).operations()).isEqualTo(1_000);
        assertThat(AsyncWorkloads.create("ping_pong_channel", Size.FULL).name()).isEqualTo("ping_pong_channel");
        assertThat(AsyncWorkloads.create("spawn_many_all", Size.FULL).operations()).isEqualTo(10_000);
        assertThat(AsyncWorkloads.defaults()).as("the variants run only when named")
                .doesNotContain("ping_pong_channel", "spawn_many_all").containsAll(AsyncWorkloads.TOKIO);
        assertThat(AsyncWorkloads.create("chained_spawn", Size.FULL).operations()).isEqualTo(1_000);
        assertThatThrownBy(() -> AsyncWorkloads.create("fib", Size.TINY))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("spawn_many");
        assertThatThrownBy(() -> AsyncTargets.byId("tokio"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("async-hybrid");
    }

    @Test
    void contentionIsCheckedAndMeasuredOnBothSchedulers() {
        for (String id : new String[] {"async-ws", "async-hybrid"}) {
            try (AsyncTargets.Target t = AsyncTargets.byId(id).open(2)) {
                for (String name : AsyncWorkloads.CONTENTION) {
                    Contention c = AsyncWorkloads.contention(name, Size.TINY);
                    Contention.Result r = c.run(t.runtime());
                    assertThat(r.wakes()).hasSize(c.tasks());
                    assertThat(r.completionNanos()).hasSize(c.tasks());
                    // every hold yields once: at least one wake per acquire
                    assertThat(r.wakesAt(0)).as(name + " on " + id).isGreaterThanOrEqualTo(3);
                    assertThat(r.wakesAt(0.99)).isLessThanOrEqualTo(r.wakesAt(1.0));
                    assertThat(r.completionNanosAt(0.5)).isPositive();
                    assertThat(r.throughput()).isPositive().isFinite();
                }
            }
        }
    }

    @Test
    void quantilesAreNearestRank() {
        long[] v = new long[100];
        for (int i = 0; i < 100; i++) {
            v[i] = i + 1;
        }
        assertThat(Contention.Result.at(v, 0.5)).isEqualTo(50);
        assertThat(Contention.Result.at(v, 0.99)).isEqualTo(99);
        assertThat(Contention.Result.at(v, 1.0)).isEqualTo(100);
        assertThat(Contention.Result.at(new long[] {7}, 0.99)).isEqualTo(7);
    }
}
