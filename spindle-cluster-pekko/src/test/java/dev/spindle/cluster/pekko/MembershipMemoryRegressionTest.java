/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.Incarnations;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Address;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.UniqueAddress;
import org.apache.pekko.util.Version;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Session-31 review of what a long-lived member keeps per member that has left: under churn
 * (workers restarted at new addresses, as a container's new IP gives them) it must not grow.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MembershipMemoryRegressionTest {

    private static Member worker(Address a, long uid, int id, long incarnation, MemberStatus status) {
        return new Member(new UniqueAddress(a, uid), 1, status,
                CollectionConverters.asScala(Set.copyOf(Roster.workerRoles(id, incarnation))).toSet(), Version.Zero());
    }

    /**
     * The outbox kept the endpoint of every member it ever sent to, and the roster every departed
     * worker's address and every refused member: one entry each for the life of the coordinator,
     * however many of them had left the cluster.
     */
    @Test
    void theOutboxForgetsTheEndpointsOfMembersThatLeft() {
        ActorSystem system = ActorSystem.create("churn");
        try {
            Address self = new Address("pekko", "churn", "10.0.0.1", 25520);
            Roster roster = new Roster(self, true, 4, new Refusals("member"));
            Outbox outbox = new Outbox(system, new WireCodec(List.of(), 1 << 20));
            outbox.follow(roster);                 // as the coordinator and the workers wire them
            Member selfMember = new Member(new UniqueAddress(self, 1L), 1, MemberStatus.up(),
                    CollectionConverters.asScala(Set.of(Roster.COORDINATOR_ROLE)).toSet(), Version.Zero());
            for (int n = 0; n < 200; n++) {
                // a worker restarted at a new address each time, sent a frame, then removed
                Address a = new Address("pekko", "churn", "10.1." + (n / 250) + "." + (n % 250), 25521);
                long incarnation = Incarnations.newIncarnation();
                Member m = worker(a, 100L + n, n % 4, incarnation, MemberStatus.up());
                roster.up(m, List.of(), selfMember);
                outbox.send(a, new Wire.Frame(n % 4, new Wire.Probe(n % 4, dev.spindle.cluster.FrameMac.randomToken())), Wire.Seal.NONE);
                roster.removed(m.copy(MemberStatus.removed()));
                // and a member refused (an id out of range), which leaves too
                Address r = new Address("pekko", "churn", "10.2." + (n / 250) + "." + (n % 250), 25521);
                Member refused = worker(r, 10_000L + n, 99, Incarnations.newIncarnation(), MemberStatus.up());
                roster.up(refused, List.of(), selfMember);
                roster.removed(refused.copy(MemberStatus.removed()));
            }
            assertThat(outbox.endpointsHeld()).as("endpoints held once every worker left").isZero();
            assertThat(roster.addressesHeld()).as("addresses the roster holds once every member left").isZero();
        } finally {
            system.terminate();
        }
    }
}
