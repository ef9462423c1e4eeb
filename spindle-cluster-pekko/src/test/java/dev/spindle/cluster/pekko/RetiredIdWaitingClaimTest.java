/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.Incarnations;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.apache.pekko.actor.Address;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.UniqueAddress;
import org.apache.pekko.util.Version;
import org.junit.jupiter.api.Test;
import scala.jdk.javaapi.CollectionConverters;

/**
 * A process that claims a worker id while the id's process is retiring (a replacement started
 * under the same id before the old one has moved its data away) waits ({@link
 * Incarnations.Proof#WAITING}); the roster promises to try that claim again once the id is free,
 * "lost (or retired)". A retirement frees the id ({@link Roster#retire}) but never tried the
 * waiting claim again, and the retired member's later removal does not either (its incarnation
 * no longer holds the id): the replacement stayed refused for good, Up in the cluster but never
 * admitted, while the Hazelcast transport admits it. Driven by hand on the coordinator's roster.
 */
class RetiredIdWaitingClaimTest {

    private static Member member(Address a, long uid, Set<String> roles) {
        return new Member(new UniqueAddress(a, uid), 1, MemberStatus.up(),
                CollectionConverters.asScala(roles).toSet(), Version.Zero());
    }

    @Test
    void aClaimThatWaitedForARetiringWorkerTakesTheIdOnceItIsRetired() {
        Address self = new Address("pekko", "jobs", "10.0.0.1", 25520);
        Address oldAddress = new Address("pekko", "jobs", "10.0.0.2", 25520);
        Address newAddress = new Address("pekko", "jobs", "10.0.0.3", 25520);
        long oldIncarnation = Incarnations.newIncarnation();
        long newIncarnation = Incarnations.newIncarnation();
        Roster roster = new Roster(self, true, 4, new Refusals("member"));
        List<String> up = Collections.synchronizedList(new ArrayList<>());
        roster.onWorkerUp((proof, id) -> up.add(proof + " " + id));
        List<Integer> retired = new ArrayList<>();
        roster.onWorkerRetired((id, address) -> retired.add(id));
        Member selfMember = member(self, 1L, Set.of(Roster.COORDINATOR_ROLE));
        Member old = member(oldAddress, 100L, Set.copyOf(Roster.workerRoles(1, oldIncarnation)));
        Member replacement = member(newAddress, 200L, Set.copyOf(Roster.workerRoles(1, newIncarnation)));

        roster.up(old, List.of(), selfMember);
        assertThat(up).containsExactly("NEW 1");
        roster.up(replacement, List.of(), selfMember);     // while worker 1 retires: its claim waits
        assertThat(roster.worker(1)).isEqualTo(oldAddress);

        roster.retire(1, oldAddress, oldIncarnation);     // the scheduler removed worker 1
        roster.removed(old.copy(MemberStatus.removed()));  // and its process left the cluster

        assertThat(retired).containsExactly(1);
        assertThat(up).as("the waiting replacement is registered once the id is free").containsExactly("NEW 1", "REJOINED 1");
        assertThat(roster.worker(1)).isEqualTo(newAddress);
        assertThat(roster.accepts(1, newAddress, newIncarnation)).isTrue();
        assertThat(roster.accepts(1, oldAddress, oldIncarnation)).isFalse();
    }
}
