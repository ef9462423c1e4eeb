/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import dev.spindle.cluster.CloseSteps;
import dev.spindle.cluster.Incarnations;
import dev.spindle.cluster.WorkerMemory;
import dev.spindle.cluster.WorkerNode;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.cluster.Cluster;

/**
 * A worker member: a Pekko cluster member that runs one Spindle worker (a data store and a
 * work-stealing pool) for the coordinator of its cluster. {@link WorkerMain} runs one per JVM;
 * tests may start several in one JVM.
 *
 * <pre>{@code
 * PekkoClusterSettings s = PekkoClusterSettings.builder("jobs", Path.of("certs/worker-0.p12"),
 *         Path.of("certs/truststore.p12"), password).seedNode("127.0.0.1:25520")
 *         .port(0).allowPackage("com.example").build();   // a free port: 25520, the default, is the coordinator's
 * try (PekkoWorker worker = PekkoWorker.start(s, 0, 4)) {          // id 0, 4 threads
 *     worker.joined().toCompletableFuture().get(60, TimeUnit.SECONDS);
 *     worker.terminated().toCompletableFuture().join();           // downed, retired or closed
 * }
 * }</pre>
 *
 * <p>It joins through the settings' seed nodes (normally the coordinator) over mutually
 * authenticated TLS, and follows the first coordinator it sees: frames from any other member
 * claiming to be a coordinator are refused, and so are frames in its coordinator's name that are
 * not sealed with the key the two settled ({@code KeyExchange}; Artery does not authenticate the
 * sender a message names).
 *
 * <p>A worker serves one coordinator for the life of its member: when that coordinator leaves the
 * cluster (it closed, or it was downed), the worker leaves too instead of staying behind as an
 * orphan, and {@link #terminated()} completes; {@link WorkerMain} then exits.
 *
 * <p>Each worker process draws a random incarnation ({@link Incarnations#newIncarnation()}),
 * announces it in its cluster roles and carries it in every frame, so that a process restarted
 * under the id of a lost one can rejoin, and the lost one's late frames are refused. A worker that
 * the coordinator retires leaves the cluster once its values have other holders
 * ({@link #retired()}). A worker that the coordinator refuses for a reason the worker can see
 * itself (a message limit other than the coordinator's, announced in both members' roles) leaves
 * at once and {@link #refusal()} says why; the coordinator tells a member it refuses nothing, so
 * a worker refused for other reasons (its id taken, or outside the coordinator's range) stays.
 */
public final class PekkoWorker implements AutoCloseable {

    /** For tests: runs in {@link #start} once the worker's node has started, as if what follows threw. */
    static volatile Runnable afterNodeStartForTests = () -> { };

    private final ActorSystem system;
    private final WorkerNode node;
    private final WorkerTransport transport;
    private final Roster roster;
    private final Refusals refusedMembers;
    private final Refusals rejectedFrames;
    private final CompletableFuture<Void> up = new CompletableFuture<>();
    private final long incarnation;
    private final Outbox outbox;
    private volatile boolean retired;

    private PekkoWorker(ActorSystem system, WorkerNode node, WorkerTransport transport, Roster roster,
                        Refusals refusedMembers, Refusals rejectedFrames, long incarnation, Outbox outbox) {
        this.incarnation = incarnation;
        this.outbox = outbox;
        this.system = system;
        this.node = node;
        this.transport = transport;
        this.roster = roster;
        this.refusedMembers = refusedMembers;
        this.rejectedFrames = rejectedFrames;
    }

    /**
     * Starts worker {@code id} with {@code threads} threads and starts joining the cluster; see
     * {@link #joined()}.
     *
     * @param settings how this member takes part in the Pekko cluster
     * @param id the worker's id, as the coordinator's scheduler knows it
     * @param threads the threads of its pool
     * @return the started worker, which the caller closes
     * @throws IllegalArgumentException if {@code id} is negative, {@code threads} below 1, or the
     *         settings name no seed node
     * @throws NullPointerException if {@code settings} is null
     */
    public static PekkoWorker start(PekkoClusterSettings settings, int id, int threads) {
        return start(settings, id, threads, WorkerMemory.NONE);
    }

