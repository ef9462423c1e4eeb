/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.Objects;
import java.util.Set;

/**
 * Where a task may run. {@linkplain #strict Strict} restrictions are hard (a task needs special
 * hardware): such a task runs only on the listed workers and is never stolen.
 * {@linkplain #loose Loose} restrictions are a preference: the task is placed on a listed
 * worker while one is alive, and an idle worker may still steal it.
 *
 * <pre>{@code
 * TaskSpec.builder("render-1", args -> render()).restrictions(Restrictions.strict(Set.of(0))).build();
 * }</pre>
 */
public final class Restrictions {

    private static final Restrictions NONE = new Restrictions(Set.of(), false);

    private final Set<Integer> workers;
    private final boolean strict;

    private Restrictions(Set<Integer> workers, boolean strict) {
        this.workers = workers;
        this.strict = strict;
    }

    /**
     * No restriction: any worker.
     *
     * @return the shared unrestricted instance
     */
    public static Restrictions none() {
        return NONE;
    }

    /**
     * Only the given workers, never stolen. While none of them is alive the task waits for one to
     * join (a restart under its id), up to {@link CoordinatorSettings#noWorkerTimeout()}, then
     * fails with an {@link IllegalStateException}.
     *
     * @param workers the ids of the workers allowed, not empty; copied
     * @return a strict restriction
     * @throws IllegalArgumentException if {@code workers} is empty or holds a negative id or null
     * @throws NullPointerException if {@code workers} is null
     */
    public static Restrictions strict(Set<Integer> workers) {
        return new Restrictions(check(workers), true);
    }

    /**
     * Prefer the given workers; the task may be stolen by, or placed on, any other worker.
     *
     * @param workers the ids of the workers preferred, not empty; copied
     * @return a loose restriction
     * @throws IllegalArgumentException if {@code workers} is empty or holds a negative id or null
     * @throws NullPointerException if {@code workers} is null
     */
    public static Restrictions loose(Set<Integer> workers) {
        return new Restrictions(check(workers), false);
    }

    private static Set<Integer> check(Set<Integer> workers) {
        Objects.requireNonNull(workers, "workers");
        if (workers.isEmpty()) {
            throw new IllegalArgumentException("a restriction needs at least one worker");
        }
        for (Integer w : workers) {
            if (w == null || w < 0) {
                throw new IllegalArgumentException("worker ids must be non-negative, got " + w);
            }
        }
        return Set.copyOf(workers);
    }

    /**
     * The listed workers; empty for {@link #none()}.
     *
     * @return an immutable set of worker ids
     */
    public Set<Integer> workers() {
        return workers;
    }

    /**
     * Whether the restriction is hard.
     *
     * @return {@code true} for {@link #strict}, {@code false} for {@link #loose} and {@link #none}
     */
    public boolean isStrict() {
        return strict;
    }

    /**
     * Whether any worker is listed.
     *
     * @return {@code false} only for {@link #none()}
     */
    public boolean isRestricted() {
        return !workers.isEmpty();
    }

    /** Whether worker {@code id} is allowed at all (loose restrictions allow every worker). */
    boolean allows(int id) {
        return !strict || workers.contains(id);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Restrictions r && r.strict == strict && r.workers.equals(workers);
    }

    @Override
    public int hashCode() {
        return workers.hashCode() * 31 + Boolean.hashCode(strict);
    }

    @Override
    public String toString() {
        return !isRestricted() ? "none" : (strict ? "strict" : "loose") + workers;
    }
}
