/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
/**
 * Distributed task graphs: keyed tasks placed on workers next to their data, with work stealing
 * between workers. {@link dev.spindle.cluster.LocalCluster} runs the workers in one JVM;
 * {@link dev.spindle.cluster.ClusterCoordinator} and the {@link dev.spindle.cluster.Transport}
 * SPI run them across JVMs. {@link dev.spindle.cluster.Client} submits work and
 * {@link dev.spindle.cluster.ClusterStats} reports on it.
 *
 * <p>A task is a {@link dev.spindle.cluster.TaskFunction} under a unique key, described by a
 * {@link dev.spindle.cluster.TaskSpec} (its dependencies, {@link dev.spindle.cluster.Restrictions},
 * priority and duration hint) or submitted as a whole {@link dev.spindle.cluster.Graph}; its
 * result comes back as a {@link dev.spindle.cluster.ClusterFuture}, and a value that tells its
 * own size implements {@link dev.spindle.cluster.Sized}. {@link dev.spindle.cluster.CoordinatorSettings}
 * holds the scheduler's knobs; {@link dev.spindle.cluster.ClusterView} is what a local cluster and
 * a coordinator both show: {@link dev.spindle.cluster.ClusterStats}, the
 * {@link dev.spindle.cluster.StealEvent} log and the {@link dev.spindle.cluster.TaskEvent} log.
 * A worker in another JVM is a {@link dev.spindle.cluster.WorkerNode}, with a
 * {@link dev.spindle.cluster.WorkerMemory} limit.
 *
 * <p>For transport implementers only, public so that the transport modules share one definition:
 * {@link dev.spindle.cluster.Message}, {@link dev.spindle.cluster.CoordinatorTransportSupport},
 * {@link dev.spindle.cluster.WorkerTransportSupport}, {@link dev.spindle.cluster.Incarnations},
 * {@link dev.spindle.cluster.Readiness}, {@link dev.spindle.cluster.SerialAllowList},
 * {@link dev.spindle.cluster.JavaSerial}, {@link dev.spindle.cluster.TransportSettings},
 * {@link dev.spindle.cluster.MemberSettingsBuilder} and
 * {@link dev.spindle.cluster.WorkerCommandLine}. Applications reach them through a transport.
 */
package dev.spindle.cluster;
