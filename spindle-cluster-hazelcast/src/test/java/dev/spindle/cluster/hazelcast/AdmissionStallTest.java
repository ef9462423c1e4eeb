/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.hazelcast.core.HazelcastInstance;
import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.testkit.Cleanup;
import dev.spindle.cluster.testkit.FreePorts;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Members that join the Hazelcast cluster posing as workers and take the coordinator's challenge
 * but never answer it, as anyone who can reach a member port can: they must not keep an honest
 * worker out. Each handshake step waits up to 5 s for its answer, so a coordinator that challenged
 * members one at a time would need at least {@value #STALLING} × 5 s to reach a worker queued
 * behind them; the bounds below are well under that and far above what a handshake takes.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AdmissionStallTest {

    private static final String SECRET = "stall-test-secret-0123456789";
    private static final int STALLING = 6;
    /** Well below the {@value #STALLING} × 5 s that challenging the stalling members one by one takes. */
    private static final Duration BOUND = Duration.ofSeconds(STALLING * 5L - 10);

    private final Cleanup started = new Cleanup();
    /** Holds every stalling member's answer until the test ends. */
    private final CountDownLatch release = new CountDownLatch(1);
    /** When a stalling member was first challenged ({@link System#nanoTime()}), once it was. */
    private final AtomicLong firstChallenge = new AtomicLong();
    private final CountDownLatch challenged = new CountDownLatch(1);

    @AfterEach
    void stop() throws Exception {
        release.countDown();                  // lets the stalling members' executor threads end
        started.close();
    }

    @Test
    void aWorkerJoiningLateIsAdmittedWhileOtherMembersStallTheirHandshakes() throws Exception {
        int[] ports = FreePorts.free(3 + STALLING);
        String cluster = "spindle-stall-late-" + ports[0];
        started.add(HazelcastWorker.start(InProcessClusterTest.settings(cluster, SECRET, ports[1], ports).build(), 0, 1));
        HazelcastCoordinator coordinator = HazelcastCoordinator.start(
                InProcessClusterTest.settings(cluster, SECRET, ports[0], ports).build(),
                CoordinatorSettings.builder().workers(1).threadsPerWorker(1).build(), Duration.ofSeconds(60));
        started.add(coordinator);
        for (int i = 0; i < STALLING; i++) {
            stalling(cluster, ports[3 + i], ports);
        }
        // every stalling member is known (its join seen) before the honest worker joins
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (coordinator.instance().getCluster().getMembers().size() < 2 + STALLING && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(coordinator.instance().getCluster().getMembers()).hasSize(2 + STALLING);
        assertThat(challenged.await(30, TimeUnit.SECONDS)).as("a stalling member was challenged").isTrue();

        HazelcastWorker late = HazelcastWorker.start(
                InProcessClusterTest.settings(cluster, SECRET, ports[2], ports).build(), 1, 1);
        started.add(late);
        // counted from the first challenge of a stalling member: one by one, the honest worker's
        // turn could not come before every stalling member had held the coordinator for 5 s
        Duration left = BOUND.minusNanos(System.nanoTime() - firstChallenge.get());
        assertThatCode(() -> late.awaitCoordinator(left.isNegative() ? Duration.ZERO : left))
                .as("worker 1 admitted within %s of the first challenge while %d members stall", BOUND, STALLING)
                .doesNotThrowAnyException();
        assertThat(coordinator.isLost(1)).isFalse();
        assertThat(coordinator.instance().getCluster().getMembers()).hasSize(3 + STALLING);
    }

    @Test
    void aCoordinatorStartsWhileMembersThatJoinedBeforeItStall() throws Exception {
        int[] ports = FreePorts.free(2 + STALLING);
        String cluster = "spindle-stall-start-" + ports[0];
        for (int i = 0; i < STALLING; i++) {
            stalling(cluster, ports[2 + i], ports);
        }
        // joined after the stalling members, so listed after them: the start-up loop reaches it last
        started.add(HazelcastWorker.start(InProcessClusterTest.settings(cluster, SECRET, ports[1], ports).build(), 0, 1));

        long since = System.nanoTime();
        HazelcastCoordinator coordinator = HazelcastCoordinator.start(
                InProcessClusterTest.settings(cluster, SECRET, ports[0], ports).build(),
                CoordinatorSettings.builder().workers(1).threadsPerWorker(1).build(), Duration.ofSeconds(60));
        started.add(coordinator);
        Duration took = Duration.ofNanos(System.nanoTime() - since);
        assertThat(took).as("start with %d members stalling", STALLING).isLessThan(BOUND);
        assertThat(challenged.await(30, TimeUnit.SECONDS)).as("the stalling members were challenged").isTrue();
        assertThat(coordinator.client().submit("after-stall", in -> 3).get(60, TimeUnit.SECONDS)).isEqualTo(3);
    }

    /**
     * A plain member claiming to be a worker whose handshake call never returns (until the test
     * ends): it holds a thread of its own executor, and each challenge waits for the 5 s timeout.
     */
    private void stalling(String cluster, int port, int[] ports) {
        HazelcastInstance hz = Intruder.join(cluster, port, ports,
                Map.of(Roster.ROLE, Roster.WORKER_ROLE, Roster.WORKER, "1"), new Endpoint() {
                    @Override
                    public void onFrame(byte[] frame) {
                    }

                    @Override
                    public byte[] onFetch(byte[] frame) {
                        return null;
                    }

                    @Override
                    public byte[] onHandshake(byte[] message) {
                        if (firstChallenge.compareAndSet(0, System.nanoTime())) {
                            challenged.countDown();
                        }
                        try {
                            release.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        return null;
                    }
                });
        started.add(hz::shutdown);
    }
}
