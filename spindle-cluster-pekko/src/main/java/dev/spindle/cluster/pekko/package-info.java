/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
/**
 * Spindle's task graphs across JVMs on an Apache Pekko cluster over mutually authenticated TLS:
 * {@link dev.spindle.cluster.pekko.WorkerMain} workers and a
 * {@link dev.spindle.cluster.pekko.PekkoCoordinator}; {@link dev.spindle.cluster.pekko.DevCertificates}
 * makes development certificates.
 */
package dev.spindle.cluster.pekko;
