/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.async;

import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.AsyncPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;

/**
 * The runtimes the async workloads compare:
 *
 * <ul>
 *   <li>{@code async-ws}: {@link AsyncRuntime} with {@link AsyncPolicy#WORK_STEALING};</li>
 *   <li>{@code async-hybrid}: {@link AsyncRuntime} with {@link AsyncPolicy#HYBRID};</li>
 *   <li>{@code cf-fjp}: {@code CompletableFuture} stages on a {@code ForkJoinPool} of the same
 *       parallelism in its default (LIFO) mode, as the common pool that CompletableFuture uses
 *       by default;</li>
 *   <li>{@code cf-fjp-async}: the same with {@code asyncMode = true} (FIFO local queues), the
 *       mode meant for event-style tasks that are never joined.</li>
 * </ul>
 */
public final class AsyncTargets {

    /** Whether a target runs {@code AsyncTask}s or {@code CompletableFuture} stages. */
    public enum Family {
        ASYNC("AsyncRuntime"), CF("CompletableFuture");

        private final String label;

        Family(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /** A runtime a workload can run on, open until {@link #close()}. */
    public static final class Target implements AutoCloseable {
        private final String id;
        private final AsyncRuntime rt;
        private final ForkJoinPool pool;

        private Target(String id, AsyncRuntime rt, ForkJoinPool pool) {
            this.id = id;
            this.rt = rt;
            this.pool = pool;
        }

        public String id() {
            return id;
        }

        /** The async runtime, or {@code null} for a CompletableFuture target. */
        public AsyncRuntime runtime() {
            return rt;
        }

        /** The pool, or {@code null} for an async target. */
        public ForkJoinPool pool() {
            return pool;
        }

        /** One checked run of {@code w}. */
        public long run(AsyncWorkload w) {
            return rt != null ? w.run(rt) : w.run(pool);
        }

        @Override
        public void close() {
            if (rt != null) {
                rt.close();
            } else {
                pool.shutdownNow();
                try {
                    pool.awaitTermination(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /**
     * A runtime id with its family and description.
     *
     * @param id the id
     * @param family async or CompletableFuture
     * @param description what it is
     */
    public record Spec(String id, Family family, String description) {

        /** Starts the runtime with {@code workers} threads. */
        public Target open(int workers) {
            switch (id) {
                case "async-ws":
                    return new Target(id, AsyncRuntime.builder().workers(workers)
                            .policy(AsyncPolicy.WORK_STEALING).name("bench-async-ws").build(), null);
                case "async-hybrid":
                    return new Target(id, AsyncRuntime.builder().workers(workers)
                            .policy(AsyncPolicy.HYBRID).name("bench-async-hybrid").build(), null);
                case "cf-fjp":
                    return new Target(id, null, new ForkJoinPool(workers));
                case "cf-fjp-async":
                    return new Target(id, null, new ForkJoinPool(workers,
                            ForkJoinPool.defaultForkJoinWorkerThreadFactory, null, true));
                default:
                    throw new IllegalArgumentException("unknown async runtime '" + id + "'");
            }
        }
    }

    private static final List<Spec> ALL = List.of(
            new Spec("async-ws", Family.ASYNC, "AsyncRuntime, WORK_STEALING scheduler, budget 128"),
            new Spec("async-hybrid", Family.ASYNC, "AsyncRuntime, HYBRID scheduler (most-woken first), budget 128"),
            new Spec("cf-fjp", Family.CF, "CompletableFuture *Async stages on a ForkJoinPool (LIFO, as the common pool)"),
            new Spec("cf-fjp-async", Family.CF, "CompletableFuture *Async stages on a ForkJoinPool with asyncMode = true (FIFO)"));

    private AsyncTargets() {
    }

    /** Every runtime id, in report order. */
    public static List<String> ids() {
        List<String> out = new ArrayList<>();
        for (Spec s : ALL) {
            out.add(s.id());
        }
        return List.copyOf(out);
    }

    /**
     * The runtime called {@code id}.
     *
     * @throws IllegalArgumentException naming the valid ids if there is none by that name
     */
    public static Spec byId(String id) {
        for (Spec s : ALL) {
            if (s.id().equals(id)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown async runtime '" + id + "'; valid: " + String.join(", ", ids()));
    }
}
