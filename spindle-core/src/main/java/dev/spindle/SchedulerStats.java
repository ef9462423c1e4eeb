/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle;

import java.util.List;
import java.util.Objects;
import java.util.function.ToLongFunction;

/**
 * A snapshot of a scheduler's counters: one shape for every pool of {@code dev.spindle.pool}
 * and for the async runtime of {@code spindle-async}, so that whatever reads them (a metrics
 * binder, a benchmark harness, the command-line demo) reads them one way.
 *
 * <pre>{@code
 * SchedulerStats s = pool.stats();
 * System.out.println(s.completed() + " tasks, " + s.steals() + " stolen, " + s.queued() + " waiting");
 * for (SchedulerStats.WorkerStats w : s.workers()) { ... }
 * }</pre>
 *
 * <p><b>A racy snapshot.</b> The counters are read one after another while the workers go on
 * (each worker writes its own counters with opaque stores and {@code stats()} reads them with
 * opaque loads), so while tasks run the figures are estimates that need not add up with each
 * other; once the scheduler is quiet they are exact. Counters only grow; queue lengths and
 * worker counts are the values seen at the moment each was read.
 *
 * <p><b>A terminated scheduler.</b> Once a scheduler's workers have all exited (a pool
 * terminated, an async runtime shut down), it has no worker left: {@code liveWorkers},
 * {@code blockedWorkers}, {@code parkedWorkers} and {@code searchingWorkers} read zero, and so
 * do {@link #activeWorkers()} and a count of spares derived as {@code liveWorkers - parallelism}.
 * {@code parallelism} keeps the configured figure and the counters their last values.
 *
 * <p><b>Who counts what.</b> Every field is present for every scheduler; a scheduler that has
 * no such thing reports zero, as listed on each field of {@link WorkerStats}. In short: the
 * {@code WorkStealingPool} counts everything but polls and wake-ups (it alone counts runner
 * helps); {@code WorkSharingPool}, {@code PriorityPool} and {@code PinnedPool} count completed
 * tasks, parks, unparks and queued tasks; the {@code AsyncRuntime} counts polls, wake-ups,
 * steals, parks, unparks and queued tasks (its unit of work is a poll, not a completed task).
 *
 * @param name the scheduler's name (the prefix of its threads' names)
 * @param parallelism the number of workers the scheduler aims to keep running (its worker
 *     count for the pools without spare workers and for the async runtime)
 * @param liveWorkers workers able to run tasks now: core workers plus spare workers started to
 *     compensate for blocking sections; equal to {@code parallelism} where there are no spares;
 *     zero once the scheduler has terminated
 * @param blockedWorkers workers now inside a blocking section ({@code Spindle.blocking}) that
 *     the scheduler compensates for; zero for schedulers that do not compensate, and once the
 *     scheduler has terminated
 * @param sharedQueued tasks waiting in the queues that every worker takes from (the injector of
 *     a work-stealing pool or of the async runtime, the shared queue of a work-sharing pool, the
 *     priority levels of a priority pool); per-worker queues are in {@link WorkerStats#queued()}
 * @param workers one entry per worker slot, by index; for the {@code WorkStealingPool} every
 *     slot that has ever been started (spare workers included), for the others every worker
 * @param rejected the pools only: tasks refused with a
 *     {@link java.util.concurrent.RejectedExecutionException} because the pool was shut down
 *     (counted where the pool throws it, whoever submitted: one per exception thrown, so an
 *     {@code invokeAll} or {@code invokeAny} refused as a whole counts once, as the JDK's
 *     refuses it at its first task); zero for the async runtime
 * @param failed the pools only: tasks whose exception went to the uncaught-exception handler
 *     (a task run through {@code execute} that threw; a {@code submit}ted task's exception goes
 *     to its future instead and is not counted here); such a task also counts as completed;
 *     zero for the async runtime
 * @param parkedWorkers workers parked for want of work at the moment it was read (spares
 *     included; zero once the scheduler has terminated, as are the live workers); every Spindle
 *     scheduler reports it, zero where a snapshot was made without it
 * @param searchingWorkers workers looking for work at the moment it was read (out of work and
 *     not yet parked, or just woken); zero once the scheduler has terminated, and where a
 *     snapshot was made without it
 */
