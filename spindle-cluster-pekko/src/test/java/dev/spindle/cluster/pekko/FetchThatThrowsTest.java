/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.cluster.Incarnations;
import java.time.Duration;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import scala.jdk.javaapi.CollectionConverters;

/**
 * A fetch whose request cannot be sent (the actor system stopping: its scheduler refuses the ask's
 * timeout, and the ask throws) leaves nothing behind: its future stayed in the fetches in flight
 * to the holder, never completed, for as long as the holder stayed a member.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FetchThatThrowsTest {

    private final ActorSystem system = ActorSystem.create("fetching");

    @AfterEach
    void stop() {
        system.terminate();
    }

    /** Worker 0's transport, which knows worker 1 as a live member at {@code holder}. */
    private static WorkerTransport transport(ActorSystem system, WireCodec codec, Address holder) {
        Address self = new Address("pekko", "fetching", "10.0.0.1", 25521);
        Roster roster = new Roster(self, false, Integer.MAX_VALUE, new Refusals("member"));
        Member selfMember = worker(self, 1L, 0);
        roster.up(worker(holder, 2L, 1), List.of(), selfMember);
        assertThat(roster.worker(1)).isEqualTo(holder);
        return new WorkerTransport(0, Incarnations.newIncarnation(), codec, roster, new Outbox(system, codec),
                new Refusals("frame"), Duration.ofSeconds(30));
    }

    private static Member worker(Address a, long uid, int id) {
        return new Member(new UniqueAddress(a, uid), 1, MemberStatus.up(),
                CollectionConverters.asScala(Set.copyOf(Roster.workerRoles(id, Incarnations.newIncarnation()))).toSet(),
                Version.Zero());
    }

    @Test
    void aFetchOnceTheActorSystemStoppedLeavesNoFetchInFlight() throws Exception {
        WireCodec codec = new WireCodec(List.of(), 1 << 20);
        Address holder = new Address("pekko", "fetching", "10.0.0.2", 25521);
        WorkerTransport transport = transport(system, codec, holder);
        system.terminate();
        system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
        Throwable failed = null;
        try {
            failed = transport.fetch("k", 1, 0).handle((v, e) -> e).toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (RuntimeException thrown) {
            failed = thrown;                  // told by a throw, as ClusterWorker expects of a transport
        }
        assertThat(failed).as("the fetch's failure").isNotNull();
        assertThat(transport.fetchesInFlight()).as("fetches still in flight once the fetch failed").isZero();
    }
}
