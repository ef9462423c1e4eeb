/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One keyed task of a graph: its function, the keys of its dependencies, and scheduling hints.
 * The key's prefix (up to the first {@code '-'}) names the task's kind: durations are learned per
 * prefix, so {@code "load-1"} and {@code "load-2"} share an estimate.
 *
 * <pre>{@code
 * TaskSpec<Integer> spec = TaskSpec.builder("sum-0", args -> (Integer) args.get(0) + (Integer) args.get(1))
 *         .dependsOn("load-0", "load-1")
 *         .priority(10)                          // higher runs first on its worker
 *         .durationHint(Duration.ofMillis(20))   // used until the prefix has been measured
 *         .build();
 * }</pre>
 *
 * @param <T> the result type
 */
public final class TaskSpec<T> {

    private final String key;
    /** {@link #prefixOf} the key, computed once: the scheduler asks for it at every estimate. */
    private final String prefix;
    private final TaskFunction<T> function;
    private final List<String> dependencies;
    /** The dependencies given as futures, checked against the submitting cluster. */
    private final List<ClusterFuture<?>> dependencyFutures;
    private final Restrictions restrictions;
    private final int priority;
    private final Duration durationHint;
    private final boolean longRunning;

    private TaskSpec(TaskSpec<T> s) {
        this.key = s.key;
        this.prefix = s.prefix;
        this.function = s.function;
        this.dependencies = s.dependencies;
        this.dependencyFutures = List.of();
        this.restrictions = s.restrictions;
        this.priority = s.priority;
        this.durationHint = s.durationHint;
        this.longRunning = s.longRunning;
    }

    /**
     * This spec without its dependency futures, as the scheduler keeps it: a spec that held the
     * futures would keep them reachable, and a future the client dropped could never be released.
     */
    TaskSpec<T> withoutFutures() {
        return dependencyFutures.isEmpty() ? this : new TaskSpec<>(this);
    }

    private TaskSpec(Builder<T> b) {
        this.key = b.key;
        this.prefix = prefixOf(b.key);
        this.function = b.function;
        this.dependencies = List.copyOf(b.dependencies);
        this.dependencyFutures = List.copyOf(b.dependencyFutures);
        this.restrictions = b.restrictions;
        this.priority = b.priority;
        this.durationHint = b.durationHint;
        this.longRunning = b.longRunning;
    }

    /**
     * Starts a spec.
     *
     * @param <T> the task's result type
     * @param key the task's key, unique in the cluster; the part before the first {@code '-'} names
     *     the task's kind, whose durations the scheduler learns
     * @param function computes the result from the dependencies' values
     * @return a new builder with no dependencies, no restriction, priority 0 and no hints
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if the key is empty
     */
    public static <T> Builder<T> builder(String key, TaskFunction<T> function) {
        return new Builder<>(key, function);
    }

    /**
     * The unique key.
     *
     * @return the key given to {@link #builder}, not empty
     */
    public String key() {
        return key;
    }

    /**
     * The function.
     *
     * @return the function that computes the result
     */
    public TaskFunction<T> function() {
        return function;
    }

    /**
     * The keys of the dependencies, in the order their values are passed to the function.
     *
     * @return an immutable list of the dependency keys, possibly empty
     */
    public List<String> dependencies() {
        return dependencies;
    }

    /** The dependencies that were given as futures (a subset of {@link #dependencies()}). */
    List<ClusterFuture<?>> dependencyFutures() {
        return dependencyFutures;
    }

    /**
     * Where the task may run.
     *
     * @return the restriction, {@link Restrictions#none()} unless set
     */
    public Restrictions restrictions() {
        return restrictions;
    }

    /**
     * Higher runs first among the ready tasks of one worker; default 0.
     *
     * @return the priority, any {@code int}
     */
    public int priority() {
        return priority;
    }

    /**
     * The expected duration given by the user, if any.
     *
     * @return the hint, or empty if none was given
     */
    public Optional<Duration> durationHint() {
        return Optional.ofNullable(durationHint);
    }

    /**
     * Whether the task was declared long-running (such tasks are never stolen).
     *
     * @return {@code true} if declared long-running
     */
    public boolean isLongRunning() {
        return longRunning;
    }

