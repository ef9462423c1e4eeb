/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The scheduler's record of one task. Mutated on the scheduler thread only.
 *
 * <p>States: WAITING (some dependency not in memory), PROCESSING (assigned to a worker under the
 * current {@link #attempt}), MEMORY (at least one worker holds the result), ERRED (failed for
 * good), LOST (the result was computed but every copy died with its worker; recomputed when a
 * task needs it), RELEASED (the result was freed because neither a client future nor a pending
 * dependent needed it, or, not yet sent to a worker, the task was forgotten as its future was
 * cancelled, see GraphScheduler.mayCancel; recomputed like LOST if a task needs it again).
 *
 * <p>{@link #future} is dropped once completed, so the scheduler never keeps a value alive: only
 * the client's {@link ClusterFuture} refers to it.
 */
final class TaskState {

    enum State { WAITING, PROCESSING, MEMORY, ERRED, LOST, RELEASED }

    final TaskSpec<?> spec;
    private final long hintNanos;
    final List<TaskState> dependencies = new ArrayList<>();
    final Set<TaskState> dependents = new LinkedHashSet<>();
    /**
     * Each worker holding this result, with the scheduler's attempt count (the last attempt number
     * given, GraphScheduler's attemptSeq) when it last counted that worker's copy: a
     * {@link Message.DataMissing} from another worker that names this one names a copy listed in that
     * worker's {@link Message.Compute}, so one of an attempt numbered no higher than the count is
     * about a copy counted before, not this one (see {@link #countedAt}).
     */
    private final Map<Integer, Long> holderCounts = new HashMap<>();
    /**
     * The workers holding this result, read-only: changed through {@link #addHolder},
     * {@link #removeHolder} and {@link #clearHolders}, which keep the transfer costs of the
     * dependents processing somewhere ({@link WorkerState#transferChanged}) up to date.
     */
    final Set<Integer> holders = Collections.unmodifiableSet(holderCounts.keySet());
    /**
     * Workers asked for a copy of this result (a task placed there that needs it, or a
     * {@link Message.Replicate}) that have not reported it yet ({@link Message.DataAdded}); told to
     * drop it when it is released, and the only workers besides holders whose report of a copy
     * the scheduler counts (a copy of an earlier result of the key is not this one). Each with the
     * releases sent to it ({@link WorkerState#releasesSent}) when it was first asked since it was
     * last told to drop the key: a report that had handled fewer was made before that release,
     * which drops its copy (GraphScheduler.onDataAdded); every release of the key to the worker
     * takes it out of here.
     */
    final Map<Integer, Long> fetchers = new HashMap<>();
    /**
     * The id of the worker running this task's current attempt that reported its own copy of an
     * earlier result of the key missing ({@link Message.DataMissing}) while it was counted or asked
     * for one, -1 if none: no release could be sent there (it would drop the run), so its report of
     * that copy may still come, or have come (out of order), for a value it no longer has. No such
     * report counts while the run is there, and a run that leaves it unfinished has the key released
     * there (GraphScheduler.unassign; once, with the release of a failure or a replacement that ends
     * the run, GraphScheduler.abandonRun); a finished run stores over the copy.
     */
    int copyMissingOn = -1;
    /**
     * While processing: the bytes of its dependencies its worker lacks, as that worker counts
     * them in its transfer cost, or -1 if it lacks none ({@link WorkerState}).
     */
    long missingBytes = -1;
    /** The client's result; null once completed. */
    CompletableFuture<Object> future;
    /**
     * Whether a client future for this key is still held (not released, not collected): this
     * record's own ({@link #ownFutureHeld}) or one of a record it replaced ({@link #supersededFutures}).
     */
    boolean wanted = true;
    /** Whether this record's own client future is still held (GraphScheduler.releaseFuture). */
    boolean ownFutureHeld = true;
    /**
     * Whether the client cancelled its future ({@link ClusterFuture#cancel}): the task is then
     * forgotten without running if it was not sent to a worker and no pending task needs it
     * (GraphScheduler.mayCancel), or if its worker gives it up unstarted when asked
     * (GraphScheduler.takeBack).
     */
    boolean cancelled;
    /**
     * Written through {@link #setState} only, which keeps {@link #pendingDependents} and the
     * dependents' {@link #dependenciesNotInMemory}.
     */
    State state = State.WAITING;
    /**
     * How many entries of the dependents' {@link #dependencies} name this task from a dependent
     * that is WAITING or PROCESSING: while above zero a pending task still needs this result. Kept
     * by {@link #setState} and {@link #addDependency}, so that the scheduler's check after each
     * dependent finishes is one read: it walked every dependent, and a result with n dependents
     * (one input mapped over 50,000 tasks) cost n walks of up to n each.
     */
    int pendingDependents;
    /**
     * How many distinct tasks of {@link #dependencies} are not in MEMORY; kept by {@link #setState}
     * and {@link #addDependency} for the same reason, so that {@link #dependenciesInMemory}, asked
     * each time one of them finishes, is one read rather than a walk of all of them.
     */
    int dependenciesNotInMemory;
    WorkerState processingOn;
    long attempt;
    long assignedOrder;
    /** Its result's measured size; set through {@link #measured}, which keeps the dependents' transfer costs. */
    long bytes;
    int failures;
    /**
     * This task's attempts, since it last had a result, that ended because an input could not be
     * fetched from another worker still alive, or read from its own worker's copy
     * (GraphScheduler.onDataMissing); over the retries it errs. Apart from {@link #failures}: the
     * task itself did not fail.
     */
    int fetchFailures;
    /**
     * The workers lost while this task was assigned to them, since it last had a result; null for
     * none (see CoordinatorSettings.allowedWorkerLosses).
     */
    List<Integer> lostWorkers;
    /**
     * Whether this assignment never went out: its send threw, or its worker was unreachable
     * already (see GraphScheduler.send). Its worker's loss is not counted in {@link #lostWorkers}:
     * the task never reached it, so it cannot be what ended it.
     */
    boolean unsent;
    long stealId;
    /**
     * Whether this WAITING task, its inputs in memory, found no live worker it may run on and
     * waits for one to join (GraphScheduler.awaitWorker), since {@link #awaitingWorkerSince}
     * ({@link System#nanoTime}).
     */
    boolean awaitingWorker;
    long awaitingWorkerSince;
    /**
     * Whether an input of this task, waiting for a worker, left memory since its wait began: the
     * wait starts afresh once the input is back (GraphScheduler.awaitWorker), whether or not the
     * scheduler looked at the waiting tasks meanwhile.
     */
    boolean awaitingWorkerInputLost;
    /**
     * The attempt whose worker refused to give it back, to a withdrawal from a stalled worker or to
     * a cancel's request (see GraphScheduler.stalls, GraphScheduler.takeBack): it started it, and
     * is not asked again.
     */
    long withdrawalRefused;
    Throwable error;
    /** The task whose function submitted this one, and its attempt; null for the client's own. */
    String submitterKey;
    long submitterAttempt;
    /**
     * The {@link #line} of the record whose attempt submitted this one, or 0 if that attempt was
     * no record's of this scheduler then (GraphScheduler.lineOf).
     */
    long submitterLine;
    /**
     * The records of this key that are one task, attempt after attempt: the number of the record
     * that began the line, which a record that replaces an earlier one (a retried task submitting
     * its keys again) takes over, and the scheduler's attempt count when that record was made, so
     * that every attempt of the line is numbered above it. A record made anew under a key that was
     * forgotten begins a line of its own: its task is another task, whose function's submissions
     * must not replace those of the forgotten one (GraphScheduler.resubmittable).
     */
    long line;
    long lineSince;
    /**
     * Held futures of earlier records of this key that this one replaced (a retried task submitting
     * its keys again): their releases are theirs and not this record's, and their cancels do not
     * cancel this record's task.
     */
    int supersededFutures;
    /**
     * This record's number, unique in its scheduler, which its client future's release names
     * (GraphScheduler.releaseFuture): a release of a replaced record's future is then told from
     * this record's own, which matters once one of them is a cancel.
     */
    long record;

    TaskState(TaskSpec<?> spec, CompletableFuture<Object> future) {
        this.spec = spec;
        this.hintNanos = spec.durationHint().map(java.time.Duration::toNanos).orElse(-1L);
        this.future = future;
    }

    String key() {
        return spec.key();
    }

    /** Whether a task in {@code s} still needs its dependencies' results. */
    static boolean pending(State s) {
        return s == State.WAITING || s == State.PROCESSING;
    }

    /**
     * The counts this record is in while it is the scheduler's record of its key, which
     * {@link #setState} keeps; null once it is replaced or forgotten (GraphScheduler.track and
     * untrack), or before it is added.
     */
    StateCounts counted;

    /**
     * Moves to {@code next}, telling its dependencies when it starts or stops needing them, and
     * the counts it is in ({@link #counted}) that it moved.
     */
    void setState(State next) {
        boolean was = pending(state);
        boolean wasInMemory = state == State.MEMORY;
        if (counted != null) {
            counted.count(state, -1);
            counted.count(next, 1);
        }
        state = next;
        if (was != pending(next)) {
            int delta = was ? -1 : 1;
            for (TaskState d : dependencies) {
                d.pendingDependents += delta;
            }
        }
        if (wasInMemory != (next == State.MEMORY)) {
            int delta = wasInMemory ? 1 : -1;
            for (TaskState t : dependents) {
                t.dependenciesNotInMemory += delta;
                if (delta > 0 && t.awaitingWorker) {
                    t.awaitingWorkerInputLost = true;
                }
            }
        }
    }

    /** Adds {@code d} as the next dependency (and this task as its dependent). */
    void addDependency(TaskState d) {
        dependencies.add(d);
        if (d.dependents.add(this) && d.state != State.MEMORY) {
            dependenciesNotInMemory++;
        }
        if (pending(state)) {
            d.pendingDependents++;
        }
    }

    boolean dependenciesInMemory() {
        return dependenciesNotInMemory == 0;
    }

    /**
     * {@code worker} now holds this result, its copy counted when the scheduler's attempt count was
     * {@code counted}; a worker counted already keeps the later count (a copy reported again, or
     * a new one that replaced a copy it lost before the loss was reported).
     */
    void addHolder(int worker, long counted) {
        if (holderCounts.put(worker, counted) == null) {
            holdersChanged();
        }
    }

    /**
     * The scheduler's attempt count when {@code worker}'s copy was last counted, or -1 if it holds
     * none: a copy that another worker's {@link Message.Compute} of an attempt numbered above it
     * named, and so may be the copy its fetch missed (GraphScheduler.uncountMissing).
     */
    long countedAt(int worker) {
        Long counted = holderCounts.get(worker);
        return counted == null ? -1 : counted;
    }

    /** {@code worker} no longer holds this result. */
    void removeHolder(int worker) {
        if (holderCounts.remove(worker) != null) {
            holdersChanged();
        }
    }

    /** Nobody holds this result any more. */
    void clearHolders() {
        if (!holderCounts.isEmpty()) {
            holderCounts.clear();
            holdersChanged();
        }
    }

    /**
     * Its result measured {@code size} bytes. A result computed again may measure otherwise than the
     * first time, and a dependent processing somewhere counts what it lacks at the old size: it is
     * recounted as for a holder change, which a recomputation ending on a worker already counted as
     * holding a copy (one fetched before the loss, see GraphScheduler.onDataAdded) does not make,
     * so that worker's transfer cost stayed wrong while the dependent processed there.
     */
    void measured(long size) {
        if (bytes != size) {
            bytes = size;
            holdersChanged();
        }
    }

    /** A dependent processing somewhere may now miss more or fewer bytes there. */
    private void holdersChanged() {
        for (TaskState t : dependents) {
            if (t.processingOn != null) {
                t.processingOn.transferChanged(t);
            }
        }
    }

    /**
     * The bytes of this task's dependencies that {@code worker} does not hold.
     *
     * @return their sum (saturated at {@link Long#MAX_VALUE}), or -1 if it holds them all (a task
     *         missing only empty values still pays the latency of a fetch, so "none missing"
     *         differs from 0 bytes missing)
     */
    long missingBytes(int worker) {
        long bytes = -1;
        for (TaskState d : dependencies) {
            if (!d.holderCounts.containsKey(worker)) {
                bytes = Sizes.plus(Math.max(bytes, 0), d.bytes);   // saturated: wrapped, it read as none missing
            }
        }
        return bytes;
    }

    /** The duration hint in nanoseconds, negative for none. */
    long hintNanos() {
        return hintNanos;
    }

    double hintSeconds() {
        return hintNanos < 0 ? -1.0 : hintNanos / 1e9;
    }

    @Override
    public String toString() {
        return key() + "[" + state + "]";
    }
}