    /**
     * Starts worker {@code id} with {@code threads} threads and a memory limit (spilling to disk
     * above it, as a {@code LocalCluster} worker does; see {@link WorkerMemory}), and starts
     * joining the cluster; see {@link #joined()}.
     *
     * @param settings how this member takes part in the Pekko cluster
     * @param id the worker's id, as the coordinator's scheduler knows it
     * @param threads the threads of its pool
     * @param memory the memory limit and spill directory; {@link WorkerMemory#NONE} for none
     * @return the started worker, which the caller closes
     * @throws IllegalArgumentException if {@code id} is negative, {@code threads} below 1, or the
     *         settings name no seed node
     * @throws NullPointerException if {@code settings} or {@code memory} is null
     */
    public static PekkoWorker start(PekkoClusterSettings settings, int id, int threads, WorkerMemory memory) {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(memory, "memory");
        if (settings.seedNodes().isEmpty()) {
            throw new IllegalArgumentException("a worker needs a seed node to join (the coordinator's host:port)");
        }
        Refusals refusedMembers = new Refusals("member");
        Refusals rejectedFrames = new Refusals("frame");
        WireCodec codec = new WireCodec(settings.allowedPackages(), settings.maxMessageBytes());
        long incarnation = Incarnations.newIncarnation();
        ActorSystem system = PekkoConfigs.start(settings, Roster.workerRoles(id, incarnation), codec, refusedMembers);
        WorkerNode node = null;
        try {
            Cluster cluster = Cluster.get(system);
            Roster roster = new Roster(cluster.selfAddress(), false, Integer.MAX_VALUE, refusedMembers);
            Outbox outbox = new Outbox(system, codec);
            outbox.follow(roster);
            WorkerTransport transport = new WorkerTransport(id, incarnation, codec, roster, outbox, rejectedFrames,
                    Duration.ofSeconds(Math.max(10, 4L * settings.failureSeconds())));
            node = new WorkerNode(id, threads, memory, transport);
            afterNodeStartForTests.run();
            transport.attach(node);
            roster.onWorkerGone(transport::holderGone);
            // a member that has left (coordinator gone, retired, downed) can never be reached again:
            // its pool threads and held values go with it, not when (if ever) close() is called
            WorkerNode stopped = node;
            system.registerOnTermination(() -> {
                stopped.close();
                transport.close();
            });
            // an orphan could only idle, holding its port and the cluster's name: leave, as the
            // Hazelcast worker does (once removed, the actor system terminates)
            roster.onCoordinatorGone(() -> cluster.leave(cluster.selfAddress()));
            // refused, it would only idle too: the coordinator sends it nothing. It leaves once
            // Up (at once if it is), which Pekko grants only when every member, the coordinator
            // too, has seen it join: so the coordinator has counted and logged the refusal
            // (Roster#joining), which a worker leaving while joining could have slipped past
            roster.onRefused(() -> cluster.registerOnMemberUp(() -> cluster.leave(cluster.selfAddress())));
            outbox.attach(system.actorOf(EndpointActor.props(roster, transport), PekkoConfigs.ENDPOINT));
            // the idle markers that show the loss of the last report (see Wire.Frame#seq)
            system.scheduler().scheduleWithFixedDelay(Wire.MARK_INTERVAL, Wire.MARK_INTERVAL, transport::mark,
                    system.dispatcher());
            PekkoWorker worker = new PekkoWorker(system, node, transport, roster, refusedMembers, rejectedFrames,
                    incarnation, outbox);
            cluster.registerOnMemberUp(() -> worker.up.complete(null));
            // a member stopped before it was Up (closed, refused by the cluster's TLS, downed while
            // joining) never will be, and Pekko drops the callback above: joined() fails then,
            // rather than leave a caller waiting for it for good (nothing if it completed already)
            system.registerOnTermination(() -> worker.up.completeExceptionally(new IllegalStateException(
                    "worker " + id + " stopped before it joined the cluster")));
            node.retired().thenRun(() -> {
                worker.retired = true;
                cluster.leave(cluster.selfAddress());   // once removed, the actor system terminates
            });
            cluster.joinSeedNodes(PekkoConfigs.addresses(settings.clusterName(), settings.seedNodes()));
            return worker;
        } catch (Throwable e) {
            // wait for it to go down, as close() does: the exception is the caller's only handle,
            // and a retry on the same port must not find it still bound. An Error too: escaping
            // this, it left the actor system up and its port bound, and the node's pool threads
            // ran for good; the node is closed here, as its close runs on the actor system's
            // termination only once registered
            WorkerNode started = node;
            Throwable closing = CloseSteps.runAll(() -> {
                if (started != null) {
                    started.close();
                }
            }, () -> PekkoConfigs.stop(system));
            if (closing != null) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }

    /**
     * Completes when this member is Up in the cluster, or fails if it stops before.
     *
     * @return a new stage, completed (with {@code null}) once the member is Up, or exceptionally
     *     with {@link IllegalStateException} once the member has stopped without ever being Up
     *     (closed, refused, downed while joining); completing it does not affect the worker
     */
    public CompletionStage<Void> joined() {
        return up.copy();
    }

    /**
     * Completes when the member has left the cluster or was stopped: downed, retired,
     * {@link #close()}d, or left because its coordinator left the cluster. By then the worker's
     * pool is stopped (its threads exit) and its values are dropped; {@link #close()} is still
     * safe to call.
     *
     * @return a stage completed (with {@code null}) once the member's actor system has terminated
     */
    public CompletionStage<Void> terminated() {
        return system.getWhenTerminated().thenApply(t -> null);
    }

    /**
     * Whether the coordinator retired this worker (its values have other holders), which makes
     * it leave the cluster.
     *
     * @return {@code true} once the coordinator has told this worker that it is retired
     */
    public boolean retired() {
        return retired;
    }

    /**
     * Why the coordinator refuses this worker, when the worker can tell (see the class comment):
     * it then leaves the cluster, and {@link #terminated()} completes.
     *
     * @return the reason, or {@code null} if this worker knows of no refusal
     */
    public String refusal() {
        return roster.refusal();
    }

    /**
     * Whether this worker's coordinator left the cluster, which makes this worker leave too (see
     * the class comment).
     *
     * @return {@code true} if the member is leaving or left because the coordinator did
     */
    public boolean coordinatorLost() {
        return roster.coordinatorGone();
    }

    /** This process's incarnation. */
    long incarnation() {
        return incarnation;
    }

    /** Sends from this member, as anything in it could (for tests that play another process). */
    Outbox outboxForTests() {
        return outbox;
    }

    /** The key this process settled with its coordinator, or {@code null} (for tests that play this process). */
    PairKey keyForTests() {
        return transport.key();
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
     * This member's {@code host:port}.
     *
     * @return the address as {@code host:port}, with the port actually bound
     */
    public String address() {
        return PekkoConfigs.hostPort(Cluster.get(system).selfAddress());
    }

    /**
     * Tasks this worker has run.
     *
     * @return the number of task runs that ended (finished or failed), 0 or more
     */
    public long executed() {
        return node.executed();
    }

    /**
     * Frames dropped: malformed, oversized, refused by the allow-list, or from a member not allowed
     * to send them.
     *
     * @return the number of frames dropped so far, 0 or more
     */
    public long rejectedFrames() {
        return rejectedFrames.count();
    }

    /**
     * Members refused: a TLS certificate the trust store rejects, a second coordinator, no Spindle
     * role.
     *
     * @return the number of members refused so far, 0 or more
     */
    public long refusedMembers() {
        return refusedMembers.count();
    }

    /**
     * The {@code host:port} of the coordinator this worker follows, or {@code null} before it knows
     * one.
     *
     * @return the coordinator's address as {@code host:port}, or {@code null}
     */
    public String coordinator() {
        org.apache.pekko.actor.Address a = roster.coordinator();
        return a == null ? null : PekkoConfigs.hostPort(a);
    }

    /**
     * Leaves the cluster and stops the worker. Returns once its actor system is down and its port
     * free, so a new process may take the same address at once (after 30 s at most, with a
     * warning should Pekko still be stopping), also if stopping the node throws (an Error), which
     * is thrown then, after the rest. Idempotent.
     */
    @Override
    public void close() {
        CloseSteps.closeAll(node::close, transport::close, () -> PekkoConfigs.stop(system));
    }
}
