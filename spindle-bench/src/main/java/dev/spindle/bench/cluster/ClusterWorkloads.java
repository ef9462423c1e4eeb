/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.cluster;

import dev.spindle.cluster.Client;
import dev.spindle.cluster.ClusterFuture;
import dev.spindle.cluster.Graph;
import dev.spindle.cluster.Restrictions;
import dev.spindle.cluster.Sized;
import dev.spindle.cluster.TaskSpec;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The cluster benchmark's graphs. Compute is simulated by sleeping, so that the lower bound
 * {@code max(total work / threads, critical path)} holds however many cores the machine has.
 */
final class ClusterWorkloads {

    private ClusterWorkloads() {
    }

    /** A synthetic payload of a given size, without allocating it. */
    record Block(long bytes) implements Sized, Serializable {
        @Override
        public long sizeInBytes() {
            return bytes;
        }
    }

    /** A prepared graph: submit it, then wait for {@code futures}. */
    interface Prepared {
        List<? extends ClusterFuture<?>> submit();

        /** Total compute seconds. */
        double work();

        /** Longest chain of compute seconds. */
        double criticalPath();
    }

    /**
     * Many independent slow tasks on small data, all placed on worker 0 by a loose restriction:
     * stealing should spread them.
     */
    static Prepared skewedSlow(Client client, String tag, int tasks, int millis) throws Exception {
        ClusterFuture<Integer> seed = client.scatter(tag + "seed", 100, 0);
        seed.get();
        return independent(tasks, millis, () -> {
            List<ClusterFuture<Integer>> out = new ArrayList<>(tasks);
            for (int i = 0; i < tasks; i++) {
                int v = i;
                out.add(client.submit(TaskSpec.builder(tag + "slow-" + i, args -> {
                    Thread.sleep(millis);
                    return (Integer) args.get(0) + v;
                }).dependsOn(seed).restrictions(Restrictions.loose(Set.of(0))).build()));
            }
            return out;
        });
    }

    /**
     * Many fast tasks on one large input held by worker 0: moving the input costs more than
     * waiting, so stealing must leave them.
     */
    static Prepared largeDataFast(Client client, String tag, int tasks, int millis, long bytes) throws Exception {
        ClusterFuture<Block> data = client.scatter(tag + "data", new Block(bytes), 0);
        data.get();
        return independent(tasks, millis, () -> {
            List<ClusterFuture<Long>> out = new ArrayList<>(tasks);
            for (int i = 0; i < tasks; i++) {
                out.add(client.submit(TaskSpec.builder(tag + "sum-" + i, args -> {
                    Thread.sleep(millis);
                    return ((Block) args.get(0)).bytes();
                }).dependsOn(data).restrictions(Restrictions.loose(Set.of(0))).build()));
            }
            return out;
        });
    }

    /** Independent tasks of {@code millis} each: the critical path is one task. */
    private static Prepared independent(int tasks, int millis, Supplier<List<? extends ClusterFuture<?>>> submit) {
        return new Prepared() {
            @Override
            public List<? extends ClusterFuture<?>> submit() {
                return submit.get();
            }

            @Override
            public double work() {
                return tasks * millis / 1e3;
            }

            @Override
            public double criticalPath() {
                return millis / 1e3;
            }
        };
    }

    /** A binary tree summing {@code leaves} values, every task sleeping {@code millis}. */
    static Prepared treeReduction(Client client, String tag, int leaves, int millis) {
        return new Prepared() {
            @Override
            public List<? extends ClusterFuture<?>> submit() {
                Graph.Builder g = Graph.builder();
                List<String> level = new ArrayList<>();
                for (int i = 0; i < leaves; i++) {
                    long v = i;
                    String key = tag + "leaf-" + i;
                    g.task(key, args -> {
                        Thread.sleep(millis);
                        return v;
                    });
                    level.add(key);
                }
                int n = 0;
                while (level.size() > 1) {
                    List<String> next = new ArrayList<>();
                    for (int i = 0; i + 1 < level.size(); i += 2) {
                        String key = tag + "add-" + n++;
                        g.task(key, args -> {
                            Thread.sleep(millis);
                            return (Long) args.get(0) + (Long) args.get(1);
                        }, level.get(i), level.get(i + 1));
                        next.add(key);
                    }
                    if (level.size() % 2 == 1) {
                        next.add(level.get(level.size() - 1));
                    }
                    level = next;
                }
                return new ArrayList<>(client.submit(g.build()).values());
            }

            @Override
            public double work() {
                return (2 * leaves - 1) * millis / 1e3;
            }

            @Override
            public double criticalPath() {
                int depth = 1;
                for (int n = leaves; n > 1; n = (n + 1) / 2) {
                    depth++;
                }
                return depth * millis / 1e3;
            }
        };
    }
}
