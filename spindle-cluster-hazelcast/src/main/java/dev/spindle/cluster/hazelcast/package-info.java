/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
/**
 * Spindle's task graphs across JVMs on Hazelcast 5: {@link dev.spindle.cluster.hazelcast.WorkerMain}
 * worker members and a {@link dev.spindle.cluster.hazelcast.HazelcastCoordinator}, on loopback by
 * default, members proved by challenge and response and every message signed under a shared
 * secret.
 */
package dev.spindle.cluster.hazelcast;
