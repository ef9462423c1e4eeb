/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */

/** Spindle cluster: an in-process distributed task graph with locality-aware work stealing. */
module dev.spindle.cluster {
    requires dev.spindle.core;
    requires jdk.jfr;                 // flight recorder events

    exports dev.spindle.cluster;
    // who else on the machine may change a trusted file: one check for the launchers and Pekko's stores
    exports dev.spindle.cluster.internal to dev.spindle.cluster.pekko;
}
