/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.ref.Reference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Graph edge cases a Dask user meets: very deep chains, very wide fan-in and fan-out, cycles and
 * bad dependencies, duplicate keys, failures in a diamond, and results gathered once, many times,
 * after a release, or null. Waits are bounded; nothing asserts on time.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class ClusterGraphEdgeRegressionTest {

    private LocalCluster cluster;

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private Client start(int workers, int threads) {
        return start(LocalCluster.builder().workers(workers).threadsPerWorker(threads));
    }

    private Client start(LocalCluster.Builder builder) {
        cluster = builder.latency(Duration.ZERO).bandwidth(1e12).stealing(false).balanceInterval(Duration.ZERO)
                .retries(0).build();
        return cluster.client();
    }

    /** Waits (at most 60 s) for a condition on asynchronous releases. */
    private void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as(() -> "timed out waiting until " + what + "; retained "
                    + cluster.retainedForTests() + ", " + cluster.stats()).isNegative();
            Thread.sleep(10);
        }
    }

    private int keysHeld() {
        return cluster.stats().workers().stream().mapToInt(ClusterStats.WorkerStats::keysHeld).sum();
    }

    // ---- depth -------------------------------------------------------------------------------

    @Test
    void aHundredThousandTaskChainCompletesAndIsFreedOnRelease() throws Exception {
        Client client = start(2, 1);
        int n = 100_000;
        Graph.Builder g = Graph.builder().task("deep-0", args -> 0L);
        for (int i = 1; i < n; i++) {
            g.task("deep-" + i, args -> (Long) args.get(0) + 1, "deep-" + (i - 1));
        }
        Map<String, ClusterFuture<?>> fs = client.submit(g.build());
        assertThat(fs.get("deep-" + (n - 1)).get(120, TimeUnit.SECONDS)).isEqualTo((long) n - 1);
        fs.values().forEach(ClusterFuture::release);
        await("every link is released", () -> keysHeld() == 0);
        assertThat(cluster.stats().tasksReleased()).isEqualTo(n);
    }

    @Test
    void aDeepChainIsForgottenWhenItsFuturesAreReleased() throws Exception {
        Client client = start(LocalCluster.builder().workers(1).threadsPerWorker(1).forgetReleased(true));
        int n = 50_000;
        Graph.Builder g = Graph.builder().task("fdeep-0", args -> 0L);
        for (int i = 1; i < n; i++) {
            g.task("fdeep-" + i, args -> (Long) args.get(0) + 1, "fdeep-" + (i - 1));
        }
        Map<String, ClusterFuture<?>> fs = client.submit(g.build());
        assertThat(fs.get("fdeep-" + (n - 1)).get(120, TimeUnit.SECONDS)).isEqualTo((long) n - 1);
        // released from the tail: each release forgets nothing until the head goes, then all at once
        List<ClusterFuture<?>> all = new ArrayList<>(fs.values());
        for (int i = all.size() - 1; i >= 0; i--) {
            all.get(i).release();
        }
        await("the whole chain is forgotten", () -> cluster.taskRecords() == 0);
        await("every link is dropped by its worker", () -> keysHeld() == 0);
    }

    @Test
    void aFailureAtTheHeadOfAHundredThousandWaitingTasksErrsThemAll() throws Exception {
        Client client = start(LocalCluster.builder().workers(2).threadsPerWorker(1).forgetReleased(true));
        int n = 100_000;
        CountDownLatch go = new CountDownLatch(1);
        Graph.Builder g = Graph.builder().task("cascade-0", args -> {
            go.await(60, TimeUnit.SECONDS);
            throw new ArithmeticException("head");
        });
        for (int i = 1; i < n; i++) {
            g.task("cascade-" + i, args -> 1, "cascade-" + (i - 1));
        }
        Map<String, ClusterFuture<?>> fs = client.submit(g.build());
        ClusterFuture<?> last = fs.get("cascade-" + (n - 1));
        for (ClusterFuture<?> f : fs.values()) {
            if (f != last) {
                f.release();                  // whatever is released erring is forgotten with the cascade
            }
        }
        go.countDown();
        assertThatThrownBy(() -> last.get(120, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(ArithmeticException.class).hasMessage("head");
        last.release();
        await("the failed chain is forgotten", () -> cluster.taskRecords() == 0);
    }

    @Test
    void aDeepChainSubmittedOneTaskAtATimeWithReleasesCompletes() throws Exception {
        Client client = start(2, 1);
        int n = 20_000;
        ClusterFuture<Long> previous = client.submit("step-0", args -> 0L);
        for (int i = 1; i < n; i++) {
            ClusterFuture<Long> next = client.submit("step-" + i, args -> (Long) args.get(0) + 1, previous);
            previous.release();
            previous = next;
        }
        assertThat(previous.get(120, TimeUnit.SECONDS)).isEqualTo((long) n - 1);
        await("only the last result is held", () -> keysHeld() == 1);
        Reference.reachabilityFence(previous);
    }

    // ---- width -------------------------------------------------------------------------------

    /**
     * Each input fetched by the task's worker changed the holders of one of its dependencies, and
     * the scheduler recounted the bytes the task lacked there by walking all 50,000 of them; and
     * each input finishing checked whether the task was ready by walking them too. Quadratic: more
     * than 180 s (the wait ran out) for what takes a few seconds.
     */
    @Test
    void oneTaskWithFiftyThousandInputsCompletes() throws Exception {
        Client client = start(4, 2);
        int n = 50_000;
        Graph.Builder g = Graph.builder();
        String[] keys = new String[n];
        for (int i = 0; i < n; i++) {
            int v = i;
            keys[i] = "in-" + i;
            g.task(keys[i], args -> (long) v);
        }
        g.task("sum-0", args -> {
            long s = 0;
            for (Object o : args) {
                s += (Long) o;
            }
            return s;
        }, keys);
        Map<String, ClusterFuture<?>> fs = client.submit(g.build());
        ClusterFuture<?> sum = fs.get("sum-0");
        for (ClusterFuture<?> f : fs.values()) {
            if (f != sum) {
                f.release();
            }
        }
        assertThat(sum.get(90, TimeUnit.SECONDS)).isEqualTo((long) n * (n - 1) / 2);
        await("only the sum is held", () -> keysHeld() == 1);
        Reference.reachabilityFence(sum);     // a collected future would be released too
    }

    /**
     * Each dependant finishing asked whether the input was still needed by walking its dependants
     * from the first, past every finished one: quadratic, 115 s for 100,000 dependants run in order
     * on one thread (235 s on 4 workers of 2 threads), a few seconds once fixed.
     */
    @Test
    void oneInputWithAHundredThousandDependantsCompletes() throws Exception {
        Client client = start(1, 1);          // in order: each walk passed every dependant finished before it
        int n = 100_000;
        ClusterFuture<Long> x = client.submit("x", args -> 7L);
        List<ClusterFuture<Long>> inputs = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            inputs.add(x);
        }
        List<ClusterFuture<Long>> ys = client.map("y", args -> (Long) args.get(0) + 1, inputs);
        x.release();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        long sum = 0;
        for (ClusterFuture<Long> y : ys) {
            sum += y.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
        assertThat(sum).isEqualTo(8L * n);
        ys.forEach(ClusterFuture::release);
        await("nothing is held", () -> keysHeld() == 0);
    }

    // ---- bad graphs --------------------------------------------------------------------------

    @Test
    void cyclesAndSelfDependenciesAreRefusedBeforeAnythingIsSubmitted() throws Exception {
        Client client = start(1, 1);
        assertThatThrownBy(() -> TaskSpec.builder("self", args -> 1).dependsOn("self"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("itself");
        Graph.Builder cycle = Graph.builder().task("c-0", args -> 1, "c-2").task("c-1", args -> 1, "c-0")
                .task("c-2", args -> 1, "c-1").task("ok", args -> 1);
        assertThatThrownBy(cycle::build).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cycle");
        // a long cycle: found without overflowing the stack
        Graph.Builder longCycle = Graph.builder();
        int n = 100_000;
        for (int i = 0; i < n; i++) {
            longCycle.task("lc-" + i, args -> 1, "lc-" + ((i + 1) % n));
        }
        assertThatThrownBy(longCycle::build).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cycle");
        // nothing of the refused graphs was taken: their keys are free
        assertThat(client.submit("c-0", args -> 5).get(10, TimeUnit.SECONDS)).isEqualTo(5);
    }

    @Test
    void unknownKeysInAGraphLeaveNoTaskBehind() throws Exception {
        Client client = start(1, 1);
        Graph g = Graph.builder().task("g-0", args -> 1).task("g-1", args -> 2, "g-0", "nowhere").build();
        assertThatThrownBy(() -> client.submit(g)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nowhere");
        assertThat(cluster.taskRecords()).isZero();
        assertThat(client.submit("g-0", args -> 3).get(10, TimeUnit.SECONDS)).isEqualTo(3);
    }

    @Test
    void duplicateKeysAreRefusedWhetherTheFirstRunsFailedOrFinished() throws Exception {
        Client client = start(1, 2);
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ClusterFuture<Integer> slow = client.submit("dup-0", args -> {
            running.countDown();
            release.await(30, TimeUnit.SECONDS);
            return 1;
        });
        assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
        assertThatThrownBy(() -> client.submit("dup-0", args -> 2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("dup-0");
        assertThatThrownBy(() -> client.submit("dup-0", args -> 1)).isInstanceOf(IllegalArgumentException.class);
        release.countDown();
        assertThat(slow.get(10, TimeUnit.SECONDS)).isEqualTo(1);
        assertThatThrownBy(() -> client.submit("dup-0", args -> 1)).isInstanceOf(IllegalArgumentException.class);
        ClusterFuture<Integer> bad = client.submit("dup-1", args -> {
            throw new IllegalStateException("boom");
        });
        assertThatThrownBy(() -> bad.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class);
        assertThatThrownBy(() -> client.submit("dup-1", args -> 1)).isInstanceOf(IllegalArgumentException.class);
        // the same graph twice
        Graph twice = Graph.builder().task("dup-2", args -> 1).build();
        client.submit(twice);
        assertThatThrownBy(() -> client.submit(twice)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void dependenciesOnFailedReleasedAndUnknownKeys() throws Exception {
        Client client = start(2, 1);
        ClusterFuture<Integer> bad = client.submit("dep-bad", args -> {
            throw new ArithmeticException("bad");
        });
        assertThatThrownBy(() -> bad.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class);
        ClusterFuture<Integer> after = client.submit("dep-after", args -> 1, bad);
        assertThatThrownBy(() -> after.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(ArithmeticException.class).hasMessage("bad");
        Graph byKey = Graph.builder().task("dep-after2", args -> 1, "dep-bad").build();
        ClusterFuture<?> after2 = client.submit(byKey).get("dep-after2");
        assertThatThrownBy(() -> after2.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(ArithmeticException.class);

        ClusterFuture<Integer> one = client.submit("dep-one", args -> 1);
        assertThat(one.get(10, TimeUnit.SECONDS)).isEqualTo(1);
        one.release();
        assertThatThrownBy(() -> client.submit("dep-x", args -> 1, one)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("released");
        await("the released value is dropped", () -> keysHeld() == 0);
        // by key, a released result is computed again
        ClusterFuture<?> again = client.submit(Graph.builder()
                .task("dep-two", args -> (Integer) args.get(0) + 1, "dep-one").build()).get("dep-two");
        assertThat(again.get(10, TimeUnit.SECONDS)).isEqualTo(2);

        assertThatThrownBy(() -> client.submit(Graph.builder().task("dep-y", args -> 1, "dep-nothing").build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dep-nothing");
    }

    @Test
    void anInputNamedTwiceIsPassedTwiceAndFreedAfterwards() throws Exception {
        Client client = start(2, 1);
        ClusterFuture<Integer> x = client.submit("twice-x", args -> 4);
        ClusterFuture<Integer> y = client.submit("twice-y", args -> (Integer) args.get(0) * (Integer) args.get(1), x, x);
        x.release();
        assertThat(y.get(10, TimeUnit.SECONDS)).isEqualTo(16);
        await("x is dropped once y no longer needs it", () -> keysHeld() == 1);
        // by key, x is computed again for a second task naming it twice, and dropped again
        ClusterFuture<?> z = client.submit(Graph.builder()
                .task("twice-z", args -> (Integer) args.get(0) + (Integer) args.get(1), "twice-x", "twice-x")
                .build()).get("twice-z");
        assertThat(z.get(10, TimeUnit.SECONDS)).isEqualTo(8);
        await("x is dropped again", () -> keysHeld() == 2);
        assertThat(cluster.stats().tasksReleased()).isEqualTo(2);
        Reference.reachabilityFence(y);
        Reference.reachabilityFence(z);
    }

    // ---- failure in a diamond ----------------------------------------------------------------

    @Test
    void aFailureInADiamondErrsItsDependantsOnlyAndHoldsNothing() throws Exception {
        Client client = start(3, 2);
        ClusterFuture<Integer> a = client.submit("dia-a", args -> 1);
        ClusterFuture<Integer> b = client.submit("dia-b", args -> {
            throw new ArithmeticException("left");
        }, a);
        CountDownLatch cGo = new CountDownLatch(1);
        ClusterFuture<Integer> c = client.submit("dia-c", args -> {
            cGo.await(30, TimeUnit.SECONDS);
            return (Integer) args.get(0) + 2;
        }, a);
        ClusterFuture<Integer> d = client.submit("dia-d", args -> 99, b, c);
        ClusterFuture<Integer> e = client.submit("dia-e", args -> (Integer) args.get(0) + 10, a);
        ClusterFuture<Integer> f = client.submit("dia-f", args -> (Integer) args.get(0) * 2, e);
        assertThatThrownBy(() -> d.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(ArithmeticException.class).hasMessage("left");
        cGo.countDown();
        assertThat(c.get(10, TimeUnit.SECONDS)).isEqualTo(3);
        assertThat(f.get(10, TimeUnit.SECONDS)).isEqualTo(22);
        for (ClusterFuture<?> x : List.of(a, b, c, d, e, f)) {
            x.release();
        }
        await("nothing is held", () -> keysHeld() == 0);
        Map<String, Integer> retained = cluster.retainedForTests();
        assertThat(retained.get("holds")).isZero();
        assertThat(retained.get("processing")).isZero();
        assertThat(retained.get("fetchers")).isZero();
    }

    // ---- results -----------------------------------------------------------------------------

    @Test
    void resultsGatheredOnceManyTimesAfterReleaseAndNull() throws Exception {
        Client client = start(2, 1);
        ClusterFuture<String> nothing = client.submit("res-null", args -> null);
        ClusterFuture<String> next = client.submit("res-next", args -> args.get(0) == null ? "was null" : "?",
                nothing);
        assertThat(nothing.get(10, TimeUnit.SECONDS)).isNull();
        assertThat(next.get(10, TimeUnit.SECONDS)).isEqualTo("was null");
        assertThat(client.gather(Arrays.asList(nothing, nothing, nothing))).containsExactly(null, null, null);
        ClusterFuture<int[]> arr = client.submit("res-arr", args -> new int[] {1, 2, 3});
        int[] first = arr.get(10, TimeUnit.SECONDS);
        for (int i = 0; i < 100; i++) {
            assertThat(arr.get()).isSameAs(first);
        }
        assertThat(client.gather(List.of(arr, arr))).containsExactly(first, first);
        arr.release();
        assertThatThrownBy(arr::get).isInstanceOf(IllegalStateException.class).hasMessageContaining("released");
        assertThatThrownBy(() -> client.gather(List.of(arr))).isInstanceOf(IllegalStateException.class);
        assertThat(arr.isDone()).isTrue();
        nothing.release();
        next.release();
        await("nothing is held", () -> keysHeld() == 0);
    }
}
