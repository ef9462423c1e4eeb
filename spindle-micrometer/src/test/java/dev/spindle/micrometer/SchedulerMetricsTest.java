package dev.spindle.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.Hints;
import dev.spindle.Scheduler;
import dev.spindle.async.Async;
import dev.spindle.async.AsyncRuntime;
import dev.spindle.pool.PinnedPool;
import dev.spindle.pool.PriorityPool;
import dev.spindle.pool.SchedulerUnion;
import dev.spindle.pool.WorkSharingPool;
import dev.spindle.pool.WorkStealingPool;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SchedulerMetricsTest {

    /** The failures these tests cause on purpose are counted, not printed. */
    private static final Thread.UncaughtExceptionHandler QUIET = (t, e) -> { };

    private final MeterRegistry registry = new SimpleMeterRegistry();

    private static dev.spindle.SchedulerStats statsOf(ExecutorService pool) {
        if (pool instanceof WorkStealingPool p) {
            return p.stats();
        } else if (pool instanceof WorkSharingPool p) {
            return p.stats();
        } else if (pool instanceof PriorityPool p) {
            return p.stats();
        }
        return ((PinnedPool) pool).stats();
    }

    private double counter(String name, String pool) {
        return registry.get(name).tag("pool", pool).functionCounter().count();
    }

    @Test
    void everyPoolsCountersMoveAsWorkRunsAndARejectedTaskShowsUp() throws Exception {
        Map<String, ExecutorService> pools = new LinkedHashMap<>();
        pools.put("steal", WorkStealingPool.builder().workers(2).name("steal").uncaughtExceptionHandler(QUIET).build());
        pools.put("share", WorkSharingPool.builder().workers(2).name("share").uncaughtExceptionHandler(QUIET).build());
        pools.put("prio", PriorityPool.builder().workers(2).name("prio").uncaughtExceptionHandler(QUIET).build());
        pools.put("pin", PinnedPool.builder().workers(2).name("pin").uncaughtExceptionHandler(QUIET).build());
        for (ExecutorService pool : pools.values()) {
            SchedulerMetrics.of((Scheduler) pool, Tags.of("app", "test")).bindTo(registry);
        }
        for (Map.Entry<String, ExecutorService> e : pools.entrySet()) {
            String name = e.getKey();
            ExecutorService pool = e.getValue();
            assertThat(counter("spindle.pool.tasks.completed", name)).as(name).isZero();
            CountDownLatch failed = new CountDownLatch(1);
            for (int i = 0; i < 50; i++) {
                pool.execute(() -> { });
            }
            pool.execute(() -> {
                failed.countDown();
                throw new IllegalStateException("expected by the test");
            });
            assertThat(failed.await(10, TimeUnit.SECONDS)).isTrue();
            pool.shutdown();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(RejectedExecutionException.class);

            assertThat(counter("spindle.pool.tasks.completed", name)).as(name).isEqualTo(51);
            assertThat(counter("spindle.pool.tasks.rejected", name)).as(name).isEqualTo(1);
            assertThat(counter("spindle.pool.tasks.failed", name)).as(name).isEqualTo(1);
            assertThat(counter("spindle.pool.parks", name)).as(name).isPositive();
            assertThat(counter("spindle.pool.unparks", name)).as(name)
                    .isEqualTo((double) statsOf(pool).unparks()).isLessThanOrEqualTo(counter("spindle.pool.parks", name));
            assertThat(registry.get("spindle.pool.workers").tag("pool", name).tag("app", "test").gauge().value())
                    .as("%s, terminated: no worker left", name).isZero();
            assertThat(registry.get("spindle.pool.parallelism").tag("pool", name).gauge().value()).isEqualTo(2);
            assertThat(registry.get("spindle.pool.tasks.queued").tag("pool", name).tag("queue", "shared")
                    .gauge().value()).isZero();
            assertThat(registry.get("spindle.pool.tasks.queued").tag("pool", name).tag("queue", "local")
                    .gauge().value()).isZero();
        }
    }

    @Test
    void queuedTasksShowWhileTheWorkerIsBusyAndStealsCount() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).name("q").build()) {
            SchedulerMetrics.of(pool).bindTo(registry);
            CountDownLatch busy = new CountDownLatch(2);
            CountDownLatch release = new CountDownLatch(1);
            for (int i = 0; i < 2; i++) {
                pool.execute(() -> {
                    busy.countDown();
                    awaitQuietly(release);
                });
            }
            assertThat(busy.await(10, TimeUnit.SECONDS)).isTrue();
            for (int i = 0; i < 5; i++) {
                pool.execute(() -> { });
            }
            assertThat(registry.get("spindle.pool.tasks.queued").tag("pool", "q").tag("queue", "shared")
                    .gauge().value()).isEqualTo(5);
            assertThat(registry.get("spindle.pool.workers.active").tag("pool", "q").gauge().value())
                    .as("both workers run a task: neither parked nor searching").isEqualTo(2);
            release.countDown();
            long fib = pool.invoke(() -> fib(pool, 18));
            assertThat(fib).isEqualTo(2584);
            pool.shutdown();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            assertThat(counter("spindle.pool.tasks.completed", "q")).isGreaterThan(7);
            assertThat(counter("spindle.pool.steals", "q")).isEqualTo(pool.stats().steals());
        }
    }

    @Test
    void theAsyncRuntimeCountsPollsWakeupsAndParks() throws Exception {
        try (AsyncRuntime runtime = AsyncRuntime.builder().workers(2).name("rt").build()) {
            SchedulerMetrics.of(runtime).bindTo(registry);
            double before = registry.get("spindle.async.polls").tag("runtime", "rt").functionCounter().count();
            for (int i = 0; i < 20; i++) {
                assertThat(runtime.run(Async.ready(i))).isEqualTo(i);
            }
            double after = registry.get("spindle.async.polls").tag("runtime", "rt").functionCounter().count();
            assertThat(after - before).isGreaterThanOrEqualTo(20);
            assertThat(registry.get("spindle.async.workers").tag("runtime", "rt").gauge().value()).isEqualTo(2);
            awaitUntil(() -> registry.get("spindle.async.workers.active").tag("runtime", "rt").gauge().value() == 0,
                    "a quiet runtime's workers park, so none is active");
            assertThat(registry.find("spindle.async.wakeups").functionCounter()).isNotNull();
            assertThat(registry.find("spindle.async.unparks").functionCounter()).isNotNull();
            java.util.concurrent.CompletableFuture<Integer> gate = new java.util.concurrent.CompletableFuture<>();
            var pending = runtime.spawn(Async.from(gate));
            assertThat(registry.get("spindle.async.tasks.live").tag("runtime", "rt").gauge().value()).isEqualTo(1);
            gate.complete(1);
            assertThat(pending.get(10, TimeUnit.SECONDS)).isEqualTo(1);
            assertThat(registry.find("spindle.async.tasks.completed").meter())
                    .as("the runtime counts polls, not completed tasks").isNull();
        }
    }

    @Test
    void aUnionCountsWhatItRoutesAndBindsItsMembers() throws Exception {
        try (SchedulerUnion union = SchedulerUnion.owning(
                WorkSharingPool.builder().workers(1).name("control").build(),
                WorkStealingPool.builder().workers(1).name("bulk").build())) {
            SchedulerMetrics.ofUnion(union, "u", Tags.empty()).bindTo(registry);
            union.execute(() -> { }, Hints.DEFAULT);
            union.execute(() -> { }, Hints.DEFAULT.withSchedulerIndex(1));
            union.execute(() -> { }, Hints.DEFAULT.withSchedulerIndex(1));
            assertThat(registry.get("spindle.union.tasks.routed").tag("union", "u").tag("member", "1")
                    .functionCounter().count()).isEqualTo(2);
            assertThat(registry.find("spindle.pool.tasks.completed").tag("pool", "control").functionCounter())
                    .isNotNull();
            assertThat(registry.find("spindle.pool.tasks.completed").tag("pool", "bulk").functionCounter())
                    .isNotNull();
        }
    }

    @Test
    void badArgumentsAreRefusedByName() {
        try (SchedulerUnion union = SchedulerUnion.of(WorkSharingPool.builder().workers(1).build())) {
            assertThatThrownBy(() -> SchedulerMetrics.of(union))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ofUnion");
            assertThatThrownBy(() -> SchedulerMetrics.of(Runnable::run))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a pool");
            assertThatThrownBy(() -> SchedulerMetrics.of((Scheduler) null))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("pool");
            ((ExecutorService) union.member(0)).shutdown();
        }
    }

    static long fib(WorkStealingPool pool, int n) {
        if (n < 2) {
            return n;
        }
        var left = pool.spawn(() -> fib(pool, n - 1));
        long right = fib(pool, n - 2);
        return left.join() + right;
    }

    static void awaitUntil(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(condition.getAsBoolean()).as(what).isTrue();
    }

    static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
