/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.spindle.testkit.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The stats' tasks in memory and tasks erred are counts the scheduler keeps as records change
 * state, are replaced and are forgotten ({@link StateCounts}); they equal a walk of the records
 * (what the stats did before) through results, failures with their dependents, retries,
 * resubmissions (by a retried task) of keys in memory and of failed ones, and releases, with
 * records forgotten and kept. The scheduler's own check ({@link GraphScheduler#checkCountsForTests}) recounts them after
 * every event as well.
 */
class StatsCountTheRecordsAsAWalkDoesTest {

    @ParameterizedTest(name = "forgetReleased {0}")
    @ValueSource(booleans = {false, true})
    void tasksInMemoryAndErredEqualAWalkOfTheRecords(boolean forget) throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(3).threadsPerWorker(2).latency(Duration.ZERO)
                .bandwidth(1e12).retries(1).forgetReleased(forget).build()) {
            cluster.checkCountsForTests();    // and after every event from here on
            Client client = cluster.client();
            List<ClusterFuture<Integer>> roots = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                int n = i;
                roots.add(client.submit("r" + i, args -> {
                    if (n % 7 == 3) {
                        throw new IllegalStateException("fails for good");
                    }
                    return n;
                }));
            }
            List<ClusterFuture<Integer>> sums = new ArrayList<>();
            for (int i = 0; i + 1 < roots.size(); i += 2) {
                sums.add(client.submit("s" + i, args -> (Integer) args.get(0) + (Integer) args.get(1),
                        roots.get(i), roots.get(i + 1)));
            }
            settle(sums);
            assertCountsMatchAWalk(cluster, "after the first graph");

            // resubmitted: a retried task submits its nested keys again, and their records, in
            // memory or failed, are replaced by new ones
            AtomicInteger attempts = new AtomicInteger();
            ClusterFuture<Integer> parent = client.submit("parent", args -> {
                boolean first = attempts.incrementAndGet() == 1;
                int total = 0;
                for (int i = 0; i < 6; i++) {
                    int n = i;
                    ClusterFuture<Integer> nested = client.submit("nested" + i, a -> {
                        if (first && n % 3 == 0) {
                            throw new IllegalStateException("fails under the first attempt");
                        }
                        return n;
                    });
                    try {
                        total += nested.get(30, TimeUnit.SECONDS);
                    } catch (ExecutionException e) {
                        total -= 100;
                    }
                }
                if (first) {
                    throw new IllegalStateException("retried");
                }
                return total;
            });
            assertThat(parent.get(60, TimeUnit.SECONDS)).as("the second attempt's sum").isEqualTo(15);
            assertCountsMatchAWalk(cluster, "after resubmissions");

            // released: some results are dropped (and, forgetting, their records with them)
            for (int i = 0; i < sums.size(); i += 2) {
                sums.get(i).release();
            }
            for (ClusterFuture<Integer> f : roots) {
                f.release();
            }
            // the releases are handled on the scheduler thread: the stats, taken after them there, see them
            cluster.checkCountsForTests();
            assertCountsMatchAWalk(cluster, "after releases");
        }
    }

    private static void settle(List<ClusterFuture<Integer>> futures) {
        for (ClusterFuture<Integer> f : futures) {
            catchThrowable(() -> f.get(30, TimeUnit.SECONDS));
        }
    }

    /**
     * The stats and the walk are two calls on the scheduler's thread, and events it handles between
     * them change the records: the nested tasks' futures, unreachable once their task returned, are
     * released by the cleaner whenever a collection finds them (CI once read 13 tasks in memory in
     * the stats and 8 in the walk just after, forgetting released records); so the pair is read again until they agree, within
     * a bound. Counts that differ from the walk for good (a forgotten record left counted) fail it,
     * naming both; the scheduler's own check (on since the test's start) compares them after every
     * event, on its thread.
     */
    private static void assertCountsMatchAWalk(LocalCluster cluster, String when) throws InterruptedException {
        int[][] last = new int[1][];
        try {
            Await.until("the stats to equal a walk of the records " + when, Duration.ofSeconds(20), () -> {
                last[0] = statsAndWalk(cluster);
                return last[0][0] == last[0][2] && last[0][1] == last[0][3];
            });
        } catch (AssertionError timedOut) {
            assertThat(new int[] {last[0][0], last[0][1]}).as("in memory and erred " + when)
                    .containsExactly(last[0][2], last[0][3]);
            throw timedOut;
        }
        assertThat(last[0][2] + last[0][3]).as("records counted " + when).isPositive();
        cluster.checkCountsForTests();
    }

    /** The stats' tasks in memory and erred, then a walk's. */
    private static int[] statsAndWalk(LocalCluster cluster) {
        ClusterStats stats = cluster.stats();
        int[] walked = cluster.inspectTasks((tasks, workers) -> {
            int[] n = new int[2];
            for (TaskState t : tasks.values()) {
                if (t.state == TaskState.State.MEMORY) {
                    n[0]++;
                } else if (t.state == TaskState.State.ERRED) {
                    n[1]++;
                }
            }
            return n;
        });
        return new int[] {stats.tasksInMemory(), stats.tasksErred(), walked[0], walked[1]};
    }
}