    /**
     * The duration-learning prefix of the key: up to the first {@code '-'}, else the whole key.
     *
     * @return the task kind's name, not empty
     */
    public String prefix() {
        return prefix;
    }

    static String prefixOf(String key) {
        int dash = key.indexOf('-');
        return dash > 0 ? key.substring(0, dash) : key;
    }

    @Override
    public String toString() {
        return "TaskSpec[" + key + " <- " + dependencies + "]";
    }

    /**
     * Builds a {@link TaskSpec}.
     *
     * @param <T> the type of the task's value
     */
    public static final class Builder<T> {
        private final String key;
        private final TaskFunction<T> function;
        private final List<String> dependencies = new ArrayList<>();
        private final List<ClusterFuture<?>> dependencyFutures = new ArrayList<>();
        private Restrictions restrictions = Restrictions.none();
        private int priority;
        private Duration durationHint;
        private boolean longRunning;

        private Builder(String key, TaskFunction<T> function) {
            this.key = Objects.requireNonNull(key, "key");
            this.function = Objects.requireNonNull(function, "function");
            if (key.isEmpty()) {
                throw new IllegalArgumentException("a task key must not be empty");
            }
        }

        /**
         * Adds dependencies by key; their values are passed to the function in this order.
         *
         * @param keys the keys of earlier tasks, or of tasks submitted together with this one
         * @return this builder
         * @throws IllegalArgumentException if a key is the task's own
         * @throws NullPointerException if {@code keys} or one of them is null
         */
        public Builder<T> dependsOn(String... keys) {
            for (String k : Objects.requireNonNull(keys, "keys")) {
                Objects.requireNonNull(k, "dependency key");
                if (k.equals(key)) {
                    throw new IllegalArgumentException("task '" + key + "' cannot depend on itself");
                }
                dependencies.add(k);
            }
            return this;
        }

        /**
         * Adds earlier futures as dependencies. On submission each must belong to the cluster the
         * spec is submitted to, else the submission throws {@link IllegalArgumentException}.
         *
         * @param futures futures of the cluster the spec will be submitted to
         * @return this builder
         * @throws IllegalArgumentException if a future's key is the task's own
         * @throws NullPointerException if {@code futures} or one of them is null
         */
        public Builder<T> dependsOn(ClusterFuture<?>... futures) {
            for (ClusterFuture<?> f : Objects.requireNonNull(futures, "futures")) {
                dependsOn(Objects.requireNonNull(f, "dependency future").key());
                dependencyFutures.add(f);
            }
            return this;
        }

        /**
         * Sets where the task may run.
         *
         * @param restrictions which workers may run the task
         * @return this builder
         * @throws NullPointerException if {@code restrictions} is null
         */
        public Builder<T> restrictions(Restrictions restrictions) {
            this.restrictions = Objects.requireNonNull(restrictions, "restrictions");
            return this;
        }

        /**
         * Sets the priority (higher first).
         *
         * @param priority the priority among one worker's ready tasks, any {@code int}
         * @return this builder
         */
        public Builder<T> priority(int priority) {
            this.priority = priority;
            return this;
        }

        /**
         * Sets the expected duration, used until the key prefix has been measured.
         *
         * @param hint the expected duration, at most {@code Long.MAX_VALUE} nanoseconds (about
         *     292 years)
         * @return this builder
         * @throws IllegalArgumentException if negative or longer than {@code Long.MAX_VALUE}
         *     nanoseconds
         * @throws NullPointerException if {@code hint} is null
         */
        public Builder<T> durationHint(Duration hint) {
            Objects.requireNonNull(hint, "hint");
            if (hint.isNegative()) {
                throw new IllegalArgumentException("duration hint must not be negative: " + hint);
            }
            this.durationHint = CoordinatorSettings.Knobs.requireNanos(hint, "duration hint");
            return this;
        }

        /**
         * Declares the task long-running: it is never stolen once placed.
         *
         * @param longRunning {@code true} to keep the task where it is placed
         * @return this builder
         */
        public Builder<T> longRunning(boolean longRunning) {
            this.longRunning = longRunning;
            return this;
        }

        /**
         * Builds the spec.
         *
         * @return a new, immutable spec
         */
        public TaskSpec<T> build() {
            return new TaskSpec<>(this);
        }
    }
}
