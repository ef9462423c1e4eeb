/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.FrameMac;
import dev.spindle.cluster.Incarnations;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Address;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.UniqueAddress;
import org.apache.pekko.util.Version;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import scala.jdk.javaapi.CollectionConverters;

/**
 * A member's {@link Outbox} forgets the endpoint of a member that leaves ({@link Roster#onMemberGone}),
 * so that it does not keep one for every address it ever sent to. A sender looks the member up in
 * the roster and then sends, which caches the endpoint again if it is missing; so the roster must
 * mark the member gone before the outbox forgets it, or a send racing the departure finds the
 * member still live after the forget and caches an endpoint of a gone member that nothing removes
 * (its removal was the member's last event). Driven by hand on a worker's roster, outbox and
 * transport, wired as {@link PekkoWorker} wires them; the race is played by running the racing
 * sender at the point where the outbox forgets, on the thread handling the departure.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GoneWorkerEndpointNotCachedAgainTest {

    private final Address self = new Address("pekko", "jobs", "10.0.0.2", 25521);
    private final Address holderAddress = new Address("pekko", "jobs", "10.0.0.3", 25521);
    private ActorSystem system;
    private Roster roster;
    private Outbox outbox;
    private WorkerTransport transport;
    private Member holder;

    private static Member member(Address a, long uid, Set<String> roles) {
        return new Member(new UniqueAddress(a, uid), 1, MemberStatus.up(), CollectionConverters.asScala(roles).toSet(),
                Version.Zero());
    }

    @BeforeEach
    void wire() {
        system = ActorSystem.create("jobs");
        roster = new Roster(self, false, Integer.MAX_VALUE, new Refusals("member"));
        WireCodec codec = new WireCodec(List.of(), 1 << 20);
        outbox = new Outbox(system, codec);
        outbox.follow(roster);                                // as PekkoWorker and PekkoCoordinator wire it
        transport = new WorkerTransport(0, Incarnations.newIncarnation(), codec, roster, outbox, new Refusals("frame"),
                Duration.ofSeconds(30));
        roster.onWorkerGone(transport::holderGone);
        Member selfMember = member(self, 2L, Set.copyOf(Roster.workerRoles(0, Incarnations.newIncarnation())));
        holder = member(holderAddress, 3L, Set.copyOf(Roster.workerRoles(1, Incarnations.newIncarnation())));
        roster.up(holder, List.of(), selfMember);
        assertThat(roster.worker(1)).isEqualTo(holderAddress);
    }

    @AfterEach
    void stop() {
        system.terminate();
    }

    @Test
    void aFetchRacingTheHoldersRemovalLeavesNoEndpointOfIt() {
        AtomicReference<CompletableFuture<Object>> racing = new AtomicReference<>();
        roster.onMemberGone(a -> {
            outbox.forget(a);                                 // what follow() has it do
            if (a.equals(holderAddress)) {
                racing.set(transport.fetch("k", 1, 0));         // a dependent fetching from worker 1 just now
            }
        });

        roster.removed(holder.copy(MemberStatus.removed()));   // worker 1's last event

        assertThat(racing.get()).as("the racing fetch").isNotNull();
        assertThat(outbox.endpointsHeld()).as("endpoints held once worker 1 is gone").isZero();
        assertThat(roster.worker(1)).isNull();
        // and the fetch does not wait out its timeout for a member that is gone
        assertThat(racing.get()).isCompletedExceptionally();
    }

    /**
     * The other side of the race, which no order on the roster's side closes: a sender that
     * looked the member up before it was marked gone (every sender does, then encodes and seals
     * its frame) and sends only after the outbox forgot it. The outbox checks, when it keeps an
     * endpoint anew, that the roster still has the member ({@link Roster#sendsTo}).
     */
    @Test
    void aSendThatLookedTheHolderUpBeforeItsRemovalLeavesNoEndpointOfIt() {
        Address looked = roster.worker(1);                    // the sender's look, before the departure

        roster.removed(holder.copy(MemberStatus.removed()));   // worker 1's last event: marked gone, forgotten
        outbox.send(looked, new Wire.Frame(1, new Wire.Probe(1, FrameMac.randomToken())), Wire.Seal.NONE);

        assertThat(outbox.endpointsHeld()).as("endpoints held once worker 1 is gone").isZero();
    }

    /** What the outbox keeps for a member that stays. */
    @Test
    void theEndpointOfALiveMemberIsKept() {
        outbox.send(holderAddress, new Wire.Frame(1, new Wire.Probe(1, FrameMac.randomToken())), Wire.Seal.NONE);

        assertThat(outbox.endpointsHeld()).as("endpoints held while worker 1 is live").isEqualTo(1);
    }
}
