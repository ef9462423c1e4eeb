/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * One worker of a cluster whose scheduler is reached through a caller-supplied
 * {@link Transport}, for example in another JVM: a data store and a
 * {@link dev.spindle.pool.WorkStealingPool}. The transport hands it the scheduler's messages
 * through {@link #receive} and serves other workers' fetches from {@link #value}; the worker
 * reports through the transport's {@link Transport#toScheduler} and fetches through
 * {@link Transport#fetch}.
 *
 * <p>A node in the coordinator's own JVM that shares the coordinator's transport object (one
 * in-process transport for both) is one of its cluster's workers as a {@link LocalCluster}'s are:
 * a task on it may submit to that coordinator's {@link Client} and wait for what it submitted
 * (it is their submitter, so its retry may submit the same keys again, and a wait runs the
 * awaited task itself if it is ready on this node, see {@link ClusterFuture}). A node reached
 * through another transport object takes the coordinator's futures for another cluster's.
 *
 * <p>A worker that the scheduler retired is told so ({@link Message.Retired}) once its values have
 * other holders; {@link #retired()} then completes, and the process running it may leave the
 * cluster and exit.
 */
public final class WorkerNode implements AutoCloseable {

    private final ClusterWorker worker;
    private final CompletableFuture<Void> retired = new CompletableFuture<>();
    /** Held while a message is handled ({@link #receive}): one at a time, whichever threads deliver them. */
    private final Object inbox = new Object();

    /**
     * Starts a worker.
     *
     * @param id the worker's number, as the scheduler knows it (0-based)
     * @param threads the threads of its pool, at least 1
     * @param transport reaches the scheduler and the other workers
     * @throws IllegalArgumentException if {@code id} is negative or {@code threads} below 1
     * @throws NullPointerException if {@code transport} is null
     */
    public WorkerNode(int id, int threads, Transport transport) {
        this(id, threads, WorkerMemory.NONE, transport);
    }

    /**
     * Starts a worker with a memory limit: above 60 % of it in memory it spills its least
     * recently used values to disk (under {@code memory}'s spill parent) and reads them back when
     * needed, above 80 % it starts no new task, as a {@link LocalCluster} worker does; with a limit
     * it reports its memory, spilled bytes and pause to the scheduler when they change, for the
     * coordinator's {@link ClusterStats}. {@link #close()} deletes the spill files.
     *
     * @param id the worker's number, as the scheduler knows it (0-based)
     * @param threads the threads of its pool, at least 1
     * @param memory the memory limit and spill directory; {@link WorkerMemory#NONE} for none
     * @param transport reaches the scheduler and the other workers
     * @throws IllegalArgumentException if {@code id} is negative or {@code threads} below 1
     * @throws NullPointerException if {@code memory} or {@code transport} is null
     */
    public WorkerNode(int id, int threads, WorkerMemory memory, Transport transport) {
        Objects.requireNonNull(memory, "memory");
        if (id < 0) {
            throw new IllegalArgumentException("id must not be negative, got " + id);
        }
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, got " + threads);
        }
        this.worker = new ClusterWorker(id, threads, Objects.requireNonNull(transport, "transport"), memory,
                memory.limitBytes() > 0);
    }

    /**
     * The worker's number.
     *
     * @return the worker's id, 0 or more
     */
    public int id() {
        return worker.id();
    }

    /**
     * Handles a message from the scheduler; never blocks on a task. Messages may arrive in any
     * order, and from several threads at once: they are handled one at a time, a second caller
     * waiting for the first's message to be handled (which never waits for a task).
     *
     * @param message the message from the scheduler
     * @throws NullPointerException if {@code message} is null
     */
    public void receive(Message.ToWorker message) {
        Objects.requireNonNull(message, "message");
        if (message instanceof Message.Retired) {
            retired.complete(null);           // outside the lock: it runs the caller's callbacks
            return;
        }
        // one at a time: the worker's rules for messages that overtake each other (a task held
        // back for the releases sent before it, a task sent before a release of its input not
        // fetching it, one sent before a release of its own key dropped) each look at what the
        // other messages left and then act, and hold only if no other message is handled between
        // the look and the act. Handled at once, a task sent before a release of its input fetched
        // the input after the release was handled, and the copy outlived its release, counted
        // nowhere; a task sent before a release of its key, overtaken by the release and by the
        // key's next attempt, replaced that attempt, which never reported. The transports of this
        // project deliver one frame at a time (Pekko's actor, Hazelcast's executor of one thread),
        // so the lock is uncontended there; a caller-supplied transport may deliver on several
        // threads. Not in ClusterWorker: the in-process transport delivers on one thread
        synchronized (inbox) {
            worker.receive(message);
        }
    }

    /**
     * Completes (on the transport's delivery thread) when the scheduler has retired this worker:
     * every value it held has another holder and nothing more will be sent to it.
     *
     * @return a stage that completes (with {@code null}) when the worker is retired; it cannot be
     *     completed by the caller
     */
    public CompletionStage<Void> retired() {
        return retired.minimalCompletionStage();
    }

    /**
     * The value this worker holds under {@code key}, or {@code null} if it holds none. A task's
     * result may itself be {@code null}, so {@code null} does not tell the two apart: a transport
     * that answers fetches uses {@link #valueOrDefault}.
     *
     * @param key the key of the value
     * @return the value (read back from disk if it was spilled), or {@code null}
     * @throws NullPointerException if {@code key} is null
     */
    public Object value(String key) {
        return valueOrDefault(key, null);
    }

    /**
     * The value this worker holds under {@code key}, {@code null} included, or {@code absent} if
     * it holds none (as {@link java.util.Map#getOrDefault}). A transport answers a fetch with it:
     * a held {@code null} travels as a value, and only {@code absent} as "not held" (which makes
     * the scheduler drop this holder and compute the value again).
     *
     * <pre>{@code
     * Object v = node.valueOrDefault(request.key(), NOT_HELD);   // NOT_HELD: a private sentinel
     * byte[] reply = v == NOT_HELD ? null : codec.serialize(v);
     * }</pre>
     *
     * <p>A spilled value whose file cannot be read back (deleted by a temporary-file cleaner,
     * damaged on disk) is lost: this worker drops it, logs a warning, tells the scheduler (the
     * requester may go on to another holder and never name this one), and returns {@code absent}.
     *
     * @param key the key of the value
     * @param absent what to return if this worker holds no value under {@code key}
     * @return the value (read back from disk if it was spilled), or {@code absent}
     * @throws NullPointerException if {@code key} is null
     */
    public Object valueOrDefault(String key, Object absent) {
        Objects.requireNonNull(key, "key");
        try {
            return worker.store().contains(key) ? worker.store().get(key) : absent;
        } catch (DataStore.Lost lost) {
            worker.copyLost(key);             // only this worker knows: the requester may name another holder
            return absent;
        } catch (IllegalStateException removedMeanwhile) {
            // released since contains: not held, so the requester hears so at once
            return absent;
        }
    }

    /**
     * How many tasks this worker has run (finished or failed).
     *
     * @return the number of task runs that ended, 0 or more
     */
    public long executed() {
        return worker.executed();
    }

    /** Stops the worker: running tasks are abandoned and held values dropped. Idempotent. */
    @Override
    public void close() {
        worker.shutdown();
    }
}
