/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleEvent;
import dev.spindle.cluster.CloseSteps;
import dev.spindle.cluster.DetachedClose;
import dev.spindle.cluster.Readiness;
import dev.spindle.cluster.WorkerMemory;
import dev.spindle.cluster.WorkerNode;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A worker member: a Hazelcast member that runs one Spindle worker (a data store and a
 * work-stealing pool) for the coordinator of its cluster. {@link WorkerMain} runs one per JVM;
 * tests may start several in one JVM.
 *
 * <pre>{@code
 * HazelcastClusterSettings s = HazelcastClusterSettings.builder("jobs", secret).port(5702)
 *         .member("127.0.0.1:5701").member("127.0.0.1:5702").allowPackage("com.example").build();
 * CountDownLatch done = new CountDownLatch(1);
 * try (HazelcastWorker worker = HazelcastWorker.start(s, 0, 4)) {   // id 0, 4 threads
 *     worker.onMemberShutdown(done::countDown);          // the coordinator left, or retired it
 *     worker.awaitCoordinator(Duration.ofSeconds(60));
 *     done.await();
 * }
 * }</pre>
 *
 * <p>{@link #start} returns once the member has joined; {@link #awaitCoordinator} then waits until
 * a coordinator that proves the secret is known, and fails with the reason when this worker
 * cannot take part (wrong secret, worker id taken, or no coordinator in time, as with a wrong
 * cluster name, which Hazelcast answers by never joining the two), and at once if its member
 * shuts down meanwhile.
 *
 * <p>A worker serves one coordinator for the life of its member. When that coordinator leaves the
 * cluster (it closed, its JVM died, or it declared this member dead while it was only slow), the
 * worker shuts its member down instead of staying behind as an orphan: an orphaned member would
 * keep the cluster's name and ports, and a worker started later could join it instead of the
 * coordinator's cluster. {@link #coordinatorLost()} then says why the member stopped.
 *
 * <p>A worker that the coordinator retires leaves too, once the coordinator has told it that
 * its values have other holders ({@link WorkerNode#retired()}): it shuts its member down and
 * {@link #retired()} says so, and {@link WorkerMain} exits with status 0.
 *
 * <p>A worker that could not send a batch of its reports to the coordinator (a result, a
 * failure) leaves as well: the coordinator would never hear of those tasks, and their callers
 * would wait for good; once this member has left, the coordinator handles the worker as lost and
 * places its tasks again. {@link #reportsUnsent()} then says why the member stopped; but a batch
 * that could not be sent because the coordinator had left the cluster (before this member handled
 * the event that says so) has it leave as {@link #coordinatorLost()}.
 *
 * <p>A worker that the coordinator cut off while its member stayed in the cluster (a frame to it
 * was not delivered, or the scheduler's send to it threw: its tasks are placed again, and nothing
 * it sends is accepted any more) leaves once the coordinator tells it so ({@link Wire.CutOff}),
 * instead of idling for good; {@link #cutOff()} then says why the member stopped, and
 * {@link WorkerMain} exits with status 1, so that a supervisor can start it again.
 *
 * <p>A worker whose fetch of another worker's value fails while one of its member's executors is
 * shut down leaves too, with an ERROR: Hazelcast's {@code IExecutorService.shutdown()} is
 * cluster-wide, any member that joined may call it (Spindle never does), and every later fetch
 * would be refused as well, the scheduler having the value's producer run again and again for
 * nothing. {@link #executorShutDown()} then says why the member stopped, and {@link WorkerMain}
 * exits with status 1.
 *
 * <p>Whenever the member shuts down, for whatever reason, the worker's pool is stopped (its
 * threads exit) and its values are dropped; {@link #close()} is still safe to call. The converse
 * holds too: the worker stops only with its member ({@link #close()} shuts the member down even if
 * stopping the worker throws), since the coordinator learns of a lost worker from membership, and
 * a member left in the cluster with its worker stopped would take its tasks and drop them.
 */
public final class HazelcastWorker implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(HazelcastWorker.class.getName());

    /** For tests: runs in {@link #close} once the node has stopped, as if the node's close threw then. */
    static volatile Runnable afterNodeCloseForTests = () -> { };
    /**
     * For tests: runs in {@link #start} once the member has started and its listeners are added,
     * as if attaching the transport threw then.
     */
    static volatile Runnable afterMemberStartForTests = () -> { };

    private final HazelcastInstance instance;
    private final WorkerNode node;
    private final WorkerTransport transport;
    private final FrameCodec codec;
    private final Roster roster;
    /**
     * Why this worker shut its member down itself; the first reason wins. Each says so in the log:
     * at DEBUG where whoever reports it has logged the cause already, at ERROR for an executor shut
     * down, which only this worker sees.
     */
    enum Leaving {
        COORDINATOR_LOST(Level.DEBUG, "leaving the cluster: its coordinator left it"),
        RETIRED(Level.DEBUG, "leaving the cluster: the coordinator retired it"),
        REPORTS_UNSENT(Level.DEBUG, "leaving the cluster: reports could not be sent to the coordinator"),
        CUT_OFF(Level.DEBUG, "leaving the cluster: the coordinator cut it off"),
        EXECUTOR_SHUT_DOWN(Level.ERROR, "a Hazelcast executor of its member ('" + HazelcastConfigs.MESSAGES + "' or '"
                + HazelcastConfigs.FETCHES + "') was shut down while the member runs (Spindle never does: a member of "
                + "the cluster did; an executor's shutdown is cluster-wide): it cannot take part any more, and "
                + "leaves the cluster");

        private final Level level;
        private final String text;

        Leaving(Level level, String text) {
            this.level = level;
            this.text = text;
        }
    }

    private final Leave leaving;
    /** The cluster's name, for messages: the member's own config cannot be read once it has shut down. */
    private final String clusterName;

    private HazelcastWorker(HazelcastInstance instance, WorkerNode node, WorkerTransport transport,
                            FrameCodec codec, Roster roster, Leave leaving, String clusterName) {
        this.clusterName = clusterName;
        this.leaving = leaving;
        this.instance = instance;
        this.node = node;
        this.transport = transport;
        this.codec = codec;
        this.roster = roster;
    }

    /**
     * Starts worker {@code id} with {@code threads} threads and joins the cluster.
     *
     * @param settings how this member takes part in the Hazelcast cluster
     * @param id the worker's id, as the coordinator's scheduler knows it
     * @param threads the threads of its pool
     * @return the running worker, which the caller closes
     * @throws IllegalArgumentException if {@code id} is negative or {@code threads} below 1
     * @throws NullPointerException if {@code settings} is null
     */
    public static HazelcastWorker start(HazelcastClusterSettings settings, int id, int threads) {
        return start(settings, id, threads, WorkerMemory.NONE);
    }

    /**
     * Starts worker {@code id} with {@code threads} threads and a memory limit (spilling to disk
     * above it, as a {@code LocalCluster} worker does; see {@link WorkerMemory}), and joins the
     * cluster. If anything throws once the worker's pool has started (the member's start or a later
     * step), it stops the pool and shuts the member down, every step also after one that throws,
     * and then throws that, the cleanup's own throwable suppressed in it: no member stays up
     * behind a failed start.
     *
     * @param settings how this member takes part in the Hazelcast cluster
     * @param id the worker's id, as the coordinator's scheduler knows it
     * @param threads the threads of its pool
     * @param memory the memory limit and spill directory; {@link WorkerMemory#NONE} for none
     * @return the running worker, which the caller closes
     * @throws IllegalArgumentException if {@code id} is negative or {@code threads} below 1
     * @throws NullPointerException if {@code settings} or {@code memory} is null
     */
    public static HazelcastWorker start(HazelcastClusterSettings settings, int id, int threads, WorkerMemory memory) {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(memory, "memory");
        Offences offences = new Offences("worker " + id);
        FrameCodec codec = new FrameCodec(settings.secret(), settings.allowedPackages(), offences);
        Roster roster = new Roster(offences);
        WorkerTransport transport = new WorkerTransport(id, codec, roster, settings.maxFrameBytes());
        WorkerNode node = new WorkerNode(id, threads, memory, transport);
        HazelcastInstance instance;
        try {
            instance = HazelcastConfigs.start(settings, offences, Roster.WORKER_ROLE, id, transport);
        } catch (Throwable e) {
            // an Error too: the node's pool is up already
            suppress(e, CloseSteps.runAll(node::close, transport::close));
            throw e;
        }
        try {
            // a member that has shut down (coordinator left, retired, shut down from elsewhere) can never
            // be reached again: its pool threads and held values go with it, not when (if ever) close() is called
            Runnable stop = () -> {
                node.close();
                transport.close();
            };
            instance.getLifecycleService().addLifecycleListener(event -> {
                if (event.getState() == LifecycleEvent.LifecycleState.SHUTDOWN) {
                    stop.run();
                }
            });
            if (!instance.getLifecycleService().isRunning()) {
                stop.run();                       // it stopped before the listener was added
            }
            Leave leaving = new Leave(id, instance::shutdown);
            roster.onCoordinatorLost(() -> leaving.leave(Leaving.COORDINATOR_LOST));
            node.retired().thenRun(() -> leaving.leave(Leaving.RETIRED));
            transport.onReportsUnsent(() -> leaving.leave(Leaving.REPORTS_UNSENT));
            transport.onCutOff(() -> leaving.leave(Leaving.CUT_OFF));
            transport.onExecutorShutDown(() -> leaving.leave(Leaving.EXECUTOR_SHUT_DOWN));
            instance.getCluster().addMembershipListener(roster);
            afterMemberStartForTests.run();
            transport.attach(node, instance);
            return new HazelcastWorker(instance, node, transport, codec, roster, leaving, settings.clusterName());
        } catch (Throwable e) {
            // anything once the member has started, an Error too: it left the member in the cluster,
            // its port bound and its worker unreachable by the caller, who got no worker to close;
            // every step runs, as in close(), so a node's close that throws still shuts the member down
            suppress(e, CloseSteps.runAll(node::close, transport::close, instance::shutdown));
            throw e;
        }
    }

    /** Adds what a failed start's cleanup threw, if anything, to the start's own failure. */
    private static void suppress(Throwable failure, Throwable closing) {
        if (closing != null && closing != failure) {
            failure.addSuppressed(closing);
        }
    }

    /**
     * Shuts the member down for the first reason to leave, on a thread of its own: not on the
     * membership or delivery thread that reports it, since shutting down waits for Hazelcast's
     * threads. That is {@link DetachedClose}'s shape, the coordinators' close once their member
     * stopped, and it runs there: once (it holds the guard), with the reason logged, without the
     * reporting thread's inheritable thread locals, and a shutdown that throws logged with the
     * reason rather than left to the thread's uncaught-exception handler. The reason that won is
     * recorded before the shutdown starts, since it is read once the member has shut down (the
     * exit status of {@link WorkerMain}). Package-private for tests.
     */
    static final class Leave {
        private final int id;
        private final DetachedClose shutdown;
        /** The first reason to leave; set once, by the call that started the shutdown. */
        private volatile Leaving why;

        Leave(int id, Runnable shutdown) {
            this.id = id;
            this.shutdown = new DetachedClose(LOG, "the member", "spindle-worker-" + id + "-leaving", shutdown);
        }

        /** Whether {@code reason} is the reason (the first); a later one does nothing. */
        boolean leave(Leaving reason) {
            return shutdown.start(reason.level, "worker " + id + ": " + reason.text, () -> why = reason);
        }

        /** The first reason to leave, or {@code null} while there was none. */
        Leaving why() {
            return why;
        }
    }

    /**
     * Waits until this worker knows a coordinator that proved the shared secret.
     *
     * @param timeout the longest wait
     * @throws MemberRefusedException if the coordinator refused this worker (its id's lost
     *         incarnation, or a live one claimed from elsewhere; at once), or, when {@code timeout}
     *         runs out, a member's verdict did not prove the secret here and no coordinator did (the
     *         secrets differ; an unproven verdict is not taken as a refusal before, since any member
     *         can send one), or its id is still
     *         held by another process when {@code timeout} runs out: the coordinator keeps such a
     *         claim and admits this worker as a new incarnation once it has declared that process
     *         lost (a worker restarted before its predecessor's loss was seen waits for that)
     * @throws TimeoutException if no coordinator joined within {@code timeout}: it is not running,
     *         or it has another cluster name or member list
     * @throws IllegalStateException if the member shut down before a coordinator was known (from
     *         elsewhere in the cluster, or by Hazelcast itself): no coordinator can reach it any
     *         more, so the wait ends at once
     * @throws InterruptedException if the calling thread is interrupted while it waits
     * @throws NullPointerException if {@code timeout} is null
     */
    public void awaitCoordinator(Duration timeout) throws MemberRefusedException, TimeoutException,
            InterruptedException {
        Objects.requireNonNull(timeout, "timeout");
        try {
            Readiness.await(timeout, System.nanoTime(), () -> {
                String refusal = roster.refusal();
                if (refusal != null) {
                    throw new MemberRefusedException("worker " + id() + " refused: " + refusal);
                }
                if (roster.coordinator() != null) {
                    return true;
                }
                if (!isRunning()) {
                    // else it waited out the whole timeout for a coordinator it could no longer hear of
                    throw new IllegalStateException("worker " + id() + ": its member was shut down before a "
                            + "coordinator of cluster '" + clusterName + "' was known");
                }
                return false;
            }, () -> "worker " + id() + ": no coordinator of cluster '" + clusterName
                    + "' joined within " + inWords(timeout) + " (is it running, with the same cluster name and "
                    + "member list?)");
        } catch (TimeoutException e) {
            String unproven = roster.unproven();
            if (unproven != null && roster.waiting() == null) {
                throw new MemberRefusedException("worker " + id() + " refused: " + unproven + "; no coordinator proved "
                        + "it within " + inWords(timeout));
            }
            String waiting = roster.waiting();
            if (waiting == null) {
                throw e;
            }
            throw new MemberRefusedException("worker " + id() + " refused: " + waiting + ", and it did not within "
                    + inWords(timeout) + " (if that process still runs, stop it; if it stopped, its member's "
                    + "heartbeat timeout is longer than this wait)");
        }
    }

    /**
     * A wait as its messages give it: whole seconds as "3 s", a second or more to the millisecond
     * ("1.5 s"), less in milliseconds ("500 ms", "0.25 ms"); a negative wait, which waits not at all, as "0 s". Whole seconds alone
     * said a 500 ms wait had ended "within 0 s".
     */
    static String inWords(Duration d) {
        if (d.isNegative() || d.isZero()) {
            return "0 s";
        }
        if (d.getNano() == 0) {
            return d.getSeconds() + " s";
        }
        if (d.getSeconds() == 0) {             // under a second: in milliseconds, to the nanosecond
            return java.math.BigDecimal.valueOf(d.getNano(), 6).stripTrailingZeros().toPlainString() + " ms";
        }
        return java.math.BigDecimal.valueOf(d.getSeconds()).add(java.math.BigDecimal.valueOf(d.getNano(), 9))
                .setScale(3, java.math.RoundingMode.HALF_UP).stripTrailingZeros().toPlainString() + " s";
    }

    /**
     * Runs {@code callback} (once, on a Hazelcast thread) when this worker's member shuts down,
     * whether by {@link #close}, the JVM exiting, or a shutdown from elsewhere in the cluster.
     *
     * @param callback what to run; it should not block, since it runs on a Hazelcast thread
     * @throws NullPointerException if {@code callback} is null
     */
    public void onMemberShutdown(Runnable callback) {
        Objects.requireNonNull(callback, "callback");
        AtomicBoolean once = new AtomicBoolean();
        Runnable fire = () -> {
            if (once.compareAndSet(false, true)) {
                callback.run();
            }
        };
        instance.getLifecycleService().addLifecycleListener(event -> {
            if (event.getState() == LifecycleEvent.LifecycleState.SHUTDOWN) {
                fire.run();
            }
        });
        if (!instance.getLifecycleService().isRunning()) {
            fire.run();                       // it stopped before the listener was added
        }
    }

    /**
     * Whether this worker's coordinator left the cluster, which shuts this worker's member down
     * (see the class comment).
     *
     * @return {@code true} if the member is leaving or left because the coordinator did
     */
    public boolean coordinatorLost() {
        return leaving.why() == Leaving.COORDINATOR_LOST;
    }

    /**
     * Whether the coordinator retired this worker (its values have other holders), which shuts
     * this worker's member down (see the class comment).
     *
     * @return {@code true} if the member is leaving or left because it was retired
     */
    public boolean retired() {
        return leaving.why() == Leaving.RETIRED;
    }

    /**
     * Whether this worker left because a batch of its reports could not be sent to the
     * coordinator (see the class comment).
     *
     * @return {@code true} if the member is leaving or left for that reason
     */
    boolean reportsUnsent() {
        return leaving.why() == Leaving.REPORTS_UNSENT;
    }

    /**
     * Whether this worker left because the coordinator cut it off while its member stayed in
     * the cluster (see the class comment).
     *
     * @return {@code true} if the member is leaving or left for that reason
     */
    boolean cutOff() {
        return leaving.why() == Leaving.CUT_OFF;
    }

    /**
     * Whether this worker left because one of its member's executors was shut down while the
     * member ran, so that its fetches were refused (see the class comment).
     *
     * @return {@code true} if the member is leaving or left for that reason
     */
    boolean executorShutDown() {
        return leaving.why() == Leaving.EXECUTOR_SHUT_DOWN;
    }

    /**
     * The worker's id.
     *
     * @return the worker's id, 0 or more
     */
    public int id() {
        return node.id();
    }

    /**
     * Tasks this worker has run.
     *
     * @return the number of task runs that ended (finished or failed), 0 or more
     */
    public long executed() {
        return node.executed();
    }

    /** Fetch request frames this worker sent and the fetches they carried, {frames, fetches}; for tests. */
    long[] fetchCounts() {
        return transport.fetchCounts();
    }

    /**
     * Frames dropped because of a bad signature or a class outside the allow-list.
     *
     * @return the number of frames dropped so far, 0 or more
     */
    public long rejectedFrames() {
        return codec.rejected();
    }

    /**
     * Members refused, each counted once (a coordinator with the wrong proof, a second
     * coordinator).
     *
     * @return the number of members refused so far, 0 or more
     */
    public long refusedMembers() {
        return roster.refused();
    }

    /**
     * What this worker refused so far, by kind; each offender is logged once.
     *
     * @return a new snapshot of the refusals by kind
     */
    public SecurityStats securityStats() {
        return SecurityStats.of(roster.offences());
    }

    /**
     * Whether the member is still in its cluster.
     *
     * @return {@code true} until the member shuts down, for whatever reason
     */
    public boolean isRunning() {
        return instance.getLifecycleService().isRunning();
    }

    Roster roster() {
        return roster;
    }

    /** The next {@link dev.spindle.cluster.Message.Retired} for this worker is lost on arrival (for tests). */
    void loseNextRetiredForTests() {
        transport.loseNextRetiredForTests();
    }

    HazelcastInstance instanceForTests() {
        return instance;
    }

    /**
     * Leaves the cluster and stops the worker. Every step runs, also those after one that throws,
     * and the first throwable is thrown once they have, the later ones suppressed in it: the
     * member is shut down whatever the node's close did. Shut down only if that close returned, a
     * close that threw (an Error, say an OutOfMemoryError from its pool's shutdown) left the
     * member in the cluster with its worker stopped: the coordinator, which learns of a lost worker
     * from membership, went on sending it tasks, delivered and dropped there, and their callers,
     * and those of the tasks it was running, waited for good. Idempotent.
     */
    @Override
    public void close() {
        CloseSteps.closeAll(() -> {
            node.close();
            afterNodeCloseForTests.run();
        }, transport::close, instance::shutdown);
    }
}
