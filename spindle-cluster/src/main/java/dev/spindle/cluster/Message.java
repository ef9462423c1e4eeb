/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.io.Serializable;
import java.util.List;
import java.util.Map;

/**
 * The messages between the scheduler and the workers. They carry keys, attempt numbers and
 * steal ids rather than object references to scheduler state, so that a transport between JVMs
 * can serialise them. An attempt number names one assignment of a task to a worker; replies
 * about an older attempt are stale and ignored.
 *
 * <p>Public and {@link Serializable} so that a {@link Transport} in another module can carry
 * them between JVMs; only this package creates or handles them. Their serialised form is a detail
 * of the transports, not a compatibility promise, so the records are left out of the
 * serialized-form page ({@code @serial exclude}).
 */
public sealed interface Message extends Serializable {

    /** Messages the scheduler sends to a worker. */
    sealed interface ToWorker extends Message {
    }

    /** Messages a worker (or the transport, for a lost worker) sends to the scheduler. */
    sealed interface ToScheduler extends Message {
        /**
         * The worker the message is about.
         *
         * @return the worker's id
         */
        int worker();
    }

    /**
     * Run a task: fetch the dependencies it lacks from the listed holders, then execute.
     *
     * @param key the task's key
     * @param attempt the number of this assignment; replies name it
     * @param function the task's function
     * @param dependencies the keys of the task's arguments, in order
     * @param holders for each dependency, the ids of the workers holding it
     * @param priority the task's priority among the worker's ready tasks
     * @param releases how many {@link ReleaseKey} messages the scheduler had sent to this worker
     *        before this one: a transport may deliver frames out of order, and a worker that took
     *        the task before those releases would read a released value it still holds (of a key
     *        since forgotten and submitted again, say) as the task's input, or lose the task's
     *        own result to a release of its earlier one; so the worker holds the task back until
     *        it has handled that many
     * @serial exclude
     */
    record Compute(String key, long attempt, TaskFunction<?> function, List<String> dependencies,
                   Map<String, List<Integer>> holders, int priority, long releases) implements ToWorker {

        /**
         * A task that waits for no release.
         *
         * @param key the task's key
         * @param attempt the number of this assignment
         * @param function the task's function
         * @param dependencies the keys of the task's arguments, in order
         * @param holders for each dependency, the ids of the workers holding it
         * @param priority the task's priority among the worker's ready tasks
         */
        public Compute(String key, long attempt, TaskFunction<?> function, List<String> dependencies,
                       Map<String, List<Integer>> holders, int priority) {
            this(key, attempt, function, dependencies, holders, priority, 0);
        }
    }

    /**
     * Drop the value held under {@code key}: no client future and no pending task needs it any
     * more. A later task that needs it has it recomputed.
     *
     * @param key the key of the value to drop
     * @param index this release's number among those the scheduler sent the worker (from 1), as
     *        counted in {@link Compute#releases}; 0 if unknown. A task sent before this release
     *        ({@code releases < index}) that arrives after it is still abandoned by it, if of
     *        the same key, as it would have been in send order
     * @serial exclude
     */
    record ReleaseKey(String key, long index) implements ToWorker {

        /**
         * A release of unknown number, which abandons only the job of {@code key} that has arrived.
         *
         * @param key the key of the value to drop
         */
        public ReleaseKey(String key) {
            this(key, 0);
        }
    }

    /**
     * Fetch a copy of {@code key} from one of {@code holders} and keep it, answering
     * {@link DataAdded} (or {@link ReplicaFailed} if no holder answers with it): a retiring worker's values that no other worker holds are copied before
     * it leaves.
     *
     * @param key the key of the value to copy
     * @param holders the ids of the workers holding it
     * @param releases how many {@link ReleaseKey} messages the scheduler had sent to this worker
     *        before this one, as in {@link Compute#releases}: a worker that took the order before
     *        a release of the key sent ahead of it would report the released, earlier value it
     *        still holds as the copy (which the release then drops), so it holds the order back
     *        until it has handled those releases
     * @serial exclude
     */
    record Replicate(String key, List<Integer> holders, long releases) implements ToWorker {

        /**
         * A copy order that waits for no release.
         *
         * @param key the key of the value to copy
         * @param holders the ids of the workers holding it
         */
        public Replicate(String key, List<Integer> holders) {
            this(key, holders, 0);
        }
    }

    /**
     * The scheduler has removed this retired worker: every value it held has another holder and
     * nothing more will be sent to it, so its process may leave the cluster and stop (sent just
     * before {@link Transport#retired}).
     *
     * @param worker the retired worker's id
     * @serial exclude
     */
    record Retired(int worker) implements ToWorker {
    }

    /**
     * Release a task if it has not started; answer with {@link StealResponse}.
     *
     * @param stealId names this steal in the response
     * @param key the task's key
     * @param attempt the assignment the steal is for
     * @serial exclude
     */
    record StealRequest(long stealId, String key, long attempt) implements ToWorker {
    }

