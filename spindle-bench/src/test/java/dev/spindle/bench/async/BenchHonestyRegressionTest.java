/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.async;

import static dev.spindle.bench.scripts.AbScript.ab;
import static dev.spindle.bench.scripts.AbScript.report;
import static dev.spindle.bench.scripts.AbScript.script;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.bench.scripts.AbScript.Run;
import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.Poll;
import dev.spindle.bench.actor.ActorKit;
import dev.spindle.bench.actor.ActorKits;
import dev.spindle.bench.actor.ActorWorkload;
import dev.spindle.bench.actor.ActorWorkloads;
import dev.spindle.bench.actor.Addr;
import dev.spindle.bench.actor.Handler;
import dev.spindle.bench.cluster.ClusterWorkloads;
import dev.spindle.bench.workload.Size;
import dev.spindle.cluster.ClusterFuture;
import dev.spindle.cluster.LocalCluster;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Benchmark honesty: a run that cannot finish fails rather than waiting for good, and one in which
 * a handler threw fails rather than posting a time; {@code spindle bench cluster} does on Spindle the work {@code spindle-bench/dask/dask_bench.py}
 * does on Dask, so that the ratio of the two compares the schedulers and nothing else;
 * {@code scripts/ab.sh} compares the two builds it ran, and nothing else.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class BenchHonestyRegressionTest {

    /**
     * {@code contention-barge} spawns its tasks in waves, each once the earlier waves have made half
     * their acquires, and the tasks of a wave wait for one another at a start gate. The wait for
     * the earlier waves had no limit: a runtime that lost one task of a wave (or never ran it) held
     * the whole wave at its gate, and the run, and {@code spindle bench async} with it, waited for
     * good, where every other wait of the async workloads fails after
     * {@link AsyncWorkload#TIMEOUT_SECONDS}. Here the one worker is held by a task that blocks, so
     * the first of the (by default 8) waves never starts.
     */
    @Test
    void aBargeWaveThatCannotStartFailsTheRunInsteadOfWaitingForGood() throws Exception {
        AsyncRuntime rt = AsyncRuntime.builder().workers(1).name("honesty-barge").build();
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch hold = new CountDownLatch(1);
        ExecutorService caller = Executors.newSingleThreadExecutor();
        try {
            rt.spawn(cx -> {
                holding.countDown();
                try {
                    hold.await();                                  // the runtime's one worker, blocked
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return Poll.ready(null);
            });
            assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
            Contention barge = new Contention(Contention.Resource.BARGE, 16, 1, 2, 0).timeout(Duration.ofSeconds(1));
            Future<Contention.Result> run = caller.submit(() -> barge.run(rt));
            assertThatThrownBy(() -> run.get(30, TimeUnit.SECONDS)).as("the run, with its first wave held")
                    .isInstanceOf(ExecutionException.class).cause().isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("contention-barge").hasMessageContaining("wave");
        } finally {
            hold.countDown();
            caller.shutdown();
            assertThat(caller.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
            rt.close();
        }
    }

    /**
     * {@link ActorWorkload#run}: "@throws IllegalStateException if a handler threw". The Spindle
     * kits catch what a handler throws (the actor goes on with its next message) and keep it for
     * {@link ActorKit#firstFailure()}, which the run looked at only while its latch was still shut,
     * every 50 ms. A run whose handler threw once its work was done, and which ended within 50 ms
     * (the quick sizes' runs mostly do), returned its result and its time went into the figures;
     * the failure, kept, then failed whichever later run happened to wait long enough.
     */
    @Test
    void aHandlerThatThrewFailsItsRunEvenWhenTheResultCameOutRight() {
        ActorWorkload count = ActorWorkloads.create("count", Size.TINY);
        try (ActorKit kit = ActorKits.byId("spindle-ws").open(2)) {
            assertThat(count.run(kit)).isEqualTo(count.expected());            // warm: the next run is fast
            ActorKit throwing = new ActorKit() {
                private final AtomicInteger spawned = new AtomicInteger();

                @Override
                public String id() {
                    return kit.id() + "-throwing";
                }

                @Override
                public <M> Addr<M> spawn(Function<Addr<M>, Handler<M>> behaviour) {
                    if (spawned.getAndIncrement() != 0) {
                        return kit.spawn(behaviour);
                    }
                    AtomicInteger handled = new AtomicInteger();
                    return kit.spawn(self -> {
                        Handler<M> h = behaviour.apply(self);
                        return m -> {
                            h.handle(m);                                   // the counter counts, then throws
                            if (handled.incrementAndGet() == 10) {
                                throw new IllegalStateException("injected failure after the work");
                            }
                        };
                    });
                }

                @Override
                public Throwable firstFailure() {
                    return kit.firstFailure();
                }

                @Override
                public void close() {
                }
            };
            assertThatThrownBy(() -> count.run(throwing)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("a handler threw").hasRootCauseMessage("injected failure after the work");
        }
    }

    /**
     * {@code tree}: "the run ends when the root is at the client" (README, BENCHMARKS.md), and
     * dask_bench.py asks Dask for the root alone ({@code client.get(dsk, root)}), letting it drop
     * every other node once its parent has it. The Spindle side held and waited for the future of
     * every one of the 2L - 1 nodes, so its run also delivered every node's value to the client
     * and kept them all on the workers: more work than Dask's, in the ratio of the two.
     */
    @Test
    void theTreeRunWaitsForTheRootAloneAsDasksDoes() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(2).threadsPerWorker(2).build()) {
            ClusterWorkloads.Prepared p = ClusterWorkloads.shape("tree", cluster.client(), "h-", Size.TINY);
            List<? extends ClusterFuture<?>> waited = p.submit();
            assertThat(waited).as("futures the tree run waits for (dask_bench.py: the root's alone)").hasSize(1);
            assertThat(waited.get(0).get(30, TimeUnit.SECONDS)).isEqualTo(32L * 31 / 2);
            p.check();
            assertThat(p.tasks()).as("tasks in the graph, as dask_bench.py counts them").isEqualTo(2 * 32 - 1);
        }
    }

    /** The shuffle waits, as Dask's gather does, for the P combine tasks alone. */
    @Test
    void theShuffleRunWaitsForTheCombinesAloneAsDasksDoes() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(2).threadsPerWorker(2).build()) {
            ClusterWorkloads.Prepared p = ClusterWorkloads.shape("shuffle", cluster.client(), "h-", Size.TINY);
            List<? extends ClusterFuture<?>> waited = p.submit();
            assertThat(waited).hasSize(4);
            for (ClusterFuture<?> f : waited) {
                f.get(30, TimeUnit.SECONDS);
            }
            p.check();
            assertThat(p.tasks()).isEqualTo(4 + 4 * 4 + 4);
        }
    }

    /**
     * ab.sh writes its reports into {@code -o DIR} as {@code fj-A-<round>.json} and
     * {@code fj-B-<round>.json}, and compare-runs.py reads every such file there. Given a directory
     * an earlier comparison had used (BENCHMARKS.md's own example uses {@code -o results/ab}), the
     * earlier run's reports of rounds this run did not reach, of other jars perhaps, went silently
     * into this run's medians and rank test.
     */
    @Test
    void abDoesNotMixAnEarlierRunsReportsIntoItsFigures(@TempDir Path dir) throws Exception {
        Path out = Files.createDirectories(dir.resolve("ab"));
        Files.writeString(out.resolve("fj-A-7.json"), report(100.0));    // an earlier run's round 7
        Run r = ab(dir, Map.of(), "-r", "4", "-o", out.toString(), "A.jar", "B.jar", "--workers", "2");
        assertThat(r.output()).as("ab.sh's output").doesNotContain("100.00");
        if (r.status() == 0) {
            assertThat(r.output()).contains("| fib | 1.00 1.00 1.00 1.00 | 2.00 2.00 2.00 2.00 |");
        } else {
            assertThat(r.output()).contains("fj-A-7.json");
        }
    }

    /**
     * compare-runs.py reads the {@code results} of {@code bench}, {@code bench async} and
     * {@code bench actors}; {@code -s echo} or {@code -s cluster} ran both jars for the whole time
     * and then printed a table without a single row, as if there were nothing to compare.
     */
    @Test
    void abRefusesASuiteItCannotCompare(@TempDir Path dir) throws Exception {
        for (String suite : List.of("echo", "cluster")) {
            Run r = ab(dir, Map.of(), "-r", "1", "-s", suite, "-o", dir.resolve(suite).toString(), "A.jar", "B.jar");
            assertThat(r.status()).as(r.output()).isEqualTo(2);
            assertThat(r.output()).contains("'" + suite + "'").doesNotContain("round 1");
        }
        Run ok = ab(dir, Map.of(), "-r", "1", "-s", "async", "-o", dir.resolve("async").toString(), "A.jar", "B.jar");
        assertThat(ok.status()).as(ok.output()).isZero();
        assertThat(ok.output()).contains("| fib | 1.00 | 2.00 |");
    }

    /**
     * Every published figure since session 6 comes from JVMs with the heap fixed and touched up
     * front ({@code -Xms2g -Xmx2g -XX:+AlwaysPreTouch}): the launcher gives them to every
     * {@code bench} suite and ab.sh to every run, because first-touch page faults of a growing heap
     * made whole runs 2-4x slower at random (BENCHMARKS.md, session 6). scaling.sh, the script
     * BENCHMARKS.md gives for the scaling tables, ran {@code java -jar} without them.
     */
    @Test
    void scalingRunsEverySuiteWithTheFixedPreTouchedHeapAsTheLauncherDoes(@TempDir Path dir) throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path log = dir.resolve("runs.txt");
        script(bin.resolve("java"), "#!/usr/bin/env bash\n"
                + "if [[ \"$1\" == -version ]]; then echo 'fake java'; exit 0; fi\n"
                + "echo \"$*\" >> '" + log + "'\n");
        script(bin.resolve("nproc"), "#!/usr/bin/env bash\necho 4\n");
        Path jar = Files.writeString(dir.resolve("spindle.jar"), "");
        ProcessBuilder pb = new ProcessBuilder("bash", Path.of("scripts", "scaling.sh").toAbsolutePath().toString(),
                dir.resolve("out").toString(), "2", "4").redirectErrorStream(true);
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        pb.environment().put("JAVA", bin.resolve("java").toString());
        pb.environment().put("SPINDLE_JAR", jar.toString());
        for (String v : List.of("SUITES", "ROUNDS", "WARMUP", "JVM_OPTS")) {
            pb.environment().remove(v);
        }
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as(output).isTrue();
        List<String> runs = Files.readAllLines(log);
        assertThat(runs).as("the JVMs scaling.sh ran").hasSize(4)
                .allMatch(r -> r.startsWith("-Xms2g -Xmx2g -XX:+AlwaysPreTouch -jar " + jar + " bench"));
    }
}
