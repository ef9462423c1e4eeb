/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.Incarnations;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
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
 * A worker keeps, per holder address, the set of its fetches in flight there, so that a holder
 * that leaves fails them at once ({@code holderGone}, which drops the set). A fetch that read the
 * holder's address just before the holder left made the set again after it was dropped: the fetch
 * itself saw the holder gone and failed, but the empty set stayed, one for each such race, for an
 * address nothing is fetched from again (under churn, workers restarted at new addresses, they add
 * up for the life of the worker). Found in review: before the fix one set was left.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FetchRacingTheHoldersLeavingTest {

    @AfterEach
    void clearSeam() {
        WorkerTransport.beforeFetchRegistersForTests = () -> { };
    }

    private static Member worker(Address a, long uid, int id, long incarnation, MemberStatus status) {
        return new Member(new UniqueAddress(a, uid), 1, status,
                CollectionConverters.asScala(Set.copyOf(Roster.workerRoles(id, incarnation))).toSet(), Version.Zero());
    }

    @Test
    void aFetchThatFindsItsHolderGoneLeavesNothingBehind() throws Exception {
        ActorSystem system = ActorSystem.create("fetch-race");
        try {
            Address self = new Address("pekko", "fetch-race", "10.0.0.1", 25521);
            Roster roster = new Roster(self, false, Integer.MAX_VALUE, new Refusals("member"));
            Member selfMember = worker(self, 1L, 0, Incarnations.newIncarnation(), MemberStatus.up());
            Member holder = worker(new Address("pekko", "fetch-race", "10.0.0.2", 25521), 2L, 1,
                    Incarnations.newIncarnation(), MemberStatus.up());
            roster.up(holder, List.of(), selfMember);
            WireCodec codec = new WireCodec(List.of(), PekkoClusterSettings.MIN_MESSAGE_BYTES);
            WorkerTransport transport = new WorkerTransport(0, Incarnations.newIncarnation(), codec, roster,
                    new Outbox(system, codec), new Refusals("frame"), Duration.ofSeconds(10));
            roster.onWorkerGone(transport::holderGone);   // as PekkoWorker wires them
            assertThat(roster.worker(1)).as("the holder, worker 1").isNotNull();

            // the holder leaves once the fetch has read its address
            WorkerTransport.beforeFetchRegistersForTests = () -> roster.removed(holder.copy(MemberStatus.removed()));
            CompletableFuture<Object> fetch = transport.fetch("k", 1, 0);

            assertThat(fetch).as("a fetch from a holder that left").isCompletedExceptionally();
            assertThat(transport.fetchesInFlight()).as("fetches in flight").isZero();
            assertThat(transport.holdersTracked()).as("holder addresses with fetches kept").isZero();
        } finally {
            system.terminate();
        }
    }
}
