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
import org.apache.pekko.actor.Address;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.UniqueAddress;
import org.apache.pekko.util.Version;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The scheduler's cut-offs, {@code workerLost} (a send to the worker threw) and {@code retired},
 * name a worker by id, and are for the process the scheduler knows under it. That process may
 * have been lost meanwhile (membership reported it, the scheduler has not handled the loss yet)
 * and a restarted process have proved the id: the cut-off must spare that successor, as the
 * Hazelcast transport's does. It lost (or retired) whatever process held the id, so the successor
 * was cut off, and downed, for its predecessor's failure. Driven by hand on the coordinator's
 * roster and transport; nothing is sent.
 */
class CutOffSparesRejoinedWorkerTest {

    private final Address self = new Address("pekko", "jobs", "10.0.0.1", 25520);
    private final Address oldAddress = new Address("pekko", "jobs", "10.0.0.2", 25520);
    private final Address newAddress = new Address("pekko", "jobs", "10.0.0.3", 25520);
    private final long oldIncarnation = Incarnations.newIncarnation();
    private final long newIncarnation = Incarnations.newIncarnation();
    private final List<Message.ToScheduler> scheduler = Collections.synchronizedList(new ArrayList<>());
    private final List<Integer> lost = Collections.synchronizedList(new ArrayList<>());
    private final List<Address> retired = Collections.synchronizedList(new ArrayList<>());
    private Roster roster;
    private CoordinatorTransport transport;

    private static Member member(Address a, long uid, Set<String> roles) {
        return new Member(new UniqueAddress(a, uid), 1, MemberStatus.up(),
                CollectionConverters.asScala(roles).toSet(), Version.Zero());
    }

    /** Worker 1's process is lost, and a restarted one, at another address, proves the id. */
    @BeforeEach
    void loseAndRejoin() {
        WireCodec codec = new WireCodec(List.of(), 1 << 20);
        roster = new Roster(self, true, 4, new Refusals("member"));
        transport = new CoordinatorTransport(codec, roster, new Outbox(null, codec), new Refusals("frame"));
        transport.attach(scheduler::add);
        roster.onWorkerLost((id, address, leaving) -> lost.add(id));
        roster.onWorkerRetired((id, address) -> retired.add(address));
        Member selfMember = member(self, 1L, Set.of(Roster.COORDINATOR_ROLE));
        Member old = member(oldAddress, 100L, Set.copyOf(Roster.workerRoles(1, oldIncarnation)));
        Member successor = member(newAddress, 200L, Set.copyOf(Roster.workerRoles(1, newIncarnation)));

        roster.up(old, List.of(), selfMember);
        roster.removed(old.copy(MemberStatus.removed()));
        roster.up(successor, List.of(), selfMember);
        assertThat(lost).containsExactly(1);
        assertThat(roster.worker(1)).isEqualTo(newAddress);
    }

    @Test
    void aSendFailureOfTheLostProcessDoesNotCutOffItsSuccessor() {
        // the scheduler has not handled the loss yet: for it, worker 1 is still the old process,
        // and a send to it threw
        transport.workerLost(1);

        assertThat(lost).as("losses reported").containsExactly(1);
        assertThat(roster.worker(1)).as("worker 1's live process").isEqualTo(newAddress);
        assertThat(roster.accepts(1, newAddress, newIncarnation)).isTrue();
    }

    @Test
    void retiringTheLostProcessDoesNotCutOffItsSuccessor() {
        // the scheduler retired worker 1 (the old process) before it handled its loss
        transport.retired(1);

        assertThat(retired).as("processes retired").isEmpty();
        assertThat(roster.worker(1)).as("worker 1's live process").isEqualTo(newAddress);
        assertThat(roster.accepts(1, newAddress, newIncarnation)).isTrue();
    }

    @Test
    void theAdmittedSuccessorIsCutOffByItsOwnSendFailure() {
        transport.admitting(1);               // the scheduler handled the loss: worker 1 is the successor now

        transport.workerLost(1);

        assertThat(lost).containsExactly(1, 1);
        assertThat(roster.worker(1)).isNull();
    }
}
