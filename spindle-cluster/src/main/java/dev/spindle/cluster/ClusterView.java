/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.List;

/**
 * What a cluster shows of itself to monitoring (a metrics binder, the live console): its counters,
 * its steal log and its task log. {@link LocalCluster} and {@link ClusterCoordinator} give them from their
 * scheduler, and the coordinators of the transports (Hazelcast, Pekko) from theirs, so whatever
 * reads a cluster reads every kind one way.
 *
 * <p>Once the cluster is closed the three methods throw: the implementations here (a
 * {@code LocalCluster}, a {@code ClusterCoordinator} and the transports' coordinators) throw
 * {@link java.util.concurrent.RejectedExecutionException}, as their submissions do.
 */
public interface ClusterView {

    /**
     * A snapshot of the counters.
     *
     * @return a new snapshot, read without stopping the scheduler
     */
    ClusterStats stats();

    /**
     * The steal log, oldest first (the most recent 10,000 events).
     *
     * @return an immutable copy of the log, at most 10,000 events
     */
    List<StealEvent> stealEvents();

    /**
     * The task log, oldest first: the most recent 1,000 task runs the scheduler counted, which
     * worker ran each and when (see {@link TaskEvent}).
     *
     * @return an immutable copy of the log, at most 1,000 runs
     */
    List<TaskEvent> taskEvents();
}
