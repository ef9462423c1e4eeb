/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.List;
import java.util.Objects;

/**
 * A task erred because more of the workers it was assigned to were lost than
 * {@link CoordinatorSettings#allowedWorkerLosses()} allows (Dask's {@code KilledWorker}): it may
 * be what brings them down, by exhausting the heap or ending the process, so it is not placed on
 * yet another one. Its dependents err with the same exception.
 *
 * <pre>{@code
 * try {
 *     client.submit("parse", args -> parse(hugeFile)).get();
 * } catch (ExecutionException e) {
 *     if (e.getCause() instanceof WorkerLostException lost) {
 *         System.err.println(lost.key() + " was on lost workers " + lost.workers());
 *     }
 * }
 * }</pre>
 */
public final class WorkerLostException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The task's key; serialised. */
    private final String key;
    /** The ids of the workers lost while the task was assigned to them, one per loss, in order; serialised. */
    private final List<Integer> workers;

    /**
     * A task that was assigned to {@code workers} when each was lost.
     *
     * @param key the task's key
     * @param workers the lost workers' ids, in the order they were lost
     * @param allowed the losses the settings allowed
     * @throws NullPointerException if {@code key} or {@code workers} is null
     */
    public WorkerLostException(String key, List<Integer> workers, int allowed) {
        super("task '" + Objects.requireNonNull(key, "key") + "' was assigned to "
                + Objects.requireNonNull(workers, "workers").size() + " workers that were lost "
                + workers + ", more than the " + allowed + " allowed (allowedWorkerLosses): it may be"
                + " what ends them, so it is not placed again");
        this.key = key;
        this.workers = List.copyOf(workers);
    }

    /**
     * The key of the task that erred.
     *
     * @return the task's key
     */
    public String key() {
        return key;
    }

    /**
     * The workers lost while the task was assigned to them, one entry per loss: a worker restarted
     * under its id and lost again with the task appears once for each loss, since each counts
     * against {@link CoordinatorSettings#allowedWorkerLosses()} (a task that ends its process would
     * otherwise take down each restart of a lone worker in turn).
     *
     * @return their ids, in the order they were lost
     */
    public List<Integer> workers() {
        return workers;
    }
}
