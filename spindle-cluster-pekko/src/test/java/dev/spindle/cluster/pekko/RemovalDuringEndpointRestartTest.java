/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.spindle.cluster.FrameMac;
import dev.spindle.cluster.Incarnations;
import java.lang.reflect.Constructor;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.Props;
import org.apache.pekko.cluster.Cluster;
import org.apache.pekko.cluster.Member;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An exception in the endpoint actor restarts it, and by Pekko's default a restart unsubscribes
 * from membership ({@code postStop}) and subscribes again ({@code preStart}) with the current
 * members replayed. A worker removed between the two was in neither: the coordinator's roster
 * never lost it, and its tasks would have waited for good. Here the restart is held open (the new
 * instance is made only once the worker is gone from the cluster) so that the removal falls in it
 * every time; two actor systems in this JVM, plain TCP, the worker downed by the coordinator.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RemovalDuringEndpointRestartTest {

    private final List<ActorSystem> systems = new ArrayList<>();

    @AfterEach
    void stop() {
        systems.forEach(PekkoConfigs::stop);
    }

    @Test
    void aWorkerRemovedWhileTheEndpointRestartsIsStillLost() throws Exception {
        ActorSystem coordinatorSystem = start(List.of(Roster.COORDINATOR_ROLE));
        ActorSystem workerSystem = start(Roster.workerRoles(1, Incarnations.newIncarnation()));
        Cluster coordinatorCluster = Cluster.get(coordinatorSystem);
        Cluster workerCluster = Cluster.get(workerSystem);
        Address workerAddress = workerCluster.selfAddress();

        Roster roster = new Roster(coordinatorCluster.selfAddress(), true, 4, new Refusals("member"));
        List<Integer> lost = Collections.synchronizedList(new ArrayList<>());
        roster.onWorkerLost((id, address, leaving) -> lost.add(id));
        EndpointActor.Handler failing = new EndpointActor.Handler() {
            @Override
            public void onFrame(Wire.Received frame, ActorRef sender) {
                throw new IllegalStateException("a handler that throws (expected in this test)");
            }

            @Override
            public void onRejected(Wire.Rejected rejected, ActorRef sender) {
            }

            @Override
            public void onDropped(Address member, String reason) {
            }
        };
        // the endpoint as EndpointActor.props makes it, except that its second instance (the
        // restart's) waits until the test lets it be made
        Constructor<EndpointActor> constructor = EndpointActor.class.getDeclaredConstructor(Roster.class,
                EndpointActor.Handler.class);
        constructor.setAccessible(true);
        AtomicInteger made = new AtomicInteger();
        CountDownLatch restarting = new CountDownLatch(1);
        CountDownLatch resume = new CountDownLatch(1);
        ActorRef endpoint = coordinatorSystem.actorOf(Props.create(EndpointActor.class, () -> {
            if (made.getAndIncrement() == 1) {
                restarting.countDown();
                resume.await(60, TimeUnit.SECONDS);
            }
            return constructor.newInstance(roster, failing);
        }), PekkoConfigs.ENDPOINT);

        coordinatorCluster.join(coordinatorCluster.selfAddress());
        workerCluster.join(coordinatorCluster.selfAddress());
        await("worker 1 registered", () -> roster.worker(1) != null);

        endpoint.tell(new Wire.Received(new Wire.Frame(0, new Wire.Probe(0, FrameMac.randomToken())), new byte[0]),
                ActorRef.noSender());
        assertThat(restarting.await(30, TimeUnit.SECONDS)).as("the endpoint restarts").isTrue();
        // while it restarts, worker 1 is downed and removed from the cluster
        coordinatorCluster.down(workerAddress);
        await("worker 1 removed from the cluster", () -> !isMember(coordinatorCluster, workerAddress));
        resume.countDown();

        await("worker 1 lost", () -> lost.contains(1));
        assertThat(roster.worker(1)).isNull();
    }

    private ActorSystem start(List<String> roles) {
        Config config = ConfigFactory.parseMap(Map.of(
                "pekko.actor.provider", "cluster",
                "pekko.remote.artery.transport", "tcp",
                "pekko.remote.artery.canonical.hostname", "127.0.0.1",
                "pekko.remote.artery.canonical.port", 0,
                "pekko.cluster.roles", roles,
                "pekko.cluster.jmx.enabled", "off",
                "pekko.cluster.log-info", "off",
                "pekko.loglevel", "ERROR",
                "pekko.stdout-loglevel", "ERROR",
                "pekko.log-dead-letters", "off"))
                .withFallback(ConfigFactory.load(RemovalDuringEndpointRestartTest.class.getClassLoader()));
        ActorSystem system = ActorSystem.create("endpoint-restart", config);
        systems.add(system);
        return system;
    }

    private static boolean isMember(Cluster cluster, Address a) {
        for (Member m : cluster.state().getMembers()) {
            if (m.address().equals(a)) {
                return true;
            }
        }
        return false;
    }

    /** Waits up to 30 s for {@code condition}; fails naming {@code what} if it does not hold by then. */
    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("waited 30 s for: " + what).isNegative();
            Thread.sleep(50);
        }
    }
}
