/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleService;
import dev.spindle.cluster.Incarnations;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The coordinator tells a process it cut off (or retired) so again and again, until its member
 * leaves or {@value CoordinatorTransport#RETIRED_RESEND_SECONDS} s have passed. Each such process
 * got a thread of its own for that: a worker that keeps rejoining (it holds the secret; each
 * time it is cut off, its late join given up, say, and proves its id again from a new member while
 * the old one stays in the cluster) had the coordinator start one more sleeping thread per cycle,
 * each living up to five minutes, without bound. Now one shared thread resends.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RejoiningWorkerResendThreadsTest {

    private static final byte[] SECRET = "resend-threads-secret-0123456789".getBytes(StandardCharsets.UTF_8);
    private static final int CYCLES = 12;

    private final FrameCodec codec = new FrameCodec(SECRET, List.of());
    private final Roster roster = new Roster(new Offences("coordinator"));
    private final Member me = HandshakeRegressionTest.member(UUID.randomUUID(), true);
    /** The worker's member in each cycle: each stays in the cluster. */
    private final List<Member> workers = java.util.stream.IntStream.range(0, CYCLES)
            .mapToObj(i -> HandshakeRegressionTest.member(UUID.randomUUID(), false)).toList();
    private final BlockingQueue<byte[]> delivered = new LinkedBlockingQueue<>();
    private CoordinatorTransport transport;

    @AfterEach
    void stop() {
        if (transport != null) {
            transport.close();
        }
    }

    private static int resendThreads() {
        int n = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            String name = t.getName();
            if (t.isAlive() && (name.startsWith("spindle-cut-off-") || name.startsWith("spindle-retired-")
                    || name.startsWith("spindle-resend"))) {
                n++;
            }
        }
        return n;
    }

    @Test
    void aWorkerCutOffAgainAndAgainCostsOneResendThread() throws Exception {
        Session session = new Session(Wire.COORDINATOR, Wire.COORDINATOR_INCARNATION, new Offences("session"));
        session.join(UUID.randomUUID());
        transport = new CoordinatorTransport(codec, roster, session, HazelcastClusterSettings.DEFAULT_MAX_FRAME_BYTES);
        transport.attach(running(FakeInstances.executor((name, args) -> {
            if (name.equals("submitToMember") && args.length == 3 && args[0] instanceof Deliver d
                    && args[1] == workers.get(CYCLES - 1)) {
                delivered.add(d.frame);
            }
        })), m -> { });
        int before = resendThreads();

        long last = 0;
        for (int i = 0; i < CYCLES; i++) {
            last = Incarnations.newIncarnation();
            assertThat(roster.prove(1, workers.get(i), last)).isIn(Incarnations.Proof.NEW, Incarnations.Proof.REJOINED);
            transport.admitting(1);
            transport.cutOff(1, workers.get(i), last);   // its late join given up, say; its member stays
        }

        // the latest process is told it is cut off
        boolean toldLatest = false;
        for (byte[] frame; !toldLatest && (frame = delivered.poll(20, TimeUnit.SECONDS)) != null; ) {
            Wire.Frame f = codec.open(frame);
            toldLatest = f.toIncarnation() == last && f.bodies().contains(new Wire.CutOff(1));
        }
        assertThat(toldLatest).as("the latest process is told it is cut off").isTrue();
        assertThat(resendThreads() - before).as("threads resending to the worker's members after " + CYCLES
                + " cycles").isLessThanOrEqualTo(1);
    }

    /** A running instance with {@code executor} whose cluster shows this member and the worker's members. */
    private HazelcastInstance running(com.hazelcast.core.IExecutorService executor) {
        LifecycleService lifecycle = (LifecycleService) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {LifecycleService.class}, (p, m, a) -> switch (m.getName()) {
                    case "isRunning" -> true;
                    case "hashCode" -> 0;
                    case "equals" -> p == a[0];
                    default -> null;
                });
        Set<Member> members = new java.util.HashSet<>(workers);
        members.add(me);
        com.hazelcast.cluster.Cluster cluster = FakeInstances.cluster(me, Set.copyOf(members));
        return (HazelcastInstance) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {HazelcastInstance.class}, (p, m, a) -> switch (m.getName()) {
                    case "getExecutorService" -> executor;
                    case "getCluster" -> cluster;
                    case "getLifecycleService" -> lifecycle;
                    case "hashCode" -> System.identityHashCode(p);
                    case "equals" -> p == a[0];
                    case "toString" -> "fake running instance";
                    default -> null;
                });
    }
}
