/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.cluster;

import dev.spindle.bench.workload.Size;
import dev.spindle.bench.workload.WrongResultException;
import dev.spindle.cluster.Client;
import dev.spindle.cluster.ClusterFuture;
import dev.spindle.cluster.Graph;
import dev.spindle.cluster.Restrictions;
import dev.spindle.cluster.Sized;
import dev.spindle.cluster.TaskSpec;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;

/**
 * The cluster benchmarks' graphs, for {@link ClusterBench} (makespan against the bound, stealing
 * on and off) and for {@code spindle bench cluster} (the shapes {@link #SHAPES}, side by side with
 * Dask: {@code spindle-bench/dask/dask_bench.py} builds the same graphs with the same keys and
 * sizes). Slow tasks sleep instead of computing, so that the lower bound
 * {@code max(total work / threads, critical path)} holds however many cores the machine has.
 *
 * <p>Keys are {@code <kind>-<tag><i>}: the scheduler learns durations per kind (the key up to its
 * first dash), and a tag per round keeps rounds apart on a cluster that serves several rounds.
 * Every graph checks its results against a value computed here, independently of the tasks.
 */
public final class ClusterWorkloads {

    /** The shapes {@code spindle bench cluster} runs, in report order. */
    public static final List<String> SHAPES = List.of("tiny", "tree", "skewed", "shuffle");

    private ClusterWorkloads() {
    }

    /** A synthetic payload of a given size, without allocating it. */
    record Block(long bytes) implements Sized, Serializable {
        @Override
        public long sizeInBytes() {
            return bytes;
        }
    }

    /** A prepared graph: submit it, wait for the futures it returns, then check them. */
    public interface Prepared {
        /** Submits the graph; the run is over when every returned future is done. */
        List<? extends ClusterFuture<?>> submit();

        /** Tasks in the graph. */
        int tasks();

        /** Total compute seconds (0 for graphs of tiny tasks). */
        double work();

        /** Longest chain of compute seconds (0 for graphs of tiny tasks). */
        double criticalPath();

        /**
         * Checks the results of the futures {@link #submit} returned.
         *
         * @throws WrongResultException if a result is not the known answer
         */
        void check() throws InterruptedException, ExecutionException;
    }

    /**
     * The shape {@code name} at {@code size} ({@link Size#TINY} for tests, else the benchmark
     * sizes, which are also dask_bench.py's).
     *
     * @throws IllegalArgumentException for a name not in {@link #SHAPES}
     */
    public static Prepared shape(String name, Client client, String tag, Size size) throws Exception {
        boolean small = size == Size.TINY;
        switch (name) {
            case "tiny":
                return tiny(client, tag, small ? 50 : 5_000);
            case "tree":
                return treeReduction(client, tag, small ? 32 : 4_096, 0);
            case "skewed":
                return skewedSlow(client, tag, small ? 8 : 160, small ? 5 : 40);
            case "shuffle":
                return shuffle(client, tag, small ? 4 : 32, small ? 64 : 4_096);
            default:
                throw new IllegalArgumentException("unknown shape '" + name + "'; valid: " + String.join(", ", SHAPES));
        }
    }

    /** {@code tasks} independent tasks {@code inc(i)} without inputs: the scheduler's per-task cost. */
    static Prepared tiny(Client client, String tag, int tasks) {
        return new Checked<Long>(tasks, 0, 0) {
            @Override
            List<ClusterFuture<Long>> run() {
                Graph.Builder g = Graph.builder();
                List<String> keys = new ArrayList<>(tasks);
                for (int i = 0; i < tasks; i++) {
                    long v = i;
                    String key = "inc-" + tag + i;
                    g.task(key, args -> v + 1);
                    keys.add(key);
                }
                return ordered(client.submit(g.build()), keys);
            }

            @Override
            void check(List<Long> results) {
                long sum = 0;
                for (long r : results) {
                    sum += r;
                }
                expect("sum of inc(i)", (long) tasks * (tasks + 1) / 2, sum);
            }
        };
    }

