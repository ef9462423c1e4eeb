/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import com.hazelcast.core.HazelcastInstance;
import dev.spindle.cluster.WorkerNode;
import java.util.Objects;

/**
 * A worker member: a Hazelcast member that runs one Spindle worker (a data store and a
 * work-stealing pool) for the coordinator of its cluster. {@link WorkerMain} runs one per JVM;
 * tests may start several in one JVM.
 */
public final class HazelcastWorker implements AutoCloseable {

    private final HazelcastInstance instance;
    private final WorkerNode node;
    private final WorkerTransport transport;
    private final FrameCodec codec;
    private final Roster roster;

    private HazelcastWorker(HazelcastInstance instance, WorkerNode node, WorkerTransport transport,
                            FrameCodec codec, Roster roster) {
        this.instance = instance;
        this.node = node;
        this.transport = transport;
        this.codec = codec;
        this.roster = roster;
    }

    /**
     * Starts worker {@code id} with {@code threads} threads and joins the cluster.
     *
     * @throws IllegalArgumentException if {@code id} is negative or {@code threads} below 1
     */
    public static HazelcastWorker start(HazelcastClusterSettings settings, int id, int threads) {
        Objects.requireNonNull(settings, "settings");
        FrameCodec codec = new FrameCodec(settings.secret(), settings.allowedPackages());
        Roster roster = new Roster(codec, settings.clusterName());
        WorkerTransport transport = new WorkerTransport(id, codec, roster);
        WorkerNode node = new WorkerNode(id, threads, transport);
        HazelcastInstance instance;
        try {
            instance = HazelcastConfigs.start(settings, codec, Roster.WORKER_ROLE, id, transport);
        } catch (RuntimeException e) {
            node.close();
            throw e;
        }
        instance.getCluster().addMembershipListener(roster);
        roster.admitAll(instance.getCluster());
        transport.attach(node, instance);
        return new HazelcastWorker(instance, node, transport, codec, roster);
    }

    /** The worker's id. */
    public int id() {
        return node.id();
    }

    /** Tasks this worker has run. */
    public long executed() {
        return node.executed();
    }

    /** Frames dropped because of a bad signature or a class outside the allow-list. */
    public long rejectedFrames() {
        return codec.rejected();
    }

    /** Members ignored because they did not prove the shared secret. */
    public long refusedMembers() {
        return roster.refused();
    }

    /** Whether the member is still in its cluster. */
    public boolean isRunning() {
        return instance.getLifecycleService().isRunning();
    }

    HazelcastInstance instanceForTests() {
        return instance;
    }

    /** Leaves the cluster and stops the worker. Idempotent. */
    @Override
    public void close() {
        node.close();
        transport.close();
        instance.shutdown();
    }
}
