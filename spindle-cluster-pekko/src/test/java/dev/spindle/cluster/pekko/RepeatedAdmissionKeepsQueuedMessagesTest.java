/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.Incarnations;
import dev.spindle.cluster.Message;
import dev.spindle.cluster.OutboundBatches;
import java.lang.reflect.Field;
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
 * A worker that comes up as the coordinator's start-up ends is admitted twice over: for its
 * coming up, and by the start-up's look at the live workers, each on a thread of its own, and the
 * second may reach the transport while the scheduler has messages queued for the worker. Only a
 * lost process's messages may be dropped there: the worker's own, a task among them, were, and
 * that task never ran nor was placed again. Driven by hand on the coordinator's roster and
 * transport; nothing is sent.
 */
class RepeatedAdmissionKeepsQueuedMessagesTest {

    private final Address self = new Address("pekko", "jobs", "10.0.0.1", 25520);
    private final Address workerAddress = new Address("pekko", "jobs", "10.0.0.2", 25520);

    private static Member member(Address a, long uid, Set<String> roles) {
        return new Member(new UniqueAddress(a, uid), 1, MemberStatus.up(),
                CollectionConverters.asScala(roles).toSet(), Version.Zero());
    }

    @Test
    void aSecondAdmissionOfALiveWorkerDropsNothingQueuedForIt() throws Exception {
        WireCodec codec = new WireCodec(List.of(), 1 << 20);
        Roster roster = new Roster(self, true, 4, new Refusals("member"));
        CoordinatorTransport transport = new CoordinatorTransport(codec, roster, new Outbox(null, codec),
                new Refusals("frame"));
        List<Message.ToScheduler> scheduler = Collections.synchronizedList(new ArrayList<>());
        transport.attach(scheduler::add);
        Member selfMember = member(self, 1L, Set.of(Roster.COORDINATOR_ROLE));
        roster.up(member(workerAddress, 100L, Set.copyOf(Roster.workerRoles(2, Incarnations.newIncarnation()))),
                List.of(), selfMember);
        assertThat(roster.worker(2)).isEqualTo(workerAddress);

        transport.admitting(2);               // its admission
        transport.toWorker(2, new Message.ReleaseKey("a", 1));   // queued by the scheduler, not flushed yet
        transport.admitting(2);               // the same worker admitted again, late

        OutboundBatches batches = (OutboundBatches) field(CoordinatorTransport.class, "batches", transport);
        assertThat(batches.pending(2)).as("messages still queued for the live worker").isEqualTo(1);
        assertThat(scheduler).as("nobody lost").isEmpty();
    }

    private static Object field(Class<?> type, String name, Object of) throws ReflectiveOperationException {
        Field f = type.getDeclaredField(name);
        f.setAccessible(true);
        return f.get(of);
    }
}
