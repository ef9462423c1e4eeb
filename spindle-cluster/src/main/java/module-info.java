/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */

/** Spindle cluster: an in-process distributed task graph with locality-aware work stealing. */
module dev.spindle.cluster {
    requires dev.spindle.core;
    requires jdk.jfr;                 // flight recorder events

    exports dev.spindle.cluster;
}
