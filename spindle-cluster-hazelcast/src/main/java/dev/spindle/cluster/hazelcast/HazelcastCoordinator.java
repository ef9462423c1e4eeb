/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleEvent;
import dev.spindle.cluster.CloseSteps;
import dev.spindle.cluster.Client;
import dev.spindle.cluster.ClusterCoordinator;
import dev.spindle.cluster.ClusterStats;
import dev.spindle.cluster.ClusterView;
import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.DetachedClose;
import dev.spindle.cluster.Incarnations;
import dev.spindle.cluster.Readiness;
import dev.spindle.cluster.StealEvent;
import dev.spindle.cluster.TaskEvent;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;

/**
 * The scheduler's JVM: a Hazelcast member (not a client, because Hazelcast's executor runs tasks
 * on members only, and workers reply by running a task on it) that holds the Spindle scheduler
 * and hands out the {@link Client}.
 *
 * <pre>{@code
 * HazelcastClusterSettings s = HazelcastClusterSettings.builder("jobs", secret).port(5701)
 *         .member("127.0.0.1:5701").member("127.0.0.1:5702").allowPackage("com.example").build();
 * try (HazelcastCoordinator c = HazelcastCoordinator.start(s,
 *         CoordinatorSettings.builder().workers(1).threadsPerWorker(4).build(), Duration.ofSeconds(60))) {
 *     System.out.println(c.client().submit("one", args -> 1).get());
 * }
 * }</pre>
 *
 * <p>Workers are numbered {@code 0..workers-1} by their {@link WorkerMain} id; {@link #start}
 * waits until each has joined and proved the secret. A worker member that leaves is reported to
 * the scheduler as lost: its running tasks are reassigned and the results it held recomputed.
 *
 * <p>Membership: a worker may join later with an id not used in this session (below
 * {@link ClusterCoordinator#MAX_WORKERS}), and a killed or retired worker's process may restart
 * under its id: each worker process draws a random incarnation, proves it in its handshake and
 * carries it in every frame, and only the current incarnation's frames are accepted, so a late
 * frame of the dead process can never count as the new one's. Once it has proved the secret and every worker, itself included, has answered a probe
 * with the new list of workers, the scheduler admits it with the settings' threads per worker,
 * and placement and stealing give it work; if that does not happen within the join timeout, it
 * is cut off as a lost worker (its id is free again, and its {@link WorkerMain} is told and exits
 * with status 1). {@link #retire} retires a worker gracefully; once
 * removed it is cut off (its member may then be stopped).
 *
 * <p>The scheduler lives only as long as its member. If the member stops without {@link #close}
 * (another part of the application shuts down or terminates the {@code HazelcastInstance}, or
 * Hazelcast stops it itself), the coordinator closes, on a thread of its own, as {@link #close}
 * does: unfinished futures fail with {@link IllegalStateException}, later submissions throw
 * {@link java.util.concurrent.RejectedExecutionException}, and a WARNING is logged. Left up, the
 * scheduler could reach no worker any more and hear from none: a task in flight waited until
 * {@link CoordinatorSettings#noWorkerTimeout()}, or for good, and the client went on accepting
 * tasks that went nowhere. The close does not run on the thread that stops the member, which
 * holds Hazelcast's lifecycle lock while it tells its listeners: a future's callback that closes
 * this coordinator (and so shuts the member down) would wait for that lock, and the scheduler's
 * close for the callback. {@link #close} stays safe to call.
 *
 * <p>Likewise if one of the member's executors is shut down while the member runs: Hazelcast's
 * {@code IExecutorService.shutdown()} is cluster-wide, and any member that joined the cluster may
 * call it, without the secret (see the security model in the module's README). With its message
 * executor shut down no frame can reach or leave this member; with its fetch executor, no worker
 * can be admitted, and workers cannot fetch each other's values (such a worker leaves, see
 * {@link HazelcastWorker}). Once a send to a worker is refused, or a worker is lost, while that is
 * so, the coordinator closes as above, logs an ERROR, and its member leaves the cluster in order
 * (its workers then leave too, as they do whenever their coordinator leaves). Before, it handled
 * each worker it could not reach as lost and went on accepting tasks, each of which waited out
 * {@link CoordinatorSettings#noWorkerTimeout()}, as did those of every restarted worker.
 */