    /**
     * The task finished. In-process the value travels with the message so that the client's
     * future completes without another round trip; a remote transport would leave it on the
     * worker and gather it on demand.
     *
     * @param worker the id of the worker that ran the task
     * @param key the task's key
     * @param attempt the assignment that finished
     * @param value the task's result (may be {@code null})
     * @param bytes the result's measured size in bytes
     * @param nanos how long the task ran, in nanoseconds
     * @serial exclude
     */
    record TaskFinished(int worker, String key, long attempt, Object value, long bytes, long nanos)
            implements ToScheduler {
    }

    /**
     * The task has been executing for {@code nanos} and is still running. Workers report tasks
     * that run longer than a report interval, so that the scheduler can raise the estimate of a
     * kind that turns out slower than learned, as Dask's heartbeats do.
     *
     * @param worker the id of the worker running the task
     * @param key the task's key
     * @param attempt the assignment that is running
     * @param nanos how long it has run so far, in nanoseconds
     * @serial exclude
     */
    record TaskRunning(int worker, String key, long attempt, long nanos) implements ToScheduler {
    }

    /**
     * The task threw.
     *
     * @param worker the id of the worker that ran the task
     * @param key the task's key
     * @param attempt the assignment that failed
     * @param error what the task threw (a {@link RemoteTaskException} after crossing JVMs)
     * @param nanos how long the task ran, in nanoseconds
     * @serial exclude
     */
    record TaskErred(int worker, String key, long attempt, Throwable error, long nanos) implements ToScheduler {
    }

    /**
     * The answer to a steal request: {@code released} only if the task had not started.
     *
     * @param worker the id of the victim
     * @param stealId the steal this answers
     * @param key the task's key
     * @param attempt the assignment the steal was for
     * @param released whether the task was released (it had not started)
     * @serial exclude
     */
    record StealResponse(int worker, long stealId, String key, long attempt, boolean released)
            implements ToScheduler {
    }

    /**
     * A dependency could not be fetched from {@code holder}; the task did not run. With
     * {@code attempt} 0 (an assignment never made) no task is concerned: the worker, its own
     * {@code holder}, lost its copy of {@code dependency} (a spilled value unreadable) as it served
     * another worker's fetch, which goes on to the next holder and would not name this one.
     *
     * @param worker the id of the worker that needed the value
     * @param key the key of the task that did not run ({@code dependency} itself for attempt 0)
     * @param attempt the assignment that did not run, 0 for none
     * @param dependency the key of the value that could not be fetched
     * @param holder the id of the worker it was asked from
     * @serial exclude
     */
    record DataMissing(int worker, String key, long attempt, String dependency, int holder)
            implements ToScheduler {
    }

    /**
     * The worker now holds a copy of {@code key} (fetched as a dependency, or as a copy of a
     * retiring worker's value); {@code bytes} is the measured size of the value it moved to do so
     * (0 when it reports a value it held already), which the scheduler adds to the bytes moved
     * between workers.
     *
     * @param worker the id of the worker that holds the copy
     * @param key the key of the value
     * @param bytes the bytes moved to get it, 0 if none
     * @param releases how many of the {@link ReleaseKey} messages sent to it the worker had handled,
     *        every one numbered up to this count, when it stored the copy (read before it stored
     *        it): a release of the key it had not handled yet drops the copy after the report, and
     *        a report that arrives once the scheduler has asked the worker for the key again
     *        would stand for the copy asked for; the scheduler ignores a report below the count
     *        of releases it had sent the worker when it asked ({@link Compute#releases},
     *        {@link Replicate#releases}). {@link Long#MAX_VALUE} if unknown: taken as current
     * @serial exclude
     */
    record DataAdded(int worker, String key, long bytes, long releases) implements ToScheduler {

        /**
         * A report that does not say which releases the worker had handled: taken as current.
         *
         * @param worker the id of the worker that holds the copy
         * @param key the key of the value
         * @param bytes the bytes moved to get it, 0 if none
         */
        public DataAdded(int worker, String key, long bytes) {
            this(worker, key, bytes, Long.MAX_VALUE);
        }

        /**
         * A report that moved nothing (the value was held already), taken as current.
         *
         * @param worker the id of the worker that holds the value
         * @param key the key of the value
         */
        public DataAdded(int worker, String key) {
            this(worker, key, 0);
        }
    }

    /**
     * A worker could not make the copy of {@code key} that a {@link Replicate} asked for (no holder
     * answered with the value), so the scheduler asks again, or gives the copy up (see
     * {@code GraphScheduler}'s retirement) instead of waiting for a {@link DataAdded} that will
     * not come.
     *
     * @param worker the id of the worker that was asked for the copy
     * @param key the key of the value
     * @serial exclude
     */
    record ReplicaFailed(int worker, String key) implements ToScheduler {
    }

