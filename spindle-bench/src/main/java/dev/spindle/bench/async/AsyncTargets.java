/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.async;

import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.AsyncPolicy;
import dev.spindle.bench.runtime.VirtualThreads;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
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
 *   <li>{@code vthreads} (JDK 21+): blocking code on a virtual thread per task
 *       ({@code Executors.newVirtualThreadPerTaskExecutor()}, through {@link VirtualThreads}).
 *       Its carriers are the JDK's one JVM-wide scheduler: the first virtual-thread executor
 *       sizes it to its workers unless {@value VirtualThreads#PARALLELISM_PROPERTY} is set, and
 *       the description names the figure in force. On an older JVM it is left out of
 *       {@link #defaultIds()}, and opening it throws {@link IllegalArgumentException}.</li>
 * </ul>
 */
public final class AsyncTargets {

    /** Whether a target runs {@code AsyncTask}s, {@code CompletableFuture} stages or virtual threads. */
    public enum Family {
        ASYNC("AsyncRuntime"), CF("CompletableFuture"), VT("virtual threads");

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
        private final ExecutorService threads;

        private Target(String id, AsyncRuntime rt, ForkJoinPool pool, ExecutorService threads) {
            this.id = id;
            this.rt = rt;
            this.pool = pool;
            this.threads = threads;
        }

        public String id() {
            return id;
        }

        /** The async runtime, or {@code null} for a CompletableFuture target. */
        public AsyncRuntime runtime() {
            return rt;
        }

        /** The pool, or {@code null} unless this is a CompletableFuture target. */
        public ForkJoinPool pool() {
            return pool;
        }

        /** One checked run of {@code w}. */
        public long run(AsyncWorkload w) {
            return rt != null ? w.run(rt) : pool != null ? w.run(pool) : w.runVirtual(threads);
        }

        /** Shuts the runtime down and waits (bounded: 10 s) for its threads. */
        @Override
        public void close() {
            if (rt != null) {
                rt.close();
            } else if (threads != null) {
                VirtualThreads.shutdown(threads, Duration.ofSeconds(10));
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
     * @param family async, CompletableFuture or virtual threads
     * @param description what it is
     */
    public record Spec(String id, Family family, String description) {

        /**
         * What it is with {@code workers} threads: the description, and for {@code vthreads}
         * the carriers in force.
         */
        public String description(int workers) {
            return family == Family.VT ? description + "; " + VirtualThreads.carriersInWords(workers)
                    + ", JVM-wide: the figure in force" : description;
        }

        /**
         * Whether this JVM can run it: false for {@code vthreads} before JDK 21.
         */
        public boolean available() {
            return family != Family.VT || VirtualThreads.available();
        }

        /**
         * Throws unless this JVM can run it.
         *
         * @throws IllegalArgumentException for {@code vthreads} before JDK 21, naming the Java version
         */
        public Spec requireAvailable() {
            if (!available()) {
                throw new IllegalArgumentException("async runtime '" + id + "' needs JDK 21+ (virtual threads),"
                        + " this is Java " + System.getProperty("java.version"));
            }
            return this;
        }

        /**
         * Starts the runtime with {@code workers} threads.
         *
         * @throws IllegalArgumentException if this JVM cannot run it ({@link #requireAvailable()})
         */
        public Target open(int workers) {
            requireAvailable();
            switch (id) {
                case "async-ws":
                    return new Target(id, AsyncRuntime.builder().workers(workers)
                            .policy(AsyncPolicy.WORK_STEALING).name("bench-async-ws").build(), null, null);
                case "async-hybrid":
                    return new Target(id, AsyncRuntime.builder().workers(workers)
                            .policy(AsyncPolicy.HYBRID).name("bench-async-hybrid").build(), null, null);
                case "cf-fjp":
                    return new Target(id, null, new ForkJoinPool(workers), null);
                case "cf-fjp-async":
                    return new Target(id, null, new ForkJoinPool(workers,
                            ForkJoinPool.defaultForkJoinWorkerThreadFactory, null, true), null);
                case "vthreads":
                    return new Target(id, null, null, VirtualThreads.newPerTaskExecutor(workers));
                default:
                    throw new IllegalArgumentException("unknown async runtime '" + id + "'");
            }
        }
    }

    private static final List<Spec> ALL = List.of(
            new Spec("async-ws", Family.ASYNC, "AsyncRuntime, WORK_STEALING scheduler, budget 128"),
            new Spec("async-hybrid", Family.ASYNC, "AsyncRuntime, HYBRID scheduler (most-woken first), budget 128"),
            new Spec("cf-fjp", Family.CF, "CompletableFuture *Async stages on a ForkJoinPool (LIFO, as the common pool)"),
            new Spec("cf-fjp-async", Family.CF, "CompletableFuture *Async stages on a ForkJoinPool with asyncMode = true (FIFO)"),
            new Spec("vthreads", Family.VT, "a virtual thread per task (Executors.newVirtualThreadPerTaskExecutor),"
                    + " blocking waits (JDK 21+)"));

    private AsyncTargets() {
    }

    /** Every runtime id, in report order, {@code vthreads} included whether or not this JVM can run it. */
    public static List<String> ids() {
        List<String> out = new ArrayList<>();
        for (Spec s : ALL) {
            out.add(s.id());
        }
        return List.copyOf(out);
    }

    /** The ids this JVM can run, in report order: the default selection ({@code vthreads} on JDK 21+ only). */
    public static List<String> defaultIds() {
        List<String> out = new ArrayList<>();
        for (Spec s : ALL) {
            if (s.available()) {
                out.add(s.id());
            }
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
