/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSelection;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Address;
import org.apache.pekko.pattern.Patterns;

/**
 * Sends frames to the endpoint actor of a member, with this member's endpoint as sender, each
 * encoded and sealed on the caller's thread (the receiver checks the seal against the sender the
 * frame names, which Artery does not authenticate; see {@link KeyExchange}). Artery delivers at
 * most once over the member's TLS connection; a frame to a member that is gone is dropped, and
 * the loss is handled by membership, never by retrying. A frame lost while its member stays (its
 * connection restarted) is seen by the receiver as a gap in the link's numbers
 * ({@link Wire.Frame#seq()}), which the transports number before they send.
 */
final class Outbox {

    private final ActorSystem system;
    private final WireCodec codec;
    private final ConcurrentHashMap<Address, ActorSelection> endpoints = new ConcurrentHashMap<>();
    /** Whether an endpoint kept anew may stay ({@link #follow}); any, until this outbox follows a roster. */
    private volatile Predicate<Address> keeps = member -> true;
    private volatile ActorRef self = ActorRef.noSender();
    /** Sends still to lose; for tests that play a frame lost in transit. */
    private final AtomicInteger toLose = new AtomicInteger();

    Outbox(ActorSystem system, WireCodec codec) {
        this.system = system;
        this.codec = codec;
    }

    void attach(ActorRef endpoint) {
        this.self = endpoint;
    }

    /**
     * The endpoint of {@code member}, kept for the next send. One kept anew stays only if the
     * member is still one the roster sends to ({@link #follow}): the sender looked the member up
     * before, and if the member left since, its forget ran already, and nothing would forget this
     * one. Either the forget (which runs once the roster has marked the member gone) comes after
     * the put and removes it, or the look here comes after the mark and sees it.
     */
    private ActorSelection endpoint(Address member) {
        ActorSelection kept = endpoints.get(member);
        if (kept != null) {
            return kept;
        }
        ActorSelection made = system.actorSelection(member + "/user/" + PekkoConfigs.ENDPOINT);
        kept = endpoints.putIfAbsent(member, made);
        if (kept != null) {
            return kept;
        }
        if (!keeps.test(member)) {
            endpoints.remove(member, made);   // sent to all the same: a frame to a gone member is dropped
        }
        return made;
    }

    /**
     * Follows {@code roster}'s membership: the endpoint of every member that leaves is forgotten
     * ({@link Roster#onMemberGone}), and one is kept only for a member the roster sends to
     * ({@link Roster#sendsTo}), so that a send racing a member's departure does not keep its
     * endpoint again after the forget (see {@link #endpoint}).
     */
    void follow(Roster roster) {
        keeps = roster::sendsTo;
        roster.onMemberGone(this::forget);
    }

    /**
     * Forgets the endpoint of a member that left the cluster: else one stays for every address
     * ever sent to, and under churn (workers restarted at new addresses) the map grows for good. A
     * later send to the address (a new process there) looks it up again.
     */
    void forget(Address member) {
        endpoints.remove(member);
    }

    /** The member endpoints this outbox holds; for tests. */
    int endpointsHeld() {
        return endpoints.size();
    }

    /**
     * Sends a frame to {@code member}'s endpoint, sealed by {@code seal}; nothing if {@code member}
     * is null.
     *
     * @throws IllegalArgumentException if the frame is over the limit (it is encoded here, on the
     *         caller's thread, so that the caller can report the failure)
     */
    void send(Address member, Wire.Frame frame, Wire.Seal seal) {
        if (member != null) {
            Wire.Encoded encoded = new Wire.Encoded(codec.encode(frame, seal));
            if (toLose.get() > 0 && toLose.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                return;                       // lost in transit, as Artery loses a frame when a connection restarts
            }
            endpoint(member).tell(encoded, self);
        }
    }

    /**
     * Has the next {@link #send} encode its frame (which takes its number) and then lose it, as
     * Artery loses the frames in flight when a TCP connection restarts; for tests.
     */
    void loseNextSendForTests() {
        toLose.incrementAndGet();
    }

    /**
     * Sends a frame and waits (without blocking) for one reply, a {@link Wire.Received} or a
     * {@link Wire.Rejected}; the same limit as {@link #send}.
     */
    CompletionStage<Object> ask(Address member, Wire.Frame frame, Wire.Seal seal, Duration timeout) {
        return Patterns.ask(endpoint(member), new Wire.Encoded(codec.encode(frame, seal)), timeout);
    }

    /** Answers the sender of a request; the same limit as {@link #send}. */
    void reply(ActorRef requester, Wire.Frame frame, Wire.Seal seal) {
        requester.tell(new Wire.Encoded(codec.encode(frame, seal)), ActorRef.noSender());
    }
}
