/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
/**
 * Spindle's task graphs across JVMs on Hazelcast 5: {@link dev.spindle.cluster.hazelcast.WorkerMain}
 * worker members and a {@link dev.spindle.cluster.hazelcast.HazelcastCoordinator}, on loopback by
 * default, members proved by challenge and response and every message signed under a shared
 * secret.
 *
 * <p>{@link dev.spindle.cluster.hazelcast.HazelcastClusterSettings} says where a member binds,
 * whom it joins, the cluster name, the shared secret and the packages whose classes may be
 * deserialised; {@link dev.spindle.cluster.hazelcast.HazelcastCoordinator} hosts the scheduler and
 * hands out its {@link dev.spindle.cluster.Client}, and
 * {@link dev.spindle.cluster.hazelcast.HazelcastWorker} runs one worker in a member (the command
 * line's {@code WorkerMain} starts one per JVM). Both count what they refused in
 * {@link dev.spindle.cluster.hazelcast.SecurityStats}; a worker that cannot take part learns why
 * from a {@link dev.spindle.cluster.hazelcast.MemberRefusedException}.
 */
package dev.spindle.cluster.hazelcast;
