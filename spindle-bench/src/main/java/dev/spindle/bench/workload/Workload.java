/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.workload;

import dev.spindle.bench.runtime.BenchRuntime;
import dev.spindle.bench.runtime.RuntimeKind;

/**
 * One benchmark workload at a fixed size. A workload is a plain object: the quick harness, the
 * JMH benchmarks and the tests all call {@link #run(BenchRuntime)}.
 *
 * <p>Every run checks what it computed against the known answer and throws
 * {@link WrongResultException} if they differ, so a broken runtime cannot post a fast time.
 */
public interface Workload {

    /** The workload's name, as used on the command line ({@code fib}, {@code skynet}, ...). */
    String name();

    /** A one-line description including the size, for reports. */
    String describe();

    /** Whether the workload can run on {@code kind}. */
    boolean supports(RuntimeKind kind);

    /**
     * Runs the workload once on {@code rt}, from the calling thread (which must not be a
     * worker of {@code rt}), and returns the result after checking it.
     *
     * @throws WrongResultException if the result is wrong
     * @throws IllegalArgumentException if the workload does not support {@code rt}
     * @throws IllegalStateException if the run did not complete within a generous timeout
     */
    long run(BenchRuntime rt);
}