    /**
     * Many independent slow tasks on small data, all placed on worker 0 by a loose restriction:
     * stealing should spread them.
     */
    static Prepared skewedSlow(Client client, String tag, int tasks, int millis) throws Exception {
        ClusterFuture<Integer> seed = client.scatter("seed-" + tag, 100, 0);
        seed.get();
        return new Checked<Integer>(tasks, tasks * millis / 1e3, millis / 1e3) {
            @Override
            List<ClusterFuture<Integer>> run() {
                List<ClusterFuture<Integer>> out = new ArrayList<>(tasks);
                for (int i = 0; i < tasks; i++) {
                    int v = i;
                    out.add(client.submit(TaskSpec.builder("slow-" + tag + i, args -> {
                        Thread.sleep(millis);
                        return (Integer) args.get(0) + v;
                    }).dependsOn(seed).restrictions(Restrictions.loose(Set.of(0))).build()));
                }
                return out;
            }

            @Override
            void check(List<Integer> results) {
                long sum = 0;
                for (int r : results) {
                    sum += r;
                }
                expect("sum of seed + i", 100L * tasks + (long) tasks * (tasks - 1) / 2, sum);
            }
        };
    }

    /**
     * Many fast tasks on one large input held by worker 0: moving the input costs more than
     * waiting, so stealing must leave them.
     */
    static Prepared largeDataFast(Client client, String tag, int tasks, int millis, long bytes) throws Exception {
        ClusterFuture<Block> data = client.scatter("data-" + tag, new Block(bytes), 0);
        data.get();
        return new Checked<Long>(tasks, tasks * millis / 1e3, millis / 1e3) {
            @Override
            List<ClusterFuture<Long>> run() {
                List<ClusterFuture<Long>> out = new ArrayList<>(tasks);
                for (int i = 0; i < tasks; i++) {
                    out.add(client.submit(TaskSpec.builder("sum-" + tag + i, args -> {
                        Thread.sleep(millis);
                        return ((Block) args.get(0)).bytes();
                    }).dependsOn(data).restrictions(Restrictions.loose(Set.of(0))).build()));
                }
                return out;
            }

            @Override
            void check(List<Long> results) {
                for (long r : results) {
                    expect("input size seen by a task", bytes, r);
                }
            }
        };
    }

    /**
     * A binary tree summing {@code leaves} values (leaf {@code i} computes {@code i}), every task
     * sleeping {@code millis} (none for 0). The run waits for the root alone, and the check reads
     * it: dask_bench.py asks Dask for the root alone ({@code client.get(dsk, root)}), so waiting
     * here for every node, as this did, delivered 2L - 1 values to the client against Dask's one.
     */
    static Prepared treeReduction(Client client, String tag, int leaves, int millis) {
        int depth = 1;
        for (int n = leaves; n > 1; n = (n + 1) / 2) {
            depth++;
        }
        return new Checked<Long>(2 * leaves - 1, (2 * leaves - 1) * millis / 1e3, depth * millis / 1e3) {
            private String root;

            @Override
            List<ClusterFuture<Long>> run() {
                Graph.Builder g = Graph.builder();
                List<String> level = new ArrayList<>();
                for (int i = 0; i < leaves; i++) {
                    long v = i;
                    String key = "leaf-" + tag + i;
                    g.task(key, args -> {
                        pause(millis);
                        return v;
                    });
                    level.add(key);
                }
                int n = 0;
                while (level.size() > 1) {
                    List<String> next = new ArrayList<>();
                    for (int i = 0; i + 1 < level.size(); i += 2) {
                        String key = "add-" + tag + n++;
                        g.task(key, args -> {
                            pause(millis);
                            return (Long) args.get(0) + (Long) args.get(1);
                        }, level.get(i), level.get(i + 1));
                        next.add(key);
                    }
                    if (level.size() % 2 == 1) {
                        next.add(level.get(level.size() - 1));
                    }
                    level = next;
                }
                root = level.get(0);
                return ordered(client.submit(g.build()), List.of(root));
            }

            @Override
            void check(List<Long> results) {
                expect("tree sum", (long) leaves * (leaves - 1) / 2, results.get(results.size() - 1));
            }
        };
    }

