/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.io.Serializable;
import java.util.List;

/**
 * The body of a cluster task: a function of the task's dependency values, in the order the
 * dependencies were declared. It is {@link Serializable} so that a lambda written against it can
 * later be shipped to a worker in another JVM.
 *
 * <pre>{@code
 * TaskFunction<Integer> add = args -> (Integer) args.get(0) + (Integer) args.get(1);
 * }</pre>
 *
 * @param <T> the result type; results must be {@link Serializable} or {@link Sized}
 */
@FunctionalInterface
public interface TaskFunction<T> extends Serializable {

    /**
     * Computes the result.
     *
     * @param args the values of the dependencies, in declaration order (unmodifiable)
     * @return the task's result, which may be {@code null}; it stays on the worker until a task or
     *     the client needs it
     * @throws Exception any failure; the task is retried up to the cluster's retry limit
     */
    T apply(List<Object> args) throws Exception;
}