public final class HazelcastCoordinator implements ClusterView, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(HazelcastCoordinator.class.getName());

    private final HazelcastInstance instance;
    private final CoordinatorTransport transport;
    private final Roster roster;
    private final ClusterCoordinator coordinator;
    private final FrameCodec codec;
    private final Session session;
    private final Admission admission;
    private final Duration joinTimeout;
    private volatile boolean started;
    /**
     * This coordinator's {@link #close} once its member stopped under it, or an executor of the member
     * was shut down: once, not on the thread that reports it, which is Hazelcast's lifecycle thread
     * (it holds the lifecycle lock, which a future's callback that closes this coordinator would wait
     * for while the scheduler's close waited for that callback) or a sender thread (one that the close
     * stops). Not after {@link #close}: the member's stop that follows is this coordinator's own doing.
     */
    private final DetachedClose closingItself;
    /** Held while a probe's list is read and its frames numbered ({@link #allReady}). */
    private final Object probes = new Object();

    /** For tests: runs in {@link #start} once the scheduler has started, as if what follows threw. */
    static volatile Runnable afterSchedulerStartForTests = () -> { };
    /**
     * For tests: runs in {@link #close}, and in a failed {@link #start}'s cleanup, once the scheduler
     * has stopped, as if the scheduler's close threw then.
     */
    static volatile Runnable afterSchedulerCloseForTests = () -> { };
    /** For tests: whether worker {@code id} answers a probe ({@link #allReady}), as if it never did when false. */
    static volatile java.util.function.IntPredicate answersProbeForTests = id -> true;
    /**
     * For tests: when not null, how long a late joiner's probes may fail before its join is given up
     * ({@link #joinLate}), in place of the join timeout. That timeout is also the start's wait for
     * the first workers, which must stay generous on a loaded machine; a test that waits a given-up
     * join out sets this short instead of shortening both.
     */
    static volatile Duration lateJoinTimeoutForTests;

    private HazelcastCoordinator(HazelcastInstance instance, CoordinatorTransport transport, Roster roster,
                                 ClusterCoordinator coordinator, FrameCodec codec, Session session,
                                 Duration joinTimeout) {
        this.joinTimeout = joinTimeout;
        this.instance = instance;
        this.transport = transport;
        this.roster = roster;
        this.coordinator = coordinator;
        this.codec = codec;
        this.session = session;
        this.admission = new Admission(codec, roster, session, instance, coordinator.workers());
        this.closingItself = new DetachedClose(LOG, "the coordinator", "spindle-coordinator-closing", this::close);
    }

    /**
     * Starts the coordinator member and waits until {@code cluster}'s number of workers have
     * joined. If anything throws once the member has started (the wait included), it stops what it
     * started, as {@link #close} does, every step also after one that throws, and then throws
     * that, the cleanup's own throwable suppressed in it: the member never stays up behind a
     * failed start.
     *
     * @param cluster the scheduler's settings; its worker count and threads must match the workers
     * @param settings how this member takes part in the Hazelcast cluster
     * @param joinTimeout the longest wait for the workers
     * @return the running coordinator, which the caller closes
     * @throws TimeoutException if the workers do not all join within {@code joinTimeout}; the
     *         member is shut down
     * @throws InterruptedException if the calling thread is interrupted while it waits; the member
     *     is shut down
     * @throws NullPointerException if an argument is null
     */
    public static HazelcastCoordinator start(HazelcastClusterSettings settings, CoordinatorSettings cluster,
                                             Duration joinTimeout) throws TimeoutException, InterruptedException {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(joinTimeout, "joinTimeout");
        Offences offences = new Offences("coordinator");
        FrameCodec codec = new FrameCodec(settings.secret(), settings.allowedPackages(), offences);
        Roster roster = new Roster(offences);
        Session session = new Session(Wire.COORDINATOR, Wire.COORDINATOR_INCARNATION, offences);
        session.join(UUID.randomUUID());      // a fresh session: nothing signed before it is accepted
        CoordinatorTransport transport = new CoordinatorTransport(codec, roster, session, settings.maxFrameBytes());
        HazelcastInstance instance = HazelcastConfigs.start(settings, offences, Roster.COORDINATOR_ROLE, -1, transport);
        ClusterCoordinator coordinator = null;
        HazelcastCoordinator c = null;
        try {
            coordinator = ClusterCoordinator.start(cluster, transport);
            afterSchedulerStartForTests.run();
            transport.attach(instance, coordinator::receive);
            instance.getCluster().addMembershipListener(roster);
            c = new HazelcastCoordinator(instance, transport, roster, coordinator, codec, session, joinTimeout);
            HazelcastCoordinator created = c;
            instance.getLifecycleService().addLifecycleListener(event -> {
                if (event.getState() == LifecycleEvent.LifecycleState.SHUTTING_DOWN
                        || event.getState() == LifecycleEvent.LifecycleState.SHUTDOWN) {
                    created.memberStopped();
                }
            });
            if (!instance.getLifecycleService().isRunning()) {
                c.memberStopped();            // it stopped before the listener was added
            }
            transport.onEndpointStopped(c::endpointStopped);
            c.admission.onProven(c::proven);
            roster.onIdFree(c.admission::idLost);
            instance.getCluster().addMembershipListener(c.admission);
            c.awaitWorkers(coordinator.workers(), joinTimeout);
        } catch (Throwable e) {
            // anything from the member's start on, an Error too: the try began at the wait only, and
            // caught no Error, so a throwable before it (starting the scheduler, say) or an Error in
            // it left the scheduler's threads running and the member up, its port bound, for good
            Throwable closing;
            if (c != null) {
                closing = CloseSteps.runAll(c::close);
            } else {
                // every step, as close() runs them: a scheduler's close that threw skipped the
                // member's shutdown, and the member stayed up, its port bound, for good
                ClusterCoordinator started = coordinator;
                closing = CloseSteps.runAll(() -> {
                    if (started != null) {
                        started.close();
                        afterSchedulerCloseForTests.run();
                    }
                }, transport::close, instance::shutdown);
            }
            if (closing != null && closing != e) {
                e.addSuppressed(closing);
            }
            throw e;
        }
        c.started = true;
        for (int id : roster.provenWorkers().keySet()) {
            c.proven(Incarnations.Proof.NEW, id);   // proven while starting, beyond the initial ids
        }
        return c;
    }

    private void awaitWorkers(int workers, Duration timeout) throws TimeoutException, InterruptedException {
        List<Integer> ids = new ArrayList<>();
        for (int id = 0; id < workers; id++) {
            ids.add(id);
        }
        Readiness.awaitWorkers(workers, timeout, System.nanoTime(), roster::workers, roster::refused,
                admission::admitAll, () -> allReady(ids));
    }

    /**
     * The member is stopping or has stopped, and not by {@link #close}: the coordinator closes (see
     * the class comment).
     */
    private void memberStopped() {
        closingItself.start(Level.WARNING, "the coordinator's Hazelcast member stopped without close(): "
                + "the coordinator closes, its unfinished tasks fail and it accepts no new ones");
    }

    /**
     * One of the member's executors was shut down while the member runs
     * ({@link CoordinatorTransport#onEndpointStopped}): the coordinator closes, and its member
     * leaves in order (see the class comment).
     */
    private void endpointStopped() {
        closingItself.start(Level.ERROR, "a Hazelcast executor of the coordinator's member ('"
                + HazelcastConfigs.MESSAGES + "' or '" + HazelcastConfigs.FETCHES + "') was shut down while the "
                + "member runs (Spindle never does: a member of the cluster did; an executor's shutdown is "
                + "cluster-wide): this member can no longer reach its workers or admit any, so the coordinator "
                + "closes, its unfinished tasks fail, and its member leaves the cluster");
    }

    /** A worker proved its id: it joins the scheduler by {@link Readiness#admitProven}'s rules. */
    private void proven(Incarnations.Proof proof, int id) {
        Readiness.admitProven(coordinator, proof, id, started, this::joinLate);
    }

    private void joinLate(int id) {
        transport.admitting(id);              // the scheduler has handled the loss of the id's last process
        com.hazelcast.cluster.Member joiner = roster.worker(id);   // the process that joins, not a later one
        long incarnation = roster.incarnation(id);
        Duration timeout = lateJoinTimeoutForTests;
        Readiness.joinLate(coordinator, id, timeout != null ? timeout : joinTimeout,
                () -> roster.worker(id) != null && instance.getLifecycleService().isRunning(),
                () -> allReady(List.copyOf(roster.provenWorkers().keySet())),
                () -> transport.cutOff(id, joiner, incarnation));
    }

    /**
     * Sends every worker the list of proven workers (it fetches only from those) and checks that
     * each answers in this session. Hazelcast can show a member in this member's list before that
     * member's own list shows this one, and a task sent then may be discarded; a call with a reply
     * closes that window. For the same reason a worker answers only once its own list shows every
     * worker listed ({@link Roster#adopt}); until then this is asked again.
     */
    private boolean allReady(List<Integer> workers) throws InterruptedException {
        List<com.hazelcast.cluster.Member> members = new ArrayList<>(workers.size());
        List<byte[]> frames = new ArrayList<>(workers.size());
        // the list is read and numbered (its frames' sequence numbers) under one lock, so that a
        // later list has the later numbers: two late joins probe at once, and a worker, which
        // handles the probes on several threads, adopts no list older than one it adopted
        // (Roster#adopt), or an id that rejoined went back to its lost process there
        synchronized (probes) {
            Wire.Members list = roster.members();
            for (int id : workers) {
                com.hazelcast.cluster.Member m = roster.worker(id);
                if (m == null) {
                    return false;
                }
                members.add(m);
                frames.add(codec.seal(session.frame(id, roster.incarnation(id), list)));
            }
        }
        for (int i = 0; i < workers.size(); i++) {
            int id = workers.get(i);
            if (!answersProbeForTests.test(id)) {
                return false;
            }
            com.hazelcast.cluster.Member m = members.get(i);
            byte[] frame = frames.get(i);
            try {
                @SuppressWarnings("unchecked")
                java.util.concurrent.Callable<Object> call =
                        (java.util.concurrent.Callable<Object>) (java.util.concurrent.Callable<?>) new FetchCall(frame);
                // read as an Object: the member chooses the type of its answer, and the cast of
                // another type threw a ClassCastException out of the probe (and of the start-up wait)
                Object answer = instance.getExecutorService(HazelcastConfigs.FETCHES)
                        .submitToMember(call, m).get(5, java.util.concurrent.TimeUnit.SECONDS);
                if (!(answer instanceof FrameReply reply) || reply.frame == null) {
                    return false;             // refused, not a reply, or over the frame limit (counted, unread)
                }
                Wire.Frame f = codec.open(reply.frame);
                if (f.sender() != id || !session.accept(f, roster.incarnation(id))) {
                    return false;
                }
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException
                    | SecurityException e) {
                return false;
            }
        }
        return true;
    }

    /**
     * The client of the cluster.
     *
     * @return the coordinator's one client, thread-safe, shared by all callers
     */
    public Client client() {
        return coordinator.client();
    }

    /**
     * A snapshot of the counters, the same type as {@code LocalCluster.stats()}, as the scheduler
     * knows them ({@link ClusterCoordinator#stats()}): results accepted per worker, the values each
     * holds, and the bytes moved between workers as they report them.
     */
    public ClusterStats stats() {
        return coordinator.stats();
    }

    /**
     * Retires worker {@code id} as {@code LocalCluster.retire} does: no new task, its queued tasks
     * moved, the values only it holds copied to other workers, then it is removed and cut off.
     *
     * @param id the id of the worker to retire
     * @return completes once it is removed
     * @throws IllegalArgumentException if there is no such worker
     * @throws IllegalStateException if it is gone already, or the last active worker
     */
    public CompletableFuture<Void> retire(int id) {
        return coordinator.retire(id);
    }

    /** The steal log, oldest first, as {@code LocalCluster.stealEvents()} gives it. */
    public List<StealEvent> stealEvents() {
        return coordinator.stealEvents();
    }

    /** The task log, oldest first, as {@code LocalCluster.taskEvents()} gives it (runs as the scheduler learnt of them). */
    @Override
    public List<TaskEvent> taskEvents() {
        return coordinator.taskEvents();
    }

    /**
     * Members refused, each counted once: they did not prove the shared secret, claimed a worker id
     * that is taken, or claimed to be a second coordinator.
     *
     * @return the number of members refused so far, 0 or more
     */
    public long refusedMembers() {
        return roster.refused();
    }

    /**
     * What this coordinator refused so far, by kind; each offender is logged once.
     *
     * @return a new snapshot of the refusals by kind
     */
    public SecurityStats securityStats() {
        return SecurityStats.of(roster.offences());
    }

    /**
     * Frames and values dropped because of a bad signature or a class outside the allow-list.
     *
     * @return the number of frames and values dropped so far, 0 or more
     */
    public long rejectedFrames() {
        return codec.rejected();
    }

    /** Results that worker {@code id} reported and the coordinator accepted from the wire. */
    long finishedOn(int id) {
        return transport.finishedOn(id);
    }

    /** Whether worker {@code id} has left (or was declared lost). */
    boolean isLost(int id) {
        return roster.isLost(id);
    }

    /** The incarnation of worker {@code id}'s current process, as proven (for tests). */
    long incarnation(int id) {
        return roster.incarnation(id);
    }

    HazelcastInstance instance() {
        return instance;
    }

    Session session() {
        return session;
    }

    Admission admission() {
        return admission;
    }

    CoordinatorTransport transport() {
        return transport;
    }

    /**
     * Stops the scheduler (unfinished futures fail) and leaves the cluster. Every step runs, also
     * those after one that throws, and the first throwable is thrown once they have, the later
     * ones suppressed in it: the member is shut down whatever the scheduler's close did. Shut down
     * only if that close returned, a close that threw (an Error, say an OutOfMemoryError) left the
     * member in the cluster with nothing behind it, and the workers, which leave when their
     * coordinator leaves the cluster, ran on for good. Idempotent, and safe once the member has
     * stopped under this coordinator (see the class comment).
     */
    @Override
    public void close() {
        closingItself.ownerCloses();          // the member's stop that follows is not one from elsewhere
        CloseSteps.closeAll(admission::close, () -> {
            coordinator.close();
            afterSchedulerCloseForTests.run();
        }, transport::close, instance::shutdown);
    }
}
