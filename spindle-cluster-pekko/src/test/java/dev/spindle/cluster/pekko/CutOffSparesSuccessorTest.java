/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.Incarnations;
import dev.spindle.cluster.Message;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
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
 * The scheduler cuts a worker off by id ({@code Transport.workerLost}: a send or a flush to it
 * threw) or tells that it retired ({@code Transport.retired}), and it goes on addressing a lost
 * process by that id until it has handled {@link Message.WorkerLost}. The coordinator's transport
 * lost, or retired, whichever process held the id then: a successor that proved the id after the
 * loss, and that the scheduler had not even admitted, was cut off for its predecessor's failed
 * send (the Hazelcast transport loses only the process the scheduler addressed). Now a cut-off or
 * retirement of an id whose loss is fenced (lost, its successor not admitted yet) leaves the
 * successor alone. Driven by hand, as {@link RejoinFencingRegressionTest}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CutOffSparesSuccessorTest {

    private ActorSystem system;
    private final List<Message.ToScheduler> scheduler = Collections.synchronizedList(new ArrayList<>());
    private final WireCodec codec = new WireCodec(List.of(), 1 << 20);
    private Roster roster;
    private CoordinatorTransport transport;
    private final long newIncarnation = Incarnations.newIncarnation();

    private static Member member(Address a, long uid, Set<String> roles) {
        return new Member(new UniqueAddress(a, uid), 1, MemberStatus.up(),
                CollectionConverters.asScala(roles).toSet(), Version.Zero());
    }

    @BeforeEach
    void start() {
        system = ActorSystem.create("cut-off-spares-successor");
        Address self = new Address("pekko", "cut-off-spares-successor", "10.0.0.1", 25520);
        Address worker = new Address("pekko", "cut-off-spares-successor", "10.0.0.2", 25520);
        roster = new Roster(self, true, 4, new Refusals("member"));
        transport = new CoordinatorTransport(codec, roster, new Outbox(system, codec), new Refusals("frame"));
        transport.attach(scheduler::add);
        roster.onWorkerLost((id, address, leaving) -> scheduler.add(new Message.WorkerLost(id)));
        Member selfMember = member(self, 1L, Set.of(Roster.COORDINATOR_ROLE));
        Member old = member(worker, 100L, Set.copyOf(Roster.workerRoles(1, Incarnations.newIncarnation())));
        Member successor = member(worker, 200L, Set.copyOf(Roster.workerRoles(1, newIncarnation)));
        roster.up(old, List.of(), selfMember);
        // a restart at the same address: its claim waits, and proves the id once the old one is removed
        roster.up(successor, List.of(), selfMember);
        roster.removed(old.copy(MemberStatus.removed()));
        assertThat(scheduler).containsExactly(new Message.WorkerLost(1));
        assertThat(roster.incarnation(1)).as("the successor holds the id").isEqualTo(newIncarnation);
    }

    @AfterEach
    void stop() throws Exception {
        system.terminate();
        system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @Test
    void cuttingOffTheLostProcessSparesTheSuccessorThatProvedItsId() {
        transport.workerLost(1);              // the scheduler, not at WorkerLost(1) yet: a send to the old one threw

        assertThat(roster.isLost(1)).as("the successor is lost").isFalse();
        assertThat(roster.incarnation(1)).isEqualTo(newIncarnation);
        assertThat(scheduler).as("one loss, the old process's").containsExactly(new Message.WorkerLost(1));
    }

    @Test
    void retiringTheLostProcessSparesTheSuccessorThatProvedItsId() {
        transport.retired(1);                 // the scheduler retired the old one before it handled its loss

        assertThat(roster.isLost(1)).as("the successor is cut off").isFalse();
        assertThat(roster.incarnation(1)).isEqualTo(newIncarnation);
    }
}
