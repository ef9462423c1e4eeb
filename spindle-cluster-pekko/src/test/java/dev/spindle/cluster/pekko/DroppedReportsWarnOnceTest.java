/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.Incarnations;
import dev.spindle.cluster.Message;
import dev.spindle.cluster.testkit.LogLines;
import java.time.Duration;
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
 * A worker with a memory limit reports its store to the coordinator every second, from its
 * start; until it follows a coordinator and has settled a key with it, and once that coordinator
 * has left, those reports have nowhere to go and are dropped (as spindle-cluster's
 * {@code ClusterWorker} overview expects of this transport). Each drop was logged as a WARNING: a
 * worker started before its coordinator, or one the coordinator refuses without telling it (its
 * id taken), which stays, wrote one WARNING a second for as long as it ran, for a normal state.
 * Driven by hand on a worker's transport and roster: each state is now warned of once, when it
 * begins, and its later drops are logged below the default level.
 */
class DroppedReportsWarnOnceTest {

    private static Member member(Address a, long uid, MemberStatus status, Set<String> roles) {
        return new Member(new UniqueAddress(a, uid), 1, status, CollectionConverters.asScala(roles).toSet(),
                Version.Zero());
    }

    private static void report(WorkerTransport transport, int times) {
        for (int n = 0; n < times; n++) {
            transport.toScheduler(new Message.MemoryReport(0, 1_000 + n, 0, false));   // as the reporter does
        }
    }

    @Test
    void eachReasonToDropReportsIsWarnedOfOnce() {
        Address self = new Address("pekko", "jobs", "10.0.0.2", 25521);
        Address coordinatorAddress = new Address("pekko", "jobs", "10.0.0.1", 25520);
        Roster roster = new Roster(self, false, Integer.MAX_VALUE, new Refusals("member"));
        WireCodec codec = new WireCodec(List.of(), 1 << 20);
        // nothing is sent: without a coordinator and a key the transport drops every report first
        WorkerTransport transport = new WorkerTransport(0, Incarnations.newIncarnation(), codec, roster,
                new Outbox(null, codec), new Refusals("frame"), Duration.ofSeconds(10));
        Member selfMember = member(self, 2L, MemberStatus.up(), Set.copyOf(Roster.workerRoles(0, 7L)));
        Member coordinator = member(coordinatorAddress, 1L, MemberStatus.up(), Set.of(Roster.COORDINATOR_ROLE));

        try (LogLines log = LogLines.of(WorkerTransport.class)) {
            report(transport, 30);                        // half a minute before the coordinator is up
            assertThat(log.lines()).as("log lines for 30 reports without a coordinator").hasSize(1);
            assertThat(log.lines().get(0)).contains("no coordinator to follow yet").contains("MemoryReport");

            roster.up(coordinator, List.of(), selfMember);
            assertThat(roster.coordinator()).isEqualTo(coordinatorAddress);
            report(transport, 30);                        // it has not probed this worker: no key
            assertThat(log.lines()).as("log lines once the coordinator is known, but no key").hasSize(2);
            assertThat(log.lines().get(1)).contains("no key settled with the coordinator yet");

            roster.removed(coordinator.copy(MemberStatus.removed()));
            assertThat(roster.coordinatorGone()).isTrue();
            report(transport, 30);
            assertThat(log.lines()).as("log lines once the coordinator has left").hasSize(3);
            assertThat(log.lines().get(2)).contains("the coordinator it followed has left");
        }
    }
}
