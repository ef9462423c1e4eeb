/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.examples;

import dev.spindle.actor.ActorSystem;
import dev.spindle.async.AsyncRuntime;
import dev.spindle.cluster.LocalCluster;
import dev.spindle.pool.WorkStealingPool;
import dev.spindle.micrometer.*;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import dev.spindle.console.Console;

/**
 * README.md, "Metrics and the live console": binding the meters, and registering with the
 * console, as a method each over the objects the README's earlier sections create.
 */
final class MetricsExample {
    private MetricsExample() {
    }

    static MeterRegistry bind(WorkStealingPool pool, AsyncRuntime runtime, ActorSystem system, LocalCluster cluster) {
        MeterRegistry registry = new SimpleMeterRegistry();       // or your application's registry
        SchedulerMetrics.of(pool).bindTo(registry);               // spindle.pool.*, tagged pool=<its name>
        SchedulerMetrics.of(runtime).bindTo(registry);            // spindle.async.*, tagged runtime=<its name>
        new ActorSystemMetrics(system).bindTo(registry);          // spindle.actor.*, tagged system=<its name>
        new ClusterMetrics(cluster, "graph").bindTo(registry);    // spindle.cluster.*, tagged cluster=graph (any ClusterView)
        return registry;
    }

    /** What the application does while the console runs; the test leaves it empty. */
    static Runnable application = () -> { };

    private static void runTheApplication() {
        application.run();
    }

    static void console(WorkStealingPool pool, AsyncRuntime runtime, ActorSystem system) {
        try (Console console = Console.start()) {                 // 127.0.0.1, a free port
            console.register("fib", pool::stats)                  // any pool
                    .register("io", runtime)                      // an AsyncRuntime, with its busiest tasks
                    .register("actors", system);                  // also a LocalCluster or coordinator
            System.out.println("console at " + console.uri());
            runTheApplication();
        }
    }
}
