/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import dev.spindle.cluster.CloseSteps;
import dev.spindle.cluster.Client;
import dev.spindle.cluster.ClusterCoordinator;
import dev.spindle.cluster.ClusterStats;
import dev.spindle.cluster.ClusterView;
import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.DetachedClose;
import dev.spindle.cluster.Incarnations;
import dev.spindle.cluster.Message;
import dev.spindle.cluster.Readiness;
import dev.spindle.cluster.StealEvent;
import dev.spindle.cluster.TaskEvent;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Address;
import org.apache.pekko.cluster.Cluster;

/**
 * The scheduler's JVM: the Pekko cluster member that holds the Spindle scheduler and hands out
 * the {@link Client}. It starts the cluster (with no seed nodes it joins itself) and workers join
 * through it.
 *
 * <pre>{@code
 * PekkoClusterSettings s = PekkoClusterSettings.builder("jobs", Path.of("certs/coordinator.p12"),
 *         Path.of("certs/truststore.p12"), password).port(25520).allowPackage("com.example").build();
 * try (PekkoCoordinator c = PekkoCoordinator.start(s,
 *         CoordinatorSettings.builder().workers(1).threadsPerWorker(4).build(), Duration.ofSeconds(60))) {
 *     System.out.println(c.client().submit("one", args -> 1).get());
 * }
 * }</pre>
 *
 * <p>Workers are numbered {@code 0..workers-1} by their {@link WorkerMain} id; {@link #start}
 * waits until each has joined and answered a probe that shows it follows this coordinator and
 * knows every other worker. A
 * worker member that becomes unreachable is downed and reported to the scheduler as lost: its
 * running tasks are reassigned and the results it held recomputed. There is one coordinator per
 * cluster: {@link #start} refuses to run if the cluster it joins has one already.
 *
 * <p>Membership: a worker may join later with an id not used in this run (below
 * {@link ClusterCoordinator#MAX_WORKERS}); once every worker knows it and answers a probe, the
 * scheduler admits it with the settings' threads per worker (if not within the join timeout, it
 * is downed as a lost worker, and its id is free again). A killed (or retired) worker's
 * process may restart under a new id or under its own: each worker process announces a random
 * incarnation and carries it in every frame, the new process takes the id once the old one is
 * lost, and only the current incarnation's frames are accepted (the rules are
 * {@link Incarnations}'). {@link #retire} retires a worker gracefully; the removed worker is told
 * so, leaves the cluster and its {@link WorkerMain} exits with status 0 (a worker that does not
 * leave is downed after a while).
 *
 * <p>Should the coordinator's member stop without {@link #close()} (any member may down it, and a
 * downed member's actor system terminates), the scheduler is closed with it, as by
 * {@link #close()}: unfinished futures fail and later submits are refused with
 * {@link java.util.concurrent.RejectedExecutionException}, and a WARNING is logged.
 */
