/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.testkit;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Latches and a count for one run of a test whose task functions are serialised to a worker in
 * the same JVM: a function cannot capture a latch (it is not serialisable, and a copy would not be
 * the test's), so it captures the run's {@link #id()} and finds the run with {@link #of}. Open one
 * per run ({@code @BeforeEach}) and close it after ({@code @AfterEach}): a second run in the JVM (a
 * rerun of a failed test, a repeated test) starts with latches no earlier run counted down, which
 * static latches did not give it. A function of a closed run that runs late fails
 * ({@link IllegalStateException}) and touches nothing of a later run.
 *
 * <pre>{@code
 * String id = run.id();
 * client.submit("slow", args -> {
 *     RunGate r = RunGate.of(id);
 *     r.started().countDown();
 *     return r.gate().await(60, TimeUnit.SECONDS);
 * });
 * }</pre>
 */
public final class RunGate implements AutoCloseable {

    private static final ConcurrentHashMap<String, RunGate> OPEN = new ConcurrentHashMap<>();
    private static final AtomicLong IDS = new AtomicLong();

    private final String id;
    private final CountDownLatch started = new CountDownLatch(1);
    private final CountDownLatch gate = new CountDownLatch(1);
    private final AtomicInteger count = new AtomicInteger();

    private RunGate(String id) {
        this.id = id;
    }

    /**
     * Opens a new run.
     *
     * @return the run, found by its id until it is closed
     */
    public static RunGate open() {
        RunGate run = new RunGate("run-" + IDS.incrementAndGet());
        OPEN.put(run.id, run);
        return run;
    }

    /**
     * The open run of {@code id}, for a task function that captured the id.
     *
     * @param id the run's id
     * @return the run
     * @throws IllegalStateException if the run was closed (the function outlived its test run)
     */
    public static RunGate of(String id) {
        RunGate run = OPEN.get(Objects.requireNonNull(id, "id"));
        if (run == null) {
            throw new IllegalStateException("test run " + id + " is closed: a task of an earlier run ran late");
        }
        return run;
    }

    /** The id a task function captures to find this run. */
    public String id() {
        return id;
    }

    /** Counted down by a task once it runs (one count). */
    public CountDownLatch started() {
        return started;
    }

    /** Awaited by a task to hold its worker's thread, until the test counts it down (one count). */
    public CountDownLatch gate() {
        return gate;
    }

    /** A count the run's tasks keep, such as how often a task ran. */
    public AtomicInteger count() {
        return count;
    }

    /** Opens the gate (a task still held by it ends) and forgets the run. */
    @Override
    public void close() {
        gate.countDown();
        OPEN.remove(id, this);
    }
}