public record SchedulerStats(
        String name,
        int parallelism,
        int liveWorkers,
        int blockedWorkers,
        long sharedQueued,
        List<WorkerStats> workers,
        long rejected,
        long failed,
        int parkedWorkers,
        int searchingWorkers) {

    /**
     * A snapshot; copies {@code workers}, so it stays as it was taken. The components are
     * described on the record.
     *
     * @param name the scheduler's name, the prefix of its threads' names
     * @param parallelism the number of workers the scheduler aims to keep running
     * @param liveWorkers workers able to run tasks now, spares included
     * @param blockedWorkers workers inside a compensated blocking section now
     * @param sharedQueued tasks waiting in the queues every worker takes from
     * @param workers one entry per worker slot, by index; copied
     * @param rejected tasks refused after shutdown (pools only; else 0)
     * @param failed tasks whose exception went to the uncaught-exception handler (pools only; else 0)
     * @param parkedWorkers workers parked for want of work when read
     * @param searchingWorkers workers looking for work when read
     * @throws NullPointerException if {@code name} or {@code workers} is null
     */
    public SchedulerStats {
        Objects.requireNonNull(name, "name");
        workers = List.copyOf(workers);
    }

    /**
     * A snapshot without the idle figures: {@link #parkedWorkers()} and
     * {@link #searchingWorkers()} zero, so every live worker counts as active.
     *
     * @param name the scheduler's name, the prefix of its threads' names
     * @param parallelism the number of workers the scheduler aims to keep running
     * @param liveWorkers workers able to run tasks now, spares included
     * @param blockedWorkers workers inside a compensated blocking section now
     * @param sharedQueued tasks waiting in the queues every worker takes from
     * @param workers one entry per worker slot, by index; copied
     * @param rejected tasks refused after shutdown (pools only; else 0)
     * @param failed tasks whose exception went to the uncaught-exception handler (pools only; else 0)
     */
    public SchedulerStats(String name, int parallelism, int liveWorkers, int blockedWorkers, long sharedQueued,
            List<WorkerStats> workers, long rejected, long failed) {
        this(name, parallelism, liveWorkers, blockedWorkers, sharedQueued, workers, rejected, failed, 0, 0);
    }

    /**
     * A snapshot of a scheduler that neither rejects nor reports failures through a handler
     * (the async runtime, whose tasks fail through their handles): both counts zero.
     *
     * @param name the scheduler's name, the prefix of its threads' names
     * @param parallelism the number of workers the scheduler aims to keep running
     * @param liveWorkers workers able to run tasks now, spares included
     * @param blockedWorkers workers inside a compensated blocking section now
     * @param sharedQueued tasks waiting in the queues every worker takes from
     * @param workers one entry per worker slot, by index; copied
     */
    public SchedulerStats(String name, int parallelism, int liveWorkers, int blockedWorkers, long sharedQueued,
            List<WorkerStats> workers) {
        this(name, parallelism, liveWorkers, blockedWorkers, sharedQueued, workers, 0, 0, 0, 0);
    }

    /**
     * Workers running a task now: the live workers neither parked nor searching for work (a
     * worker inside a blocking section runs its task, so it counts). Computed from three figures
     * read one after another while workers change state, so it is an estimate, kept within
     * {@code 0..liveWorkers}; once the scheduler is quiet it is exact (zero), and once it has
     * terminated it is zero with {@code liveWorkers}.
     *
     * @return the workers running a task, from 0 to {@link #liveWorkers()}
     */
    public int activeWorkers() {
        return Math.max(0, Math.min(liveWorkers, liveWorkers - parkedWorkers - searchingWorkers));
    }

    /** {@return the tasks run to their end by all workers together} See {@link WorkerStats#completed()}. */
    public long completed() {
        return sum(WorkerStats::completed);
    }

    /** {@return the polls of async tasks by all workers together (the async runtime only)} */
    public long polls() {
        return sum(WorkerStats::polls);
    }

    /** {@return the woken tasks workers took from their own wake channels (the async runtime only)} */
    public long wakeups() {
        return sum(WorkerStats::wakeups);
    }

    /** {@return the tasks taken from other workers' queues, all workers together} */
    public long steals() {
        return sum(WorkerStats::steals);
    }

    /**
     * {@return the tasks joiners took from the worker running the task they awaited, all workers
     * together} See {@link WorkerStats#runnerHelps()}: the {@code WorkStealingPool} only, zero for
     * the other schedulers.
     */
    public long runnerHelps() {
        return sum(WorkerStats::runnerHelps);
    }

    /** {@return the times a worker parked, all workers together} */
    public long parks() {
        return sum(WorkerStats::parks);
    }

    /**
     * {@return the times a parked worker was woken to look for work, all workers together} With
     * {@link #parks()} and {@link #completed()} it tells how often a hand-off of work cost a
     * wake-up: a message passed between tasks on one worker should cost none.
     */
    public long unparks() {
        return sum(WorkerStats::unparks);
    }

    /** {@return the tasks waiting in every queue: {@link #sharedQueued()} plus each worker's own} */
    public long queued() {
        return sharedQueued + sum(WorkerStats::queued);
    }

    private long sum(ToLongFunction<WorkerStats> counter) {
        long sum = 0;
        for (WorkerStats w : workers) {
            sum += counter.applyAsLong(w);
        }
        return sum;
    }

    /** One line with the totals, then one line per worker. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(64 + 96 * workers.size());
        sb.append("SchedulerStats[").append(name)
                .append(": parallelism=").append(parallelism)
                .append(", live=").append(liveWorkers)
                .append(", blocked=").append(blockedWorkers)
                .append(", completed=").append(completed());
        long polls = polls();
        if (polls != 0) {
            sb.append(", polls=").append(polls).append(", wakeups=").append(wakeups());
        }
        sb.append(", steals=").append(steals())
                .append(", parks=").append(parks())
                .append(", unparks=").append(unparks())
                .append(", queued=").append(queued())
                .append(" (shared ").append(sharedQueued).append(')');
        if (rejected != 0) {
            sb.append(", rejected=").append(rejected);
        }
        if (failed != 0) {
            sb.append(", failed=").append(failed);
        }
        sb.append(']');
        for (WorkerStats w : workers) {
            sb.append("\n  ").append(w);
        }
        return sb.toString();
    }

    /**
     * One worker's counters. Each counter is written only by the worker's own thread.
     *
     * @param index the worker's index (its thread is named {@code <name>-worker-<index>})
     * @param spare whether this is a spare worker, started to compensate for blocking sections
     *     (only a {@code WorkStealingPool} starts spares)
     * @param completed tasks this worker ran to their end, normally or by throwing (a task
     *     cancelled before it started, a future of {@code submit} or a task of {@code invokeAny}
     *     cancelled once another succeeded, runs nothing and is not counted); zero for the async
     *     runtime, whose tasks run in polls (see {@link #polls()})
     * @param polls async runtime only: polls of a task this worker made; zero for the pools
     * @param wakeups async runtime only: woken tasks this worker took from its own wake channel;
     *     zero for the pools
     * @param steals tasks this worker took from other workers' queues (a work-stealing pool's
     *     deques; the async runtime's deques and wake channels); zero where workers do not steal
     * @param stolenFrom {@code WorkStealingPool} only: tasks other workers stole from this
     *     worker's deque
     * @param overflowed {@code WorkStealingPool} only: tasks moved from this worker's full deque
     *     to the shared injector
     * @param parks times this worker parked for want of work
     * @param queued tasks waiting now in this worker's own queues (a work-stealing deque with
     *     its fork stack and LIFO slot, a pinned worker's queue, a work-sharing worker's LIFO
     *     slot; the async runtime's local deque, LIFO slot, wake channel and yield queue, but not
     *     a HYBRID worker's private hot queue); zero where workers have none
     * @param unparks times this worker was woken from a park to look for work: by a thread
     *     that made work visible (a submitter, a peer), by I/O or timer events an async worker
     *     that drives them found while parked, or, rarely, by its own re-check just before it
     *     slept; the wake at the scheduler's end is not counted; at most {@code parks}
     * @param runnerHelps {@code WorkStealingPool} only: tasks this worker took, while it waited on
     *     a join, from the worker running the awaited task (or from the runner of the task that
     *     one awaits, and so on): the subtasks of a stolen task, found by following the thief
     *     rather than by a scan of every peer; zero for the other schedulers
     */
    public record WorkerStats(
            int index,
            boolean spare,
            long completed,
            long polls,
            long wakeups,
            long steals,
            long stolenFrom,
            long overflowed,
            long parks,
            long queued,
            long unparks,
            long runnerHelps) {

        /**
         * A worker's counters without a runner-help count ({@link #runnerHelps()} zero), for a
         * scheduler whose joins do not help.
         *
         * @param index the worker's index
         * @param spare whether this is a spare worker
         * @param completed tasks this worker ran to their end
         * @param polls polls of async tasks this worker made
         * @param wakeups woken tasks this worker took from its own wake channel
         * @param steals tasks this worker took from other workers' queues
         * @param stolenFrom tasks other workers stole from this worker's deque
         * @param overflowed tasks moved from this worker's full deque to the shared injector
         * @param parks times this worker parked for want of work
         * @param queued tasks waiting now in this worker's own queue
         * @param unparks times this worker was woken from a park to look for work
         */
        public WorkerStats(int index, boolean spare, long completed, long polls, long wakeups, long steals,
                long stolenFrom, long overflowed, long parks, long queued, long unparks) {
            this(index, spare, completed, polls, wakeups, steals, stolenFrom, overflowed, parks, queued, unparks,
                    0);
        }

        /**
         * A worker's counters without an unpark count ({@link #unparks()} zero) nor a runner-help
         * count, for a scheduler that does not count them.
         *
         * @param index the worker's index
         * @param spare whether this is a spare worker
         * @param completed tasks this worker ran to their end
         * @param polls polls of async tasks this worker made
         * @param wakeups woken tasks this worker took from its own wake channel
         * @param steals tasks this worker took from other workers' queues
         * @param stolenFrom tasks other workers stole from this worker's deque
         * @param overflowed tasks moved from this worker's full deque to the shared injector
         * @param parks times this worker parked for want of work
         * @param queued tasks waiting now in this worker's own queue
         */
        public WorkerStats(int index, boolean spare, long completed, long polls, long wakeups, long steals,
                long stolenFrom, long overflowed, long parks, long queued) {
            this(index, spare, completed, polls, wakeups, steals, stolenFrom, overflowed, parks, queued, 0, 0);
        }

        /** The non-zero counters, by name. */
        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder("worker ").append(index);
            if (spare) {
                sb.append(" (spare)");
            }
            sb.append(':');
            append(sb, "completed", completed);
            append(sb, "polls", polls);
            append(sb, "wakeups", wakeups);
            append(sb, "steals", steals);
            append(sb, "runnerHelps", runnerHelps);
            append(sb, "stolenFrom", stolenFrom);
            append(sb, "overflowed", overflowed);
            append(sb, "parks", parks);
            append(sb, "unparks", unparks);
            append(sb, "queued", queued);
            return sb.toString();
        }

        private static void append(StringBuilder sb, String counter, long value) {
            if (value != 0) {
                sb.append(' ').append(counter).append('=').append(value);
            }
        }
    }
}
