/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The scheduler's occupancy kept as running totals ({@link WorkerLoad}) against the brute-force
 * sum it replaced, {@code sum of expected(t) over the worker's processing tasks}, kept here as
 * the oracle: after every step of random assigns, finishes, errors, steals, long-running
 * re-estimates and a lost worker, driven by hand through a recording transport.
 */
class OccupancyTest {

    private final RecordingTransport transport = new RecordingTransport();
    /** Balance rounds only when the test asks; failures retried, so erring a task re-places it. */
    private final GraphScheduler scheduler = new GraphScheduler(CoordinatorSettings.builder().workers(3)
            .threadsPerWorker(2).stealing(false).balanceInterval(Duration.ZERO).retries(5).build(), transport);
    /** The latest assignment of each key: its worker and attempt. */
    private final Map<String, long[]> assigned = new HashMap<>();
    private int seen;

    @AfterEach
    void close() {
        scheduler.close();
    }

    /** The old {@code GraphScheduler.occupancy}: the oracle. */
    private static double bruteForce(WorkerState w, DurationEstimates durations) {
        double occ = 0;
        for (TaskState t : w.processing) {
            occ += durations.estimate(t.spec.prefix(), t.hintSeconds());
        }
        return occ;
    }

    private void assertOccupanciesMatchTheOracle(String step) {
        List<double[]> pairs = scheduler.inspect((ws, durations) -> {
            List<double[]> out = new ArrayList<>();
            for (WorkerState w : ws) {
                out.add(new double[] {scheduler.occupancy(w), bruteForce(w, durations)});
            }
            return out;
        });
        for (int i = 0; i < pairs.size(); i++) {
            double[] p = pairs.get(i);
            assertThat(p[0]).as("worker %d after %s", i, step).isCloseTo(p[1], within(1e-9 * Math.max(1, p[1])));
        }
    }

    /** Records the computes and steal requests sent since the last call. */
    private List<RecordingTransport.Sent> newlySent() {
        List<RecordingTransport.Sent> all = transport.sentToWorkers();
        List<RecordingTransport.Sent> fresh = new ArrayList<>(all.subList(seen, all.size()));
        seen = all.size();
        for (RecordingTransport.Sent s : fresh) {
            if (s.message() instanceof Message.Compute c) {
                assigned.put(c.key(), new long[] {s.worker(), c.attempt()});
            }
        }
        return fresh;
    }

    private void reply(Message.ToScheduler m) {
        scheduler.receive(m);
        scheduler.stealEvents();     // a call queued behind the message: a barrier
    }

    private static final String[] PREFIXES = {"a", "b", "c", "d", "solo"};

    @Test
    void runningTotalsEqualTheBruteForceSum() {
        Random random = new Random(17);
        int next = 0;
        for (int step = 0; step < 2000; step++) {
            int op = random.nextInt(10);
            String what;
            if (op < 3 || assigned.isEmpty()) {
                List<TaskSpec<?>> specs = new ArrayList<>();
                for (int i = random.nextInt(6); i >= 0; i--) {
                    String prefix = PREFIXES[random.nextInt(PREFIXES.length)];
                    String key = prefix.equals("solo") ? "solo" + next++ : prefix + "-" + next++;
                    TaskSpec.Builder<Object> b = TaskSpec.builder(key, args -> 1);
                    if (random.nextBoolean()) {
                        b.durationHint(Duration.ofMillis(random.nextInt(3000)));
                    }
                    if (random.nextInt(4) == 0) {
                        b.restrictions(Restrictions.loose(java.util.Set.of(random.nextInt(3))));
                    }
                    specs.add(b.build());
                }
                what = submitAll(specs);
            } else {
                String key = anyAssigned(random);
                long[] at = assigned.get(key);
                int worker = (int) at[0];
                if (op < 6) {
                    what = finish(key, 8, random.nextInt(2_000_000_000));
                } else if (op == 6) {
                    reply(new Message.TaskErred(worker, key, at[1], new IllegalStateException("x"), 1000));
                    what = "erring " + key;
                } else if (op == 7) {
                    // a long-running report, now and then far beyond the kind's estimate
                    long nanos = random.nextBoolean() ? random.nextInt(100_000_000) : 1_000_000_000L + random.nextInt(2_000_000_000);
                    reply(new Message.TaskRunning(worker, key, at[1], nanos));
                    what = "running " + key;
                } else if (op == 8) {
                    scheduler.balanceNow();
                    for (RecordingTransport.Sent s : newlySent()) {
                        if (s.message() instanceof Message.StealRequest r) {
                            reply(new Message.StealResponse(s.worker(), r.stealId(), r.key(), r.attempt(), random.nextBoolean()));
                        }
                    }
                    what = "a balance round";
                } else if (!lost) {
                    what = lose(worker);
                } else {
                    continue;
                }
            }
            newlySent();
            assertOccupanciesMatchTheOracle("step " + step + ": " + what);
        }
    }

    private String submitAll(List<TaskSpec<?>> specs) {
        scheduler.submit(specs);
        return "submitting " + specs.size();
    }

    /** Reports the task of {@code key} finished where it was assigned: a value of {@code bytes}, after {@code nanos}. */
    private String finish(String key, long bytes, long nanos) {
        long[] at = assigned.remove(key);
        reply(new Message.TaskFinished((int) at[0], key, at[1], 1, bytes, nanos));
        return "finishing " + key;
    }

    /** Whether a worker has been lost: each random run loses one, once. */
    private boolean lost;

    /** Loses {@code worker}; returns what happened, for the step's message. */
    private String lose(int worker) {
        lost = true;
        reply(new Message.WorkerLost(worker));
        return "losing worker " + worker;
    }

    /** The key of a task assigned now, any of them. */
    private String anyAssigned(Random random) {
        List<String> keys = new ArrayList<>(assigned.keySet());
        return keys.get(random.nextInt(keys.size()));
    }

    /** Runs "inc-first" to completion, so that the kind "inc" is measured. */
    private void measureInc() {
        scheduler.submit(List.of(TaskSpec.builder("inc-first", args -> 1).build()));
        newlySent();
        long[] at = assigned.get("inc-first");
        reply(new Message.TaskFinished((int) at[0], "inc-first", at[1], 1, 8, 1_000_000));
    }

    @Test
    void placingATaskDoesNotWalkTheTasksAlreadyQueued() {
        // one kind, measured, then n tasks of it placed one after another
        measureInc();
        int n = 2000;
        List<TaskSpec<?>> specs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            specs.add(TaskSpec.builder("inc-" + i, args -> 1).build());
        }
        long before = scheduler.inspect((ws, d) -> d.estimatesAsked());
        scheduler.submit(specs);
        long asked = scheduler.inspect((ws, d) -> d.estimatesAsked()) - before;
        // a constant number per placement (one per worker and kind); walking the queues asks n^2 / 2
        assertThat(asked).isLessThanOrEqualTo(10L * n);
        assertOccupanciesMatchTheOracle("placing " + n);
    }

    // ---- the transfer costs in the balance round's occupancies ----------------------------

    /** The old round's sum, {@code transferCost(t, w)} over the worker's processing tasks, as count and bytes. */
    private static long[] bruteForceMissing(WorkerState w) {
        long tasks = 0;
        long bytes = 0;
        for (TaskState t : w.processing) {
            boolean missing = false;
            for (TaskState d : t.dependencies) {
                if (!d.holders.contains(w.id)) {
                    bytes += d.bytes;
                    missing = true;
                }
            }
            tasks += missing ? 1 : 0;
        }
        return new long[] {tasks, bytes};
    }

    private void assertTransferCostsMatchTheOracle(String step) {
        List<long[]> rows = scheduler.inspect((ws, durations) -> {
            List<long[]> out = new ArrayList<>();
            for (WorkerState w : ws) {
                long[] oracle = bruteForceMissing(w);
                out.add(new long[] {w.tasksMissingData(), w.bytesMissing(), oracle[0], oracle[1]});
            }
            return out;
        });
        for (int i = 0; i < rows.size(); i++) {
            long[] r = rows.get(i);
            assertThat(new long[] {r[0], r[1]}).as("worker %d after %s: tasks lacking data, bytes lacked", i, step)
                    .containsExactly(r[2], r[3]);
        }
    }

    @Test
    void transferTotalsEqualTheBruteForceSumAsDataMoves() {
        Random random = new Random(23);
        List<String> done = new ArrayList<>();          // results in memory somewhere
        int next = 0;
        for (int step = 0; step < 2000; step++) {
            int op = random.nextInt(10);
            String what;
            if (op < 3 || assigned.isEmpty()) {
                List<TaskSpec<?>> specs = new ArrayList<>();
                for (int i = random.nextInt(4); i >= 0; i--) {
                    TaskSpec.Builder<Object> b = TaskSpec.builder("t-" + next++, args -> 1);
                    for (int d = random.nextInt(3); d > 0 && !done.isEmpty(); d--) {
                        String dep = done.get(random.nextInt(done.size()));
                        if (!b.build().dependencies().contains(dep)) {
                            b.dependsOn(dep);
                        }
                    }
                    specs.add(b.build());
                }
                what = submitAll(specs);
            } else {
                String key = anyAssigned(random);
                long[] at = assigned.get(key);
                int worker = (int) at[0];
                if (op < 6) {
                    what = finish(key, random.nextInt(1 << 20), 1_000_000);
                    done.add(key);
                } else if (op < 8 && !done.isEmpty()) {
                    // a copy of a result arrives on some worker (a fetch, a replica)
                    String dep = done.get(random.nextInt(done.size()));
                    int to = random.nextInt(3);
                    reply(new Message.DataAdded(to, dep, 1));
                    what = "a copy of " + dep + " on " + to;
                } else if (op == 8) {
                    // the task's worker could not fetch a dependency: the holder lost it
                    List<String> deps = scheduler.inspect((ws, d) -> {
                        List<String> out = new ArrayList<>();
                        for (WorkerState w : ws) {
                            for (TaskState t : w.processing) {
                                if (t.key().equals(key)) {
                                    t.dependencies.forEach(x -> out.add(x.key() + "@" + x.holders.stream().findFirst().orElse(-1)));
                                }
                            }
                        }
                        return out;
                    });
                    if (deps.isEmpty()) {
                        continue;
                    }
                    String[] dep = deps.get(0).split("@");
                    reply(new Message.DataMissing(worker, key, at[1], dep[0], Integer.parseInt(dep[1])));
                    what = "missing " + dep[0] + " for " + key;
                } else if (!lost) {
                    what = lose(worker);
                } else {
                    continue;
                }
            }
            newlySent();
            assertTransferCostsMatchTheOracle("step " + step + ": " + what);
        }
    }

    @Test
    void aBalanceRoundWithNobodyIdleDoesNotWalkTheProcessingTasks() {
        measureInc();
        int n = 3000;
        List<TaskSpec<?>> specs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            specs.add(TaskSpec.builder("inc-" + i, args -> 1).dependsOn("inc-first").build());
        }
        scheduler.submit(specs);
        long asked = scheduler.inspect((ws, d) -> {
            long before = d.estimatesAsked();
            BalanceSnapshot s = scheduler.snapshot();
            assertThat(s.tasks()).as("every worker busy: no task described").isEmpty();
            return d.estimatesAsked() - before;
        });
        // one per worker and kind; summing each task's estimate asks n
        assertThat(asked).isLessThanOrEqualTo(10L);
        assertTransferCostsMatchTheOracle("placing " + n);
    }
}
