/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.TaskSpec;
import dev.spindle.cluster.testkit.Cleanup;
import dev.spindle.cluster.testkit.FreePorts;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.Props;
import org.apache.pekko.cluster.Cluster;
import org.apache.pekko.cluster.ClusterEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker that is closed leaves the cluster in order: the coordinator lets it exit rather than
 * downing it (a downed member is quarantined by its peers mid-shutdown, and Pekko's remoting could
 * then hold its actor system, and its port, up for seconds past {@code close()}), and when
 * {@code close()} returns its actor system is down and its port free for a successor.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class OrderlyCloseTest {

    private final Cleanup started = new Cleanup();

    @AfterEach
    void stop() throws Exception {
        started.close();
    }

    @Test
    void aClosedWorkerExitsWithoutBeingDownedAndItsPortIsFreeWhenCloseReturns() throws Exception {
        int[] ports = FreePorts.free(2);
        String cluster = "orderly";
        String seed = "127.0.0.1:" + ports[0];
        PekkoWorker worker = started.add(PekkoWorker.start(TestCerts.settings(cluster, "worker").seedNode(seed).port(ports[1])
                .build(), 0, 1));
        PekkoCoordinator coordinator = started.add(PekkoCoordinator.start(
                TestCerts.settings(cluster, "coordinator").port(ports[0]).build(),
                CoordinatorSettings.builder().workers(1).threadsPerWorker(1).build(), Duration.ofSeconds(60)));
        assertThat(coordinator.client().submit(TaskSpec.builder("one", in -> 1).build()).get(60, TimeUnit.SECONDS))
                .isEqualTo(1);
        BlockingQueue<ClusterEvent.MemberEvent> events = new LinkedBlockingQueue<>();
        coordinator.systemForTests().actorOf(Props.create(Events.class, () -> new Events(events)));
        Address workerAddress = addressOf(coordinator, ports[1]);
        List<ClusterEvent.MemberEvent> seen = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        // subscribed: the current membership comes first, the worker Up in it
        while (seen.isEmpty()) {
            seen.addAll(next(events, deadline, workerAddress, seen));
        }

        worker.close();

        assertThat(bindable(ports[1])).as("its port is free when close() returns").isNull();
        // the stage is completed by a callback of Pekko's, possibly a moment after close() saw the end
        worker.terminated().toCompletableFuture().get(10, TimeUnit.SECONDS);
        while (seen.stream().noneMatch(e -> e instanceof ClusterEvent.MemberRemoved)) {
            seen.addAll(next(events, deadline, workerAddress, seen));
        }
        assertThat(seen).as("the coordinator let the worker exit; it did not down it")
                .noneMatch(e -> e instanceof ClusterEvent.MemberDowned)
                .anyMatch(e -> e instanceof ClusterEvent.MemberExited);
    }

    /** The next event, as a list of one if it is about {@code member}, else empty. */
    private static List<ClusterEvent.MemberEvent> next(BlockingQueue<ClusterEvent.MemberEvent> events, long deadline,
            Address member, List<ClusterEvent.MemberEvent> seen) throws InterruptedException {
        ClusterEvent.MemberEvent e = events.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
        assertThat(e).as("the next membership event within the time; seen " + seen).isNotNull();
        return e.member().address().equals(member) ? List.of(e) : List.of();
    }

    private static Address addressOf(PekkoCoordinator coordinator, int port) {
        for (org.apache.pekko.cluster.Member m : Cluster.get(coordinator.systemForTests()).state().getMembers()) {
            if (m.address().port().get().equals(port)) {
                return m.address();
            }
        }
        throw new AssertionError("no member at port " + port);
    }

    /** {@code null} if a listener can bind {@code port} on loopback now, else why not. */
    static String bindable(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);   // as a server socket channel is, on Linux
            s.bind(new InetSocketAddress("127.0.0.1", port));
            return null;
        } catch (IOException e) {
            return e.toString();
        }
    }

    /** Hands the coordinator's membership events to the test. */
    static final class Events extends AbstractActor {
        private final BlockingQueue<ClusterEvent.MemberEvent> sink;

        Events(BlockingQueue<ClusterEvent.MemberEvent> sink) {
            this.sink = sink;
        }

        @Override
        public void preStart() {
            Cluster.get(getContext().getSystem()).subscribe(getSelf(), ClusterEvent.initialStateAsEvents(),
                    ClusterEvent.MemberEvent.class);
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder().match(ClusterEvent.MemberEvent.class, sink::add).build();
        }
    }
}
