/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.workload;

import dev.spindle.Task;
import dev.spindle.pool.WorkStealingPool;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;

/**
 * Unbalanced tree search: counts the nodes of a random tree that exists only as a rule. Every
 * node has a 64-bit id; the id of child {@code i} is a hash of (parent id, {@code i}), and the
 * number of children is drawn from a geometric distribution (mean {@code branching}) by another
 * hash of the node's id, so the same tree comes out on every run and every machine. Nodes at
 * {@code maxDepth} are leaves. Subtree sizes vary wildly, which is what makes the tree hard to
 * balance; no one can know in advance where the work is.
 *
 * <p>Each node above the bottom {@code seqLevels} levels spawns a task per child except the
 * first, which it walks itself, then joins the others newest first. The expected count is
 * computed sequentially once per tree shape and cached.
 */
public final class Uts extends ForkJoinWorkload {

    /**
     * A tree shape.
     *
     * @param seed the root's id
     * @param branching mean number of children of an inner node
     * @param maxDepth depth of the deepest possible nodes (the root is at depth 0)
     * @param hashRounds rounds of hashing that derive a child's id from its parent's: the work
     *     done per node, as UTS does with its per-node hash
     */
    public record Shape(long seed, double branching, int maxDepth, int hashRounds) {
        public Shape {
            if (hashRounds < 1) {
                throw new IllegalArgumentException("hashRounds must be at least 1, was " + hashRounds);
            }
            if (!(branching > 0 && branching < 64)) {
                throw new IllegalArgumentException("branching must be in (0, 64), was " + branching);
            }
            if (maxDepth < 0 || maxDepth > 64) {
                throw new IllegalArgumentException("maxDepth must be in [0, 64], was " + maxDepth);
            }
        }
    }

    /** The benchmark tree: {@value #FULL_NODES} nodes. */
    public static final Shape FULL = new Shape(10, 4.0, 10, 8);
    /**
     * The node count of {@link #FULL}, recorded once; runs check against the sequential count,
     * and a test checks that the two agree.
     */
    public static final long FULL_NODES = 3_747_182;
    public static final int FULL_SEQ_LEVELS = 3;

    /** Most children a node can have; the geometric tail beyond is cut off. */
    static final int MAX_CHILDREN = 64;

    private static final Map<Shape, Long> EXPECTED = new ConcurrentHashMap<>();

    private final Shape shape;
    private final int seqLevels;
    /** {@code thresholds[k]}: a node has more than {@code k} children iff its draw is below it. */
    private final long[] thresholds;

    public Uts(Shape shape, int seqLevels) {
        if (seqLevels < 0) {
            throw new IllegalArgumentException("seqLevels must not be negative, was " + seqLevels);
        }
        this.shape = shape;
        this.seqLevels = seqLevels;
        this.thresholds = thresholds(shape.branching());
    }

    /**
     * P(children > k) = q^(k+1) with q = b / (1 + b), as integer thresholds on a 53-bit draw;
     * computed with {@link StrictMath} so every platform builds the same tree.
     */
    private static long[] thresholds(double branching) {
        double q = branching / (1 + branching);
        long[] t = new long[MAX_CHILDREN];
        for (int k = 0; k < MAX_CHILDREN; k++) {
            t[k] = (long) (StrictMath.pow(q, k + 1) * 0x1p53);
        }
        return t;
    }

    @Override
    public String name() {
        return "uts";
    }

    @Override
    public String describe() {
        return "uts(geometric, b=" + shape.branching() + ", depth " + shape.maxDepth()
                + ", seed " + shape.seed() + ", " + shape.hashRounds() + " hash rounds/node), sequential in the bottom "
                + seqLevels + " levels";
    }

    public Shape shape() {
        return shape;
    }

    /** The node count, computed sequentially on first use and cached per shape. */
    @Override
    public long expected() {
        return EXPECTED.computeIfAbsent(shape, s -> countSequential(s.seed(), 0));
    }

    // ------------------------------------------------------------------ the tree

    private static final long GAMMA = 0x9e3779b97f4a7c15L;

    /** A SplitMix64-style finalizer (xor-shift-multiply): a bijection on 64-bit values with good avalanche. */
    static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
        z = (z ^ (z >>> 29)) * 0xc4ceb9fe1a85ec53L;
        return z ^ (z >>> 32);
    }

    /** The id of child {@code i} of node {@code parent}. */
    long childId(long parent, int i) {
        long z = mix(parent * GAMMA + i + 1);
        for (int r = 1, n = shape.hashRounds(); r < n; r++) {
            z = mix(z + GAMMA);
        }
        return z;
    }

    /** The number of children of node {@code id} at {@code depth}. */
    int children(long id, int depth) {
        if (depth >= shape.maxDepth()) {
            return 0;
        }
        long draw = mix(id ^ 0x5851f42d4c957f2dL) >>> 11;   // uniform in [0, 2^53)
        int k = 0;
        while (k < MAX_CHILDREN && draw < thresholds[k]) {
            k++;
        }
        return k;
    }

    /** Counts the subtree of {@code id} on the calling thread. */
    long countSequential(long id, int depth) {
        long count = 1;
        int k = children(id, depth);
        for (int i = 0; i < k; i++) {
            count += countSequential(childId(id, i), depth + 1);
        }
        return count;
    }

    private boolean sequentialAt(int depth) {
        return shape.maxDepth() - depth <= seqLevels;
    }

    // ------------------------------------------------------------------ Spindle

    @Override
    protected long runSpindle(WorkStealingPool pool) {
        return pool.invoke(() -> count(pool, shape.seed(), 0));
    }

    long count(WorkStealingPool pool, long id, int depth) {
        if (sequentialAt(depth)) {
            return countSequential(id, depth);
        }
        int k = children(id, depth);
        if (k == 0) {
            return 1;
        }
        @SuppressWarnings("unchecked")
        Task<Long>[] rest = new Task[k - 1];
        for (int i = 1; i < k; i++) {
            long child = childId(id, i);
            rest[i - 1] = pool.spawn(() -> count(pool, child, depth + 1));
        }
        long total = 1 + count(pool, childId(id, 0), depth + 1);
        for (int i = k - 2; i >= 0; i--) {
            total += rest[i].join();
        }
        return total;
    }

    // ------------------------------------------------------------------ ForkJoinPool

    @Override
    protected long runForkJoin(ForkJoinPool pool) {
        return pool.invoke(new NodeTask(this, shape.seed(), 0));
    }

    static final class NodeTask extends RecursiveTask<Long> {
        private static final long serialVersionUID = 1L;
        private final transient Uts tree;
        private final long id;
        private final int depth;

        NodeTask(Uts tree, long id, int depth) {
            this.tree = tree;
            this.id = id;
            this.depth = depth;
        }

        @Override
        protected Long compute() {
            return count(tree, id, depth);
        }

        static long count(Uts tree, long id, int depth) {
            if (tree.sequentialAt(depth)) {
                return tree.countSequential(id, depth);
            }
            int k = tree.children(id, depth);
            if (k == 0) {
                return 1;
            }
            NodeTask[] rest = new NodeTask[k - 1];
            for (int i = 1; i < k; i++) {
                NodeTask t = new NodeTask(tree, tree.childId(id, i), depth + 1);
                t.fork();
                rest[i - 1] = t;
            }
            long total = 1 + count(tree, tree.childId(id, 0), depth + 1);
            for (int i = k - 2; i >= 0; i--) {
                total += rest[i].join();
            }
            return total;
        }
    }
}