    /**
     * A worker's data store now: the bytes of its values in memory and spilled to disk, and
     * whether it is paused (over the pause fraction of its memory limit). Sent by a worker in
     * another JVM with a memory limit when these change, so that the coordinator's stats show
     * them, and again unchanged about once a second: the scheduler takes the last one it receives,
     * and one lost or overtaken on its way would otherwise leave its figures stale for good.
     *
     * @param worker the reporting worker's id
     * @param memoryBytes the measured size of its values in memory
     * @param spilledBytes the measured size of its values spilled to disk
     * @param paused whether it starts no new task
     * @serial exclude
     */
    record MemoryReport(int worker, long memoryBytes, long spilledBytes, boolean paused) implements ToScheduler {
    }

    /**
     * Whether a worker is stalled on memory: paused (over the pause fraction of its memory
     * limit) with only values that cannot spill in memory (or that its disk refused) and no task
     * running, so that only a release from the scheduler (or its disk taking a spill) can let it
     * start a task again. Sent by every worker with a memory limit when this changes, and again
     * while stalled when its figures change; once a worker has stalled, its state is also sent
     * again unchanged about once a second, since one lost on its way (a transport may drop it
     * without telling) would leave the scheduler's view stale for good. A repeated report is
     * taken as any newer one: it changes nothing. While it is stalled as of the last
     * {@link ReleaseKey} sent to it, the scheduler places no task on it that another worker may
     * run, takes back the tasks queued on it by steal requests, and fails those that no worker
     * but stalled ones may run once nothing else could make progress.
     *
     * @param worker the reporting worker's id
     * @param stalled whether it is stalled
     * @param releases how many {@link ReleaseKey} messages it had handled when it looked: a
     *        report that misses a release sent since is out of date
     * @param memoryBytes the measured size of its values in memory, none of which can spill (or the
     *        disk took) when stalled
     * @param limitBytes its memory limit in bytes
     * @param report the number of this report among the worker's stall reports, from 1: a transport
     *        may deliver them out of order, and the scheduler ignores one older than the last it
     *        took (an older one arriving last would stand until the worker's next report, which
     *        may be a second away, or, before the worker has stalled, for good); 0 for a report
     *        that is never taken for older
     * @param awaited when stalled, the keys that tasks the worker started wait for (a task waiting
     *        for another's {@code ClusterFuture}, which does not count as running): once one of
     *        them ends, a task waiting for it resumes, and the report is out of date until the
     *        next; the scheduler does not take that worker for one nothing but the client could
     *        unstall meanwhile. Only keys of the worker's own cluster in its JVM: a worker in
     *        another JVM waits for none of its scheduler's futures, so the wire form leaves them
     *        out (a task waiting for a future its scheduler does not own counts as running, and
     *        is named nowhere); never null
     * @serial exclude
     */
    record MemoryStall(int worker, boolean stalled, long releases, long memoryBytes, long limitBytes, long report,
            List<String> awaited) implements ToScheduler {

        /**
         * A report; {@code awaited} is copied, null for none.
         *
         * @param worker the reporting worker's id
         * @param stalled whether it is stalled
         * @param releases how many {@link ReleaseKey} messages it had handled when it looked
         * @param memoryBytes the measured size of its values in memory
         * @param limitBytes its memory limit in bytes
         * @param report the number of this report among the worker's stall reports, 0 for none
         * @param awaited when stalled, the keys that tasks the worker started wait for
         */
        public MemoryStall {
            awaited = awaited == null ? List.of() : List.copyOf(awaited);
        }

        /**
         * A report naming no awaited key.
         *
         * @param worker the reporting worker's id
         * @param stalled whether it is stalled
         * @param releases how many {@link ReleaseKey} messages it had handled when it looked
         * @param memoryBytes the measured size of its values in memory
         * @param limitBytes its memory limit in bytes
         * @param report the number of this report among the worker's stall reports, 0 for none
         */
        public MemoryStall(int worker, boolean stalled, long releases, long memoryBytes, long limitBytes, long report) {
            this(worker, stalled, releases, memoryBytes, limitBytes, report, List.of());
        }

        /**
         * A report without a number, never taken for older than another.
         *
         * @param worker the reporting worker's id
         * @param stalled whether it is stalled
         * @param releases how many {@link ReleaseKey} messages it had handled when it looked
         * @param memoryBytes the measured size of its values in memory
         * @param limitBytes its memory limit in bytes
         */
        public MemoryStall(int worker, boolean stalled, long releases, long memoryBytes, long limitBytes) {
            this(worker, stalled, releases, memoryBytes, limitBytes, 0);
        }
    }

    /**
     * The worker is gone, with everything it held and was running.
     *
     * @param worker the id of the lost worker
     * @serial exclude
     */
    record WorkerLost(int worker) implements ToScheduler {
    }
}
