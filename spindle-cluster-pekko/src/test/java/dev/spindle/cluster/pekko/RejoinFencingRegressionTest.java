/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.FrameMac;
import dev.spindle.cluster.Incarnations;
import dev.spindle.cluster.Message;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.Props;
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
 * Found by review (session 41), both tests failing before the fix; the same defect as the
 * Hazelcast transport's (its RejoinFencingRegressionTest). The coordinator's transport addresses the scheduler's messages by worker id and resolves the id's
 * address and incarnation (and so the key it seals with) when the batch is sent
 * ({@code CoordinatorTransport.sendFrame}). The loss that membership reports goes straight to the
 * scheduler ({@code PekkoCoordinator}'s loss callback): the transport's {@code workerLost}, which
 * discards the queue, is never called, and the scheduler keeps addressing the lost process until
 * it has handled {@link Message.WorkerLost}. A restarted process whose claim waited for the loss
 * proves the id at once, and its key is settled by the first readiness probe of the live workers
 * (another worker's late join probes them all): from then on the predecessor's messages are sealed
 * for the successor, which acts on them (a numbered {@code ReleaseKey} makes it drop its own first
 * task of that key for good). Driven by hand: a local actor system stands in for the worker's
 * endpoint (old and new process at one address, a same-address restart), and the key exchange's
 * outcome is set on the transport's offers as a probe would set it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RejoinFencingRegressionTest {


    private ActorSystem system;
    private final BlockingQueue<Object> arrived = new LinkedBlockingQueue<>();
    private final List<Message.ToScheduler> scheduler = Collections.synchronizedList(new ArrayList<>());
    private final WireCodec codec = new WireCodec(List.of(), 1 << 20);
    private Address here;
    private Roster roster;
    private Outbox outbox;
    private CoordinatorTransport transport;
    private Member selfMember;
    private final long oldIncarnation = Incarnations.newIncarnation();
    private final long newIncarnation = Incarnations.newIncarnation();
    private Member old;
    private Member successor;

    /** The worker's endpoint: records every frame that reaches its address. */
    static final class Endpoint extends AbstractActor {
        private final BlockingQueue<Object> arrived;

        private Endpoint(BlockingQueue<Object> arrived) {
            this.arrived = arrived;
        }

        static Props props(BlockingQueue<Object> arrived) {
            return Props.create(Endpoint.class, () -> new Endpoint(arrived));
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder().match(Wire.Encoded.class, e -> arrived.add(e.bytes())).build();
        }
    }

    private static Member member(Address a, long uid, Set<String> roles) {
        return new Member(new UniqueAddress(a, uid), 1, MemberStatus.up(),
                CollectionConverters.asScala(roles).toSet(), Version.Zero());
    }

    @BeforeEach
    void start() throws Exception {
        system = ActorSystem.create("rejoin-fencing");
        here = new Address("pekko", "rejoin-fencing");          // the local system's address: frames to it reach Endpoint
        system.actorOf(Endpoint.props(arrived), PekkoConfigs.ENDPOINT);
        Address self = new Address("pekko", "rejoin-fencing", "10.0.0.1", 25520);
        roster = new Roster(self, true, 4, new Refusals("member"));
        outbox = new Outbox(system, codec);
        transport = new CoordinatorTransport(codec, roster, outbox, new Refusals("frame"));
        transport.attach(scheduler::add);
        // as PekkoCoordinator wires it (less the downing)
        roster.onWorkerLost((id, address, leaving) -> scheduler.add(new Message.WorkerLost(id)));
        selfMember = member(self, 1L, Set.of(Roster.COORDINATOR_ROLE));
        old = member(here, 100L, Set.copyOf(Roster.workerRoles(1, oldIncarnation)));
        successor = member(here, 200L, Set.copyOf(Roster.workerRoles(1, newIncarnation)));

        roster.up(old, List.of(), selfMember);
        assertThat(roster.incarnation(1)).isEqualTo(oldIncarnation);
        settleKey(1, oldIncarnation);             // worker 1 answered its probes and was admitted
    }

    @AfterEach
    void stop() throws Exception {
        system.terminate();
        system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @Test
    void aMessageQueuedForALostWorkerIsNotSentToTheProcessThatRejoinsUnderItsId() throws Exception {
        transport.toWorker(1, new Message.ReleaseKey("k", 1));   // queued by the scheduler, not flushed yet

        loseOldAndRejoin();
        PairKey successorKey = settleKey(1, newIncarnation);   // another worker's late join probes every live worker

        transport.flush();                        // the scheduler's next flush

        assertThat(sealedFor(successorKey)).as("the predecessor's release, sealed for its successor").isEmpty();
    }

    @Test
    void aMessageTheSchedulerSendsBeforeItHasHandledTheLossIsNotSentToTheSuccessor() throws Exception {
        loseOldAndRejoin();
        PairKey successorKey = settleKey(1, newIncarnation);
        // the scheduler has not reached WorkerLost(1) in its inbox yet: for it, worker 1 is still
        // the old process, which it goes on giving releases (and work)
        transport.toWorker(1, new Message.ReleaseKey("k", 7));
        transport.flush();

        assertThat(sealedFor(successorKey)).as("a message for the lost process, sealed for its successor").isEmpty();
    }

    /**
     * The restarted process asks to join at the old one's address (its claim waits), then the old
     * process is removed: the id is lost and the waiting claim proves it at once.
     */
    private void loseOldAndRejoin() {
        roster.up(successor, List.of(), selfMember);
        assertThat(roster.incarnation(1)).as("the successor waits while the old process lives").isEqualTo(oldIncarnation);
        roster.removed(old.copy(MemberStatus.removed()));
        assertThat(scheduler).contains(new Message.WorkerLost(1));
        assertThat(roster.incarnation(1)).as("the successor holds the id").isEqualTo(newIncarnation);
        assertThat(roster.worker(1)).isEqualTo(here);
    }

    /** What a completed probe leaves: the key of worker {@code id}'s process {@code incarnation}. */
    private PairKey settleKey(int id, long incarnation) throws Exception {
        Field f = CoordinatorTransport.class.getDeclaredField("offers");
        f.setAccessible(true);
        KeyExchange.Offers offers = (KeyExchange.Offers) f.get(transport);
        byte[] offer = offers.offer(id, incarnation);
        assertThat(offer).isNotNull();
        assertThat(offers.answered(id, incarnation, offer, FrameMac.randomToken())).isTrue();
        PairKey key = offers.key(id, incarnation);
        assertThat(key).isNotNull();
        return key;
    }

    /**
     * The frames that reached the worker's address and that {@code key} seals (the successor
     * accepts those and acts on them), up to a marker sent after them; bounded.
     */
    private List<Wire.Frame> sealedFor(PairKey key) throws Exception {
        outbox.send(here, new Wire.Frame(3, new Wire.Probe(3, FrameMac.randomToken())), Wire.Seal.NONE);
        List<Wire.Frame> out = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            Object bytes = arrived.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            assertThat(bytes).as("the marker frame arrives").isNotNull();
            Object decoded = codec.decode((byte[]) bytes);
            if (!(decoded instanceof Wire.Received r)) {
                continue;
            }
            if (r.frame().to() == 3) {
                return out;                       // the marker: everything sent before it has arrived
            }
            if (r.sealedBy(key)) {
                out.add(r.frame());
            }
        }
    }
}
