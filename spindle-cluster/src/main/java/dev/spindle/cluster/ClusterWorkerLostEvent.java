/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** The scheduler declared a cluster worker lost (killed, left, or unreachable); on its thread. */
@Name("dev.spindle.ClusterWorkerLost")
@Label("Cluster Worker Lost")
@Category({"Spindle", "Cluster"})
@Description("A cluster worker was lost: its running tasks go elsewhere, results only it held are recomputed")
@StackTrace(false)
final class ClusterWorkerLostEvent extends Event {

    private static final ClusterWorkerLostEvent TYPE = new ClusterWorkerLostEvent();

    @Label("Worker")
    private int worker;

    @Label("Tasks Reassigned")
    @Description("Tasks that were assigned to the worker and wait for another")
    private int tasksReassigned;

    @Label("Results Held")
    @Description("Results the worker held (lost where no other worker holds a copy)")
    private int resultsHeld;

    static boolean enabled() {
        return TYPE.isEnabled();
    }

    /** Records the loss; call only when {@link #enabled()}. */
    static void emit(int worker, int tasksReassigned, int resultsHeld) {
        ClusterWorkerLostEvent e = new ClusterWorkerLostEvent();
        e.worker = worker;
        e.tasksReassigned = tasksReassigned;
        e.resultsHeld = resultsHeld;
        e.commit();
    }
}
