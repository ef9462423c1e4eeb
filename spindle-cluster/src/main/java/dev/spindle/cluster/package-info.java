/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
/**
 * Distributed task graphs: keyed tasks placed on workers next to their data, with work stealing
 * between workers. {@link dev.spindle.cluster.LocalCluster} runs the workers in one JVM;
 * {@link dev.spindle.cluster.ClusterCoordinator} and the {@link dev.spindle.cluster.Transport}
 * SPI run them across JVMs. {@link dev.spindle.cluster.Client} submits work and
 * {@link dev.spindle.cluster.ClusterStats} reports on it.
 */
package dev.spindle.cluster;