    /**
     * An all-to-all: {@code partitions} split tasks each make {@code partitions} buckets of
     * {@code bucketBytes} bytes (bucket {@code j} of split {@code i} filled with
     * {@code (31 i + j) mod 256}), {@code partitions²} getitem tasks each pick one bucket, and
     * combine task {@code j} sums the bytes of bucket {@code j} of every split.
     */
    static Prepared shuffle(Client client, String tag, int partitions, int bucketBytes) {
        return new Checked<Long>(partitions * (partitions + 2), 0, 0) {
            @Override
            List<ClusterFuture<Long>> run() {
                Graph.Builder g = Graph.builder();
                for (int i = 0; i < partitions; i++) {
                    int split = i;
                    g.task("split-" + tag + i, args -> {
                        byte[][] buckets = new byte[partitions][bucketBytes];
                        for (int j = 0; j < partitions; j++) {
                            Arrays.fill(buckets[j], (byte) (31 * split + j));
                        }
                        return buckets;
                    });
                }
                for (int i = 0; i < partitions; i++) {
                    for (int j = 0; j < partitions; j++) {
                        int bucket = j;
                        g.task("getitem-" + tag + i + "-" + j, args -> ((byte[][]) args.get(0))[bucket],
                                "split-" + tag + i);
                    }
                }
                List<String> keys = new ArrayList<>();
                for (int j = 0; j < partitions; j++) {
                    String[] inputs = new String[partitions];
                    for (int i = 0; i < partitions; i++) {
                        inputs[i] = "getitem-" + tag + i + "-" + j;
                    }
                    String key = "combine-" + tag + j;
                    g.task(key, args -> {
                        long sum = 0;
                        for (Object a : args) {
                            for (byte b : (byte[]) a) {
                                sum += b & 0xff;
                            }
                        }
                        return sum;
                    }, inputs);
                    keys.add(key);
                }
                return ordered(client.submit(g.build()), keys);
            }

            @Override
            void check(List<Long> results) {
                for (int j = 0; j < partitions; j++) {
                    long want = 0;
                    for (int i = 0; i < partitions; i++) {
                        want += (31L * i + j) % 256;
                    }
                    expect("combine " + j, want * bucketBytes, results.get(j));
                }
            }
        };
    }

    /**
     * A graph whose {@link #run} submits it and returns the futures to wait for, whose results
     * {@link #check(List)} then checks in that order.
     */
    abstract static class Checked<T> implements Prepared {
        private final int tasks;
        private final double work;
        private final double criticalPath;
        private List<ClusterFuture<T>> futures;

        Checked(int tasks, double work, double criticalPath) {
            this.tasks = tasks;
            this.work = work;
            this.criticalPath = criticalPath;
        }

        abstract List<ClusterFuture<T>> run();

        abstract void check(List<T> results);

        @Override
        public final List<? extends ClusterFuture<?>> submit() {
            futures = run();
            return futures;
        }

        @Override
        public final int tasks() {
            return tasks;
        }

        @Override
        public final double work() {
            return work;
        }

        @Override
        public final double criticalPath() {
            return criticalPath;
        }

        @Override
        public final void check() throws InterruptedException, ExecutionException {
            if (futures == null) {
                throw new IllegalStateException("check() before submit()");
            }
            List<T> results = new ArrayList<>(futures.size());
            for (ClusterFuture<T> f : futures) {
                results.add(f.get());
            }
            check(results);
        }
    }

    /**
     * The futures of {@code keys}, in that order; every other future of the graph is released at
     * once. Dask keeps only the keys a client asks for ({@code client.get(dsk, keys)}) and drops
     * each other value once its dependents have it; a released future's dependents still get its
     * value, so the workers here hold no more than Dask's do (left to the futures' cleaner, the
     * values of earlier rounds stayed until a garbage collection).
     */
    @SuppressWarnings("unchecked")
    private static <T> List<ClusterFuture<T>> ordered(Map<String, ClusterFuture<?>> byKey, List<String> keys) {
        List<ClusterFuture<T>> out = new ArrayList<>(keys.size());
        for (String k : keys) {
            out.add((ClusterFuture<T>) byKey.get(k));
        }
        Set<String> wanted = Set.copyOf(keys);
        byKey.forEach((k, f) -> {
            if (!wanted.contains(k)) {
                f.release();
            }
        });
        return out;
    }

    private static void pause(int millis) throws InterruptedException {
        if (millis > 0) {
            Thread.sleep(millis);
        }
    }

    private static void expect(String what, long expected, long actual) {
        if (expected != actual) {
            throw new WrongResultException(what, expected, actual);
        }
    }
}
