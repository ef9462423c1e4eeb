/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.Incarnations;
import dev.spindle.cluster.WorkerMemory;
import dev.spindle.cluster.WorkerNode;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.ActorRef;
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
 * The coordinator counts a worker ready once it answers a probe showing that it knows every other
 * worker: a worker refuses a fetch from a member it does not know as a worker's current process,
 * and the fetcher then waits out its fetch timeout. The answer said how many workers it knew, and
 * the coordinator compared that with how many there were: a worker that still knew a process the
 * coordinator had lost (its removal not yet gossiped to the worker) and not yet the joiner that
 * took its place in the count answered as ready, and the joiner was admitted to fetch from a
 * worker that would refuse it. The answer now names the processes it knows (id and incarnation),
 * and the coordinator looks for each of the workers it probes for.
 *
 * <p>Driven by hand in one local actor system: the coordinator's transport and roster probe
 * worker 0's transport, whose endpoint here decodes the frames as Artery's serializer would on
 * arrival (a local send passes them on encoded), and so do the replies.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProbeCountsIdentitiesTest {

    private final long[] incarnations = {Incarnations.newIncarnation(), Incarnations.newIncarnation(),
            Incarnations.newIncarnation(), Incarnations.newIncarnation()};
    private final Address coordinatorSelf = new Address("pekko", "jobs", "10.0.0.1", 25520);
    private final Address workerSelf = new Address("pekko", "jobs", "10.0.0.10", 25521);
    private ActorSystem system;
    /** Where worker 0's endpoint is, and where the coordinator's frames come from: the local system. */
    private Address local;
    private WireCodec codec;
    private Roster coordinatorRoster;
    private Roster workerRoster;
    private CoordinatorTransport coordinator;
    private WorkerNode node;
    private Member workerSelfMember;

    private static Member member(Address a, long uid, Set<String> roles) {
        return new Member(new UniqueAddress(a, uid), 1, MemberStatus.up(), CollectionConverters.asScala(roles).toSet(),
                Version.Zero());
    }

    private Member worker(int id, Address a) {
        return member(a, 100L + id, Set.copyOf(Roster.workerRoles(id, incarnations[id])));
    }

    /** Worker {@code id}'s member: worker 0's is the local system, the others are elsewhere (never reached). */
    private Member worker(int id) {
        return worker(id, id == 0 ? local : new Address("pekko", "jobs", "10.0.0." + (10 + id), 25521));
    }

    /**
     * An actor that decodes each frame it is sent, as Artery's serializer would on arrival, and
     * hands it to {@code take} with itself (its sender, its context): worker 0's endpoint and the
     * reply addresses that endpoint makes.
     */
    static final class Decoding extends AbstractActor {
        private final WireCodec codec;
        private final BiConsumer<Decoding, Object> take;

        Decoding(WireCodec codec, BiConsumer<Decoding, Object> take) {
            this.codec = codec;
            this.take = take;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder().match(Wire.Encoded.class, e -> take.accept(this, codec.decode(e.bytes()))).build();
        }
    }

    /** Worker 0's endpoint: hands each frame to its transport decoded, with a sender that decodes the reply. */
    private static Props endpoint(WireCodec codec, WorkerTransport transport) {
        return Props.create(Decoding.class, () -> new Decoding(codec, (self, decoded) -> {
            ActorRef asker = self.getSender();
            ActorRef replyTo = self.getContext().actorOf(replyDecoder(codec, asker));
            if (decoded instanceof Wire.Received r) {
                transport.onFrame(r, replyTo);
            }
        }));
    }

    /** Decodes the one reply it is sent and hands it to the asker. */
    private static Props replyDecoder(WireCodec codec, ActorRef asker) {
        return Props.create(Decoding.class, () -> new Decoding(codec, (self, decoded) -> {
            asker.tell(decoded, ActorRef.noSender());
            self.getContext().stop(self.getSelf());
        }));
    }

    @BeforeEach
    void start() {
        system = ActorSystem.create("jobs");
        local = new Address("pekko", "jobs");
        codec = new WireCodec(List.of(), 1 << 20);

        coordinatorRoster = new Roster(coordinatorSelf, true, 4, new Refusals("member"));
        Outbox coordinatorOutbox = new Outbox(system, codec);
        coordinatorOutbox.follow(coordinatorRoster);
        coordinator = new CoordinatorTransport(codec, coordinatorRoster, coordinatorOutbox, new Refusals("frame"));
        Member coordinatorMember = member(local, 1L, Set.of(Roster.COORDINATOR_ROLE));

        workerRoster = new Roster(workerSelf, false, Integer.MAX_VALUE, new Refusals("member"));
        Outbox workerOutbox = new Outbox(system, codec);
        workerOutbox.follow(workerRoster);
        WorkerTransport transport = new WorkerTransport(0, incarnations[0], codec, workerRoster, workerOutbox,
                new Refusals("frame"), Duration.ofSeconds(30));
        node = new WorkerNode(0, 1, WorkerMemory.NONE, transport);
        transport.attach(node);
        system.actorOf(endpoint(codec, transport), PekkoConfigs.ENDPOINT);
        workerSelfMember = member(workerSelf, 2L, Set.copyOf(Roster.workerRoles(0, incarnations[0])));
        workerRoster.up(coordinatorMember, List.of(), workerSelfMember);   // worker 0 follows the coordinator

        for (int id = 0; id < 4; id++) {
            coordinatorRoster.up(worker(id), List.of(), coordinatorMember);
        }
        // worker 3 dies: the coordinator loses it at once (unreachable); worker 0 still knows it
        // until its removal reaches worker 0
        coordinatorRoster.unreachable(worker(3));
        assertThat(coordinatorRoster.liveIds()).containsExactly(0, 1, 2);
        workerRoster.up(worker(1), List.of(), workerSelfMember);
        workerRoster.up(worker(3), List.of(), workerSelfMember);
        assertThat(workerRoster.liveIds()).containsExactly(1, 3);
    }

    @AfterEach
    void stop() {
        node.close();
        system.terminate();
    }

    @Test
    void aWorkerThatKnowsAsManyWorkersButNotTheJoinerIsNotReady() throws InterruptedException {
        // worker 2 has joined: the coordinator asks whether worker 0 knows workers 1 and 2; it
        // knows two workers, 1 and the lost 3, but not 2, which it would refuse to serve
        assertThat(coordinator.probe(0, coordinatorRoster.liveIds())).as("worker 0 ready for worker 2").isFalse();

        workerRoster.up(worker(2), List.of(), workerSelfMember);   // worker 2's being Up reaches worker 0
        assertThat(coordinator.probe(0, coordinatorRoster.liveIds())).as("worker 0 ready, knowing worker 2").isTrue();
    }
}
