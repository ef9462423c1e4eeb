/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The eventual result of one keyed task. It completes with the task's value, or exceptionally
 * with the task's own exception once the retry limit is spent, or with an
 * {@link IllegalStateException} when the cluster closes first. Pass it as a dependency of later
 * tasks to build a graph without copying the value through the client.
 *
 * <pre>{@code
 * ClusterFuture<Integer> x = client.submit("inc-1", args -> 1 + 1);
 * ClusterFuture<Integer> y = client.submit("double-1", args -> 2 * (Integer) args.get(0), x);
 * int four = y.get();
 * }</pre>
 *
 * <p>A future belongs to the cluster whose client made it: passing it to another cluster's
 * client (as a dependency, in a graph, to {@code map} or {@code gather}) throws
 * {@link IllegalArgumentException} rather than binding to that cluster's task of the same key.
 *
 * <p>{@link #cancel} is not supported: a submitted task always runs (it returns {@code false}).
 *
 * @param <T> the result type
 */
public final class ClusterFuture<T> implements Future<T> {

    private final String key;
    private final CompletableFuture<T> result;
    /** The scheduler of the cluster that made this future; compared by identity only. */
    private final Object owner;

    ClusterFuture(String key, CompletableFuture<T> result, Object owner) {
        this.key = Objects.requireNonNull(key, "key");
        this.result = Objects.requireNonNull(result, "result");
        this.owner = Objects.requireNonNull(owner, "owner");
    }

    /**
     * Checks that this future was made by the cluster of {@code expected} (a key alone would
     * silently bind to another cluster's task of the same key).
     *
     * @param use what the future is being used for, for the message
     * @throws IllegalArgumentException naming the key if it belongs to another cluster
     */
    void requireOwner(Object expected, String use) {
        if (owner != expected) {
            throw new IllegalArgumentException("the future for key '" + key + "' belongs to another cluster's "
                    + "client and cannot be used " + use + " here (pass a future made by this client)");
        }
    }

    /** The task's key. */
    public String key() {
        return key;
    }

    /** A copy of the result as a {@link CompletableFuture}; completing the copy changes nothing here. */
    public CompletableFuture<T> toCompletableFuture() {
        return result.copy();
    }

    /** Always {@code false}: cluster tasks are not cancellable in this version. */
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        return false;
    }

    @Override
    public boolean isCancelled() {
        return false;
    }

    @Override
    public boolean isDone() {
        return result.isDone();
    }

    @Override
    public T get() throws InterruptedException, ExecutionException {
        return result.get();
    }

    @Override
    public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        return result.get(timeout, unit);
    }

    @Override
    public String toString() {
        return "ClusterFuture[" + key + (result.isDone() ? ", done]" : "]");
    }
}