public final class PekkoCoordinator implements ClusterView, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(PekkoCoordinator.class.getName());

    /** For tests: runs in {@link #start} once the scheduler has started, as if what follows threw. */
    static volatile Runnable afterSchedulerStartForTests = () -> { };
    /** For tests: runs as the scheduler is closed, before it, as if the scheduler's close threw. */
    static volatile Runnable onSchedulerCloseForTests = () -> { };
    /** For tests: whether worker {@code id} answers a probe ({@link #allReady}), as if it never did when false. */
    static volatile java.util.function.IntPredicate answersProbeForTests = id -> true;
    /**
     * For tests: when not null, how long a late joiner's probes may fail before its join is given up
     * ({@link #joinLate}), in place of the join timeout. That timeout is also the start's wait for
     * the first workers, which must stay generous on a loaded machine; a test that waits a given-up
     * join out sets this short instead of shortening both.
     */
    static volatile Duration lateJoinTimeoutForTests;

    private final ActorSystem system;
    private final CoordinatorTransport transport;
    private final Roster roster;
    private final ClusterCoordinator coordinator;
    private final Outbox outbox;
    private final Refusals refusedMembers;
    private final Refusals rejectedFrames;
    /** The scheduler's close once the member stopped without {@link #close()} (see {@link #start}). */
    private final DetachedClose closeWhenStopped;
    private volatile Duration joinTimeout = Duration.ofSeconds(60);
    private volatile boolean started;

    private PekkoCoordinator(ActorSystem system, CoordinatorTransport transport, Roster roster,
                             ClusterCoordinator coordinator, Outbox outbox, Refusals refusedMembers,
                             Refusals rejectedFrames, DetachedClose closeWhenStopped) {
        this.system = system;
        this.transport = transport;
        this.roster = roster;
        this.coordinator = coordinator;
        this.outbox = outbox;
        this.refusedMembers = refusedMembers;
        this.rejectedFrames = rejectedFrames;
        this.closeWhenStopped = closeWhenStopped;
    }

    /**
     * Starts the coordinator member and waits until {@code cluster}'s number of workers have
     * joined and follow it.
     *
     * @param cluster the scheduler's settings; its worker count and threads must match the workers
     * @param settings how this member takes part in the Pekko cluster
     * @param joinTimeout the longest wait for the workers
     * @return the running coordinator, which the caller closes
     * @throws TimeoutException if the workers do not all join within {@code joinTimeout}; the
     *         member is shut down
     * @throws IllegalStateException if the cluster already has a coordinator; this member leaves;
     *     or if this member stopped before it joined the cluster
     * @throws InterruptedException if the calling thread is interrupted while it waits; the member
     *     is shut down
     * @throws NullPointerException if an argument is null
     */
    public static PekkoCoordinator start(PekkoClusterSettings settings, CoordinatorSettings cluster,
                                         Duration joinTimeout) throws TimeoutException, InterruptedException {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(joinTimeout, "joinTimeout");
        Refusals refusedMembers = new Refusals("member");
        Refusals rejectedFrames = new Refusals("frame");
        WireCodec codec = new WireCodec(settings.allowedPackages(), settings.maxMessageBytes());
        ActorSystem system = PekkoConfigs.start(settings, List.of(Roster.COORDINATOR_ROLE), codec, refusedMembers);
        PekkoCoordinator c = null;
        ClusterCoordinator startedScheduler = null;
        DetachedClose startedCloseWhenStopped = null;
        try {
            Cluster members = Cluster.get(system);
            Roster roster = new Roster(members.selfAddress(), true, 0, refusedMembers);
            Outbox outbox = new Outbox(system, codec);
            outbox.follow(roster);
            CoordinatorTransport transport = new CoordinatorTransport(codec, roster, outbox, rejectedFrames);
            ClusterCoordinator scheduler = ClusterCoordinator.start(cluster, transport);
            startedScheduler = scheduler;
            // the member may stop without close(): downed by another member or an operator's tool,
            // its actor system terminates, and no frame can reach the scheduler any more. Left
            // running, it kept the futures in flight pending (until its noWorkerTimeout, once told of
            // its workers' leaving, or for good, when not told in time) and took tasks that went
            // nowhere; closed, they fail now and later submits are refused. Not on Pekko's callback
            // thread (see DetachedClose): the scheduler's close waits for the futures' callbacks, and
            // one that closes this coordinator waits for the actor system's termination, which waits
            // for this callback. Nothing once close() has closed the scheduler (closeScheduler); a
            // close() whose scheduler close threw leaves it to this
            DetachedClose closeWhenStopped = new DetachedClose(LOG, "the scheduler", "spindle-coordinator-stopped",
                    scheduler::close);
            startedCloseWhenStopped = closeWhenStopped;
            system.registerOnTermination(() -> closeWhenStopped.start(Level.WARNING, "the coordinator's Pekko member "
                    + "stopped with its scheduler open (downed by a member or an operator's tool, or a close() whose "
                    + "scheduler close threw): the scheduler closes, its unfinished tasks fail and it accepts no new "
                    + "ones"));
            afterSchedulerStartForTests.run();
            c = new PekkoCoordinator(system, transport, roster, scheduler, outbox, refusedMembers, rejectedFrames,
                    closeWhenStopped);
            transport.attach(scheduler::receive);
            roster.workerIds(ClusterCoordinator.MAX_WORKERS);
            c.joinTimeout = joinTimeout;
            roster.onWorkerUp(c::workerUp);
            Duration grace = Duration.ofSeconds(Math.max(10, 2L * settings.failureSeconds()));
            roster.onWorkerRetired((id, address) -> downIfStill(system, address, roster.incarnation(id), grace));
            roster.onWorkerLost((id, address, leaving) -> {
                // a lost worker never comes back with stale state; one that is exiting is on its
                // way out already, and downing it would make its peers quarantine it mid-shutdown,
                // which can hold its actor system (and its port) up past its close()
                if (address != null && !leaving) {
                    members.down(address);
                }
                scheduler.receive(new Message.WorkerLost(id));
            });
            outbox.attach(system.actorOf(EndpointActor.props(roster, transport), PekkoConfigs.ENDPOINT));
            // the idle markers that show the loss of a link's last frame (see Wire.Frame#seq)
            system.scheduler().scheduleWithFixedDelay(Wire.MARK_INTERVAL, Wire.MARK_INTERVAL, transport::mark,
                    system.dispatcher());
            CompletableFuture<Void> up = new CompletableFuture<>();
            members.registerOnMemberUp(() -> up.complete(null));
            // a member stopped before it was Up (its seeds never answered and Pekko gave the join
            // up, downed while joining) never will be, and Pekko drops the callback above: start
            // fails then, rather than wait out the join timeout (nothing if it completed already)
            system.registerOnTermination(() -> up.completeExceptionally(new IllegalStateException(
                    "the coordinator stopped before it joined the cluster")));
            if (settings.seedNodes().isEmpty()) {
                members.join(members.selfAddress());
            } else {
                members.joinSeedNodes(PekkoConfigs.addresses(settings.clusterName(), settings.seedNodes()));
            }
            c.awaitWorkers(up, scheduler.workers(), joinTimeout);
            c.started = true;
            for (int id : roster.liveIds()) {
                c.workerUp(Incarnations.Proof.NEW, id);   // up while starting, beyond the initial ids
            }
            return c;
        } catch (Throwable e) {
            // an Error too, and the scheduler of a coordinator not made yet: escaping, an Error left
            // the actor system up and its port bound, and the scheduler's threads ran for good.
            // Every close is tried (see CloseSteps)
            ClusterCoordinator scheduler = startedScheduler;
            DetachedClose whenStopped = startedCloseWhenStopped;
            Throwable closing = c != null ? CloseSteps.runAll(c::close) : CloseSteps.runAll(() -> {
                if (scheduler != null) {
                    closeScheduler(scheduler, whenStopped);
                }
            }, system::terminate);
            if (closing != null) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }

    /**
     * Closes the scheduler; once that returned, the actor system's termination that follows leaves
     * it alone and logs nothing ({@code whenStopped}, when there is one).
     */
    private static void closeScheduler(ClusterCoordinator scheduler, DetachedClose whenStopped) {
        onSchedulerCloseForTests.run();
        scheduler.close();
        if (whenStopped != null) {
            whenStopped.ownerCloses();
        }
    }

    private void awaitWorkers(CompletableFuture<Void> up, int workers, Duration timeout)
            throws TimeoutException, InterruptedException {
        long start = System.nanoTime();
        try {
            // saturated: toNanos() throws ArithmeticException for a timeout beyond ~292 years
            up.get(Readiness.timeoutNanos(timeout), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("could not join the cluster", e.getCause());
        } catch (TimeoutException e) {
            throw new TimeoutException("this coordinator did not become a cluster member within " + timeout);
        }
        Readiness.awaitWorkers(workers, timeout, start, roster::workers, refusedMembers::count, () -> {
            Address older = roster.olderCoordinator();
            if (older != null) {
                throw new IllegalStateException("the cluster already has a coordinator (" + older
                        + "); refusing to start a second one");
            }
        }, () -> allReady(initialIds(workers)));
    }

    private static List<Integer> initialIds(int workers) {
        List<Integer> ids = new java.util.ArrayList<>();
        for (int id = 0; id < workers; id++) {
            ids.add(id);
        }
        return ids;
    }

    /** A worker registered: it joins the scheduler by {@link Readiness#admitProven}'s rules. */
    private void workerUp(Incarnations.Proof proof, int id) {
        Readiness.admitProven(coordinator, proof, id, started, this::joinLate);
    }

    /**
     * Downs the retired worker's member at {@code address} after {@code grace} if it is still
     * there as incarnation {@code incarnation}: told that it is retired, it normally leaves by
     * itself first. A successor at the same address (another incarnation) is left alone.
     */
    private static void downIfStill(ActorSystem system, Address address, long incarnation, Duration grace) {
        try {
            system.scheduler().scheduleOnce(grace, () -> {
                Cluster members = Cluster.get(system);
                for (org.apache.pekko.cluster.Member m : members.state().getMembers()) {
                    if (m.address().equals(address) && Roster.incarnation(m) == incarnation) {
                        members.down(address);
                    }
                }
            }, system.dispatcher());
        } catch (IllegalStateException stopping) {
            // the coordinator is stopping: its members leave with it
        }
    }

    private void joinLate(int id) {
        transport.admitting(id);              // the scheduler has handled the loss of the id's last process
        Incarnations.Claim<Address> joiner = roster.process(id);   // the process that joins, not a later one
        Duration timeout = lateJoinTimeoutForTests;
        Readiness.joinLate(coordinator, id, timeout != null ? timeout : joinTimeout,
                () -> roster.worker(id) != null && !system.whenTerminated().isCompleted(),
                () -> allReady(roster.liveIds()), () -> {
                    if (joiner != null) {
                        roster.loseIfCurrent(id, joiner.holder(), joiner.incarnation());   // downed, its id free again
                    }
                });
    }

    /**
     * Whether every worker answers a probe, which it does only if it follows this coordinator,
     * knows every other worker's current process (membership reaches members at different times;
     * a worker asked for a value by a member it does not know yet as a worker refuses the fetch,
     * and one may still know a process this coordinator has lost: so by identity, not by number),
     * and has settled the key of its frames with this coordinator ({@link KeyExchange}).
     */
    private boolean allReady(List<Integer> workers) throws InterruptedException {
        for (int id : workers) {
            if (!answersProbeForTests.test(id) || !transport.probe(id, workers)) {
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
     * moved, the values only it holds copied to other workers, then it is removed and downed.
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
     * This member's {@code host:port}, which workers join through.
     *
     * @return the address as {@code host:port}, with the port actually bound
     */
    public String address() {
        return PekkoConfigs.hostPort(Cluster.get(system).selfAddress());
    }

    /**
     * Members refused: a TLS peer whose certificate the trust store rejects, a second
     * coordinator, a member without a Spindle role or with a worker id that is taken, out of
     * range or lost. Each offender is logged once.
     *
     * @return the number of members refused so far, 0 or more
     */
    public long refusedMembers() {
        return refusedMembers.count();
    }

    /**
     * Frames dropped: malformed, oversized, refused by the allow-list, or from a member that may
     * not send them. Each offender is logged once.
     *
     * @return the number of frames dropped so far, 0 or more
     */
    public long rejectedFrames() {
        return rejectedFrames.count();
    }

    /**
     * Members of the cluster that are Up, this one included.
     *
     * @return the number of members in state Up now, at least 1 while this member runs
     */
    public int membersUp() {
        int n = 0;
        for (org.apache.pekko.cluster.Member m : Cluster.get(system).state().getMembers()) {
            if (m.status() == org.apache.pekko.cluster.MemberStatus.up()) {
                n++;
            }
        }
        return n;
    }

    /** Results that worker {@code id} reported and the coordinator accepted from the wire. */
    long finishedOn(int id) {
        return transport.finishedOn(id);
    }

    /** The coordinator's actor system, for tests that watch the membership. */
    ActorSystem systemForTests() {
        return system;
    }

    /** Whether worker {@code id} has left (or was declared lost). */
    boolean isLost(int id) {
        return roster.isLost(id);
    }

    /**
     * Stops the scheduler (unfinished futures fail) and leaves the cluster. Returns once the
     * coordinator's actor system is down and its port free (after 30 s at most, with a warning
     * should Pekko still be stopping), also if stopping the scheduler throws (an Error), which is
     * thrown then, after the rest. Idempotent.
     */
    @Override
    public void close() {
        CloseSteps.closeAll(() -> closeScheduler(coordinator, closeWhenStopped), transport::close,
                () -> PekkoConfigs.stop(system));
    }
}
