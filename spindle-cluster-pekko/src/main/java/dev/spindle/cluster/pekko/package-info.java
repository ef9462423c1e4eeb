/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
/**
 * Spindle's task graphs across JVMs on an Apache Pekko cluster over mutually authenticated TLS:
 * {@link dev.spindle.cluster.pekko.WorkerMain} workers and a
 * {@link dev.spindle.cluster.pekko.PekkoCoordinator}; {@link dev.spindle.cluster.pekko.DevCertificates}
 * makes development certificates.
 *
 * <p>{@link dev.spindle.cluster.pekko.PekkoClusterSettings} says where a member binds, which seed
 * nodes it joins through, the cluster name, the key store with its certificate, the trust store
 * holding the cluster's CA, and the packages whose classes may be deserialised;
 * {@link dev.spindle.cluster.pekko.PekkoCoordinator} hosts the scheduler and hands out its
 * {@link dev.spindle.cluster.Client}, and {@link dev.spindle.cluster.pekko.PekkoWorker} runs one
 * worker in a member. A member without a certificate of the cluster's CA cannot join, and a
 * member that names another as the sender of its frames cannot seal them with the key the two
 * settled ({@code KeyExchange}); both sides count the members they
 * refused and the frames they dropped.
 */
package dev.spindle.cluster.pekko;
