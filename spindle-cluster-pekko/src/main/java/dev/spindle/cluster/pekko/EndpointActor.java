/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import java.util.Optional;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.CoordinatedShutdown;
import org.apache.pekko.actor.Dropped;
import org.apache.pekko.actor.Props;
import org.apache.pekko.actor.WrappedMessage;
import org.apache.pekko.cluster.Cluster;
import org.apache.pekko.cluster.ClusterEvent;

/**
 * The actor at {@code /user/}{@value PekkoConfigs#ENDPOINT} on every member: it hands decoded
 * frames (and refused bytes) to the member's transport with their sender, and cluster membership
 * events to the {@link Roster}. One actor, so that frames and membership changes are seen in one
 * order.
 *
 * <p>Its subscription to membership lasts from its start to its stop, across restarts. An
 * exception in a handler restarts the actor (Pekko's default for it), and by default a restart
 * stops the old instance ({@code postStop}: unsubscribe) and starts the new one ({@code preStart}:
 * subscribe again, the current members replayed as events). A member removed in between is in
 * neither: its removal was published while the actor was not subscribed, and it is gone from the
 * state replayed. A lost worker would never be noticed and its tasks would wait for good. The
 * actor's state is the roster, which outlives the instance, so a restart keeps the subscription
 * and replays nothing: the events published meanwhile wait in the mailbox, which a restart keeps.
 *
 * <p>It also listens, for as long, for the frames Artery drops: Artery delivers at most once, and
 * when its outbound queue to a member is full (under sustained congestion; 3,072 messages by
 * default) it drops a message and publishes {@link Dropped} on the event stream, nothing more.
 * A frame of the coordinator's or a worker's stream that is lost so would leave a task, or its
 * result, waited for in vain while its member stays in the cluster; so a drop of a frame this
 * endpoint sent ({@link Outbox#send}: the sender is this actor) goes to the handler, which treats
 * the member as lost. (A request sent with an ask, a probe or a fetch, and a reply to one, are
 * not: the asker's timeout covers them. A frame to a member that is gone, Artery sends to dead
 * letters: membership reports that loss.)
 *
 * <p>It must not stop while its member runs: a member without it is deaf but stays in the cluster,
 * its heartbeats (and its markers) flowing: on the coordinator every future in flight, on a worker
 * every task sent to it, waited for good. (Another member's {@code PoisonPill} or {@code Kill}
 * stopped it so until members ran Artery's untrusted mode, see {@link PekkoConfigs}.) So if it
 * stops other than with its member, the member shuts down in order ({@link #postStop}):
 * the coordinator's futures fail (its scheduler is closed with its actor system), and a worker
 * leaves the cluster, which the coordinator handles as its loss.
 */
final class EndpointActor extends AbstractActor {

    private static final System.Logger LOG = System.getLogger(EndpointActor.class.getName());

    /** The transport's side. */
    interface Handler {
        /**
         * A frame in the name of {@code sender}; the handler checks its seal and that the sender
         * may send it.
         */
        void onFrame(Wire.Received frame, ActorRef sender);

        /** Bytes the codec refused, from {@code sender}. */
        void onRejected(Wire.Rejected rejected, ActorRef sender);

        /**
         * A frame this endpoint sent to {@code member} was dropped by Artery before it left (its
         * outbound queue to the member was full), {@code reason} as Artery gives it.
         */
        void onDropped(Address member, String reason);
    }

    private final Roster roster;
    private final Handler handler;
    private final Cluster cluster = Cluster.get(getContext().getSystem());

    private EndpointActor(Roster roster, Handler handler) {
        this.roster = roster;
        this.handler = handler;
    }

    static Props props(Roster roster, Handler handler) {
        return Props.create(EndpointActor.class, () -> new EndpointActor(roster, handler));
    }

    @Override
    public void preStart() {
        cluster.subscribe(getSelf(), ClusterEvent.initialStateAsEvents(), ClusterEvent.MemberEvent.class,
                ClusterEvent.UnreachableMember.class);
        getContext().getSystem().getEventStream().subscribe(getSelf(), Dropped.class);
    }

    /**
     * Stops the member too if it is not stopping already (see the class comment): the endpoint was
     * stopped by a message, and the member cannot hear anything any more.
     */
    @Override
    public void postStop() {
        cluster.unsubscribe(getSelf());
        getContext().getSystem().getEventStream().unsubscribe(getSelf());
        CoordinatedShutdown shutdown = CoordinatedShutdown.get(getContext().getSystem());
        if (shutdown.getShutdownReason().isEmpty()) {
            LOG.log(System.Logger.Level.ERROR, "the Spindle endpoint of {0} stopped while its member ran; the member"
                    + " leaves the cluster and stops", cluster.selfAddress());
            shutdown.run(EndpointStopped.REASON);
        }
    }

    /** Why a member whose endpoint stopped shuts down. */
    static final class EndpointStopped implements CoordinatedShutdown.Reason {
        static final EndpointStopped REASON = new EndpointStopped();

        private EndpointStopped() {
        }

        @Override
        public String toString() {
            return "EndpointStopped";
        }
    }

    /** Keeps the subscription: see the class comment (the default would unsubscribe here). */
    @Override
    public void preRestart(Throwable reason, Optional<Object> message) {
    }

    /** Keeps the subscription: see the class comment (the default would subscribe again here). */
    @Override
    public void postRestart(Throwable reason) {
    }

    @Override
    public Receive createReceive() {
        return receiveBuilder()
                .match(Wire.Received.class, f -> handler.onFrame(f, getSender()))
                .match(Wire.Rejected.class, r -> handler.onRejected(r, getSender()))
                .match(Dropped.class, this::dropped)
                .match(ClusterEvent.MemberJoined.class, e -> roster.joining(e.member(), cluster.selfMember()))
                .match(ClusterEvent.MemberUp.class,
                        e -> roster.up(e.member(), cluster.state().getMembers(), cluster.selfMember()))
                .match(ClusterEvent.UnreachableMember.class, e -> roster.unreachable(e.member()))
                .match(ClusterEvent.MemberRemoved.class, e -> roster.removed(e.member()))
                .match(ClusterEvent.MemberDowned.class, e -> roster.removed(e.member()))
                .match(ClusterEvent.MemberExited.class, e -> roster.removed(e.member()))
                .matchAny(o -> { })
                .build();
    }

    /**
     * A message dropped anywhere in this actor system: one of this endpoint's frames (sent through
     * an actor selection, it is wrapped in a selection message) to another member is the handler's.
     */
    private void dropped(Dropped d) {
        Address to = d.recipient().path().address();
        if (getSelf().equals(d.sender()) && WrappedMessage.unwrap(d.message()) instanceof Wire.Encoded
                && to.hasGlobalScope() && !to.equals(cluster.selfAddress())) {
            handler.onDropped(to, d.reason());
        }
    }
}
