/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.io.NotSerializableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Submits tasks to a cluster and collects their results. Thread-safe.
 *
 * <pre>{@code
 * Client client = cluster.client();
 * List<ClusterFuture<Integer>> parts = client.scatter("part", List.of(1, 2, 3));
 * List<ClusterFuture<Integer>> squares = client.map("square", args -> (Integer) args.get(0) * (Integer) args.get(0), parts);
 * List<Integer> values = client.gather(squares);   // [1, 4, 9]
 * }</pre>
 *
 * <p>Keys are unique per cluster; a second submission of a key throws
 * {@link IllegalArgumentException}. One exception: a task that submits tasks to its own cluster
 * from inside its function (a task of another cluster in the JVM is, to this one, as any other
 * caller) and is retried (its attempt failed, or its worker was lost) may submit the keys of its
 * earlier attempts again, since a retry runs the same function; each such submission replaces the
 * earlier one, whose run is abandoned and whose result is released, and a future of the earlier
 * one still pending completes as the new one does. Not while a task still pending depends on the
 * earlier one: that submission throws. After the cluster closes every method that submits or places
 * work throws {@link java.util.concurrent.RejectedExecutionException}; {@link #gather} still
 * returns the values of futures completed before the close (as {@link ClusterFuture#get()} does),
 * and throws {@link ExecutionException} for one the close completed, since its task never finished.
 */
public final class Client {

    private final GraphScheduler scheduler;

    Client(GraphScheduler scheduler) {
        this.scheduler = scheduler;
    }

    /**
     * Submits a task whose arguments are the values of {@code dependencies}, in order.
     *
     * @param <T> the task's result type
     * @param key the task's key, unique in the cluster
     * @param function computes the result from the dependencies' values; it runs on a worker, so
     *     for a transport between JVMs it must be serialisable
     * @param dependencies futures of this client whose values are the task's arguments
     * @return the future of the task's result
     * @throws IllegalArgumentException if the key is empty or was submitted before, a dependency
     *         is unknown, or a dependency future belongs to another cluster's client
     * @throws NullPointerException if {@code key}, {@code function} or a dependency is null
     * @throws java.util.concurrent.RejectedExecutionException if the cluster is closed
     */
    public <T> ClusterFuture<T> submit(String key, TaskFunction<T> function, ClusterFuture<?>... dependencies) {
        return submit(TaskSpec.builder(key, function).dependsOn(dependencies).build());
    }

    /**
     * Submits one task.
     *
     * @param <T> the task's result type
     * @param spec the task: key, function, dependencies, restrictions, priority and hints
     * @return the future of the task's result
     * @throws IllegalArgumentException if the key was submitted before or a dependency is unknown
     * @throws NullPointerException if {@code spec} is null
     * @throws java.util.concurrent.RejectedExecutionException if the cluster is closed
     */
    public <T> ClusterFuture<T> submit(TaskSpec<T> spec) {
        Objects.requireNonNull(spec, "spec");
        return future(spec.key(), scheduler.submit(List.of(spec)).get(0));
    }

    /**
     * Submits a whole graph; returns the futures by key, in dependency order.
     *
     * @param graph the tasks to submit together
     * @return a new map from each task's key to its future, iterating in dependency order
     * @throws IllegalArgumentException if a key was submitted before or a dependency is unknown
     * @throws NullPointerException if {@code graph} is null
     * @throws java.util.concurrent.RejectedExecutionException if the cluster is closed
     */
    public Map<String, ClusterFuture<?>> submit(Graph graph) {
        Objects.requireNonNull(graph, "graph");
        List<TaskSpec<?>> specs = graph.tasks();
        List<CompletableFuture<Object>> fs = scheduler.submit(specs);
        Map<String, ClusterFuture<?>> out = new LinkedHashMap<>();
        for (int i = 0; i < specs.size(); i++) {
            out.put(specs.get(i).key(), future(specs.get(i).key(), fs.get(i)));
        }
        return out;
    }

    /**
     * Applies {@code function} to each input: task {@code prefix-i} depends on {@code inputs[i]}.
     *
     * @param <T> the result type of the tasks
     * @param prefix the tasks' key prefix: task {@code i} is keyed {@code prefix-i}
     * @param function applied to each input, the input's value being its only argument
     * @param inputs futures of this client, one task per input
     * @return the futures of the tasks, in the order of {@code inputs}
     * @throws IllegalArgumentException if a key {@code prefix-i} was submitted before, or an input
     *     belongs to another cluster's client
     * @throws NullPointerException if an argument or an input is null
     * @throws java.util.concurrent.RejectedExecutionException if the cluster is closed
     */
    public <T> List<ClusterFuture<T>> map(String prefix, TaskFunction<T> function,
                                          List<? extends ClusterFuture<?>> inputs) {
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(function, "function");
        Objects.requireNonNull(inputs, "inputs");
        List<TaskSpec<?>> specs = new ArrayList<>(inputs.size());
        for (int i = 0; i < inputs.size(); i++) {
            specs.add(TaskSpec.builder(prefix + "-" + i, function).dependsOn(inputs.get(i)).build());
        }
        List<CompletableFuture<Object>> fs = scheduler.submit(specs);
        List<ClusterFuture<T>> out = new ArrayList<>(fs.size());
        for (int i = 0; i < fs.size(); i++) {
            out.add(future(specs.get(i).key(), fs.get(i)));
        }
        return out;
    }

    /**
     * Places {@code value} on worker {@code worker} under {@code key}. If that worker is lost the
     * value is placed again elsewhere from the client's copy.
     *
     * @param <T> the value's type
     * @param key the key the value is held under, unique in the cluster
     * @param value the value, kept by the client as well so that it can be placed again
     * @param worker the id of the worker to hold it, from 0 to the number of worker ids minus one
     * @return a future completed with {@code value} once the worker holds it
     * @throws IllegalArgumentException if the key is empty or was submitted before, the value is
     *         neither serialisable nor {@link Sized}, or there is no such worker
     * @throws NullPointerException if {@code key} is null
     * @throws java.util.concurrent.RejectedExecutionException if the cluster is closed
     */
    public <T> ClusterFuture<T> scatter(String key, T value, int worker) {
        Objects.requireNonNull(key, "key");
        // closed first: the worker and the value were checked before the call that refused them, so
        // a closed cluster answered a bad worker or a value that cannot travel with the wrong exception
        scheduler.rejectIfClosed();
        int workers = scheduler.workerCount();
        if (worker < 0 || worker >= workers) {
            throw new IllegalArgumentException("no worker " + worker + " (workers 0.." + (workers - 1) + ")");
        }
        try {
            Sizes.measure(value);
        } catch (NotSerializableException e) {
            throw new IllegalArgumentException("cannot scatter '" + key + "': " + e.getMessage(), e);
        }
        TaskSpec<T> spec = TaskSpec.builder(key, (TaskFunction<T>) args -> value)
                .restrictions(Restrictions.loose(Set.of(worker)))
                .durationHint(Duration.ZERO)
                .build();
        return submit(spec);
    }

    /**
     * Places {@code values} round-robin on the workers known now under keys {@code prefix-i}; a
     * value whose worker is gone or retiring is placed on another.
     *
     * @param <T> the values' type
     * @param prefix the key prefix: value {@code i} is held under {@code prefix-i}
     * @param values the values, each serialisable or {@link Sized}
     * @return the futures, in the order of {@code values}
     * @throws IllegalArgumentException if a key was submitted before or a value is neither
     *     serialisable nor {@link Sized}; the values before it are placed already
     * @throws NullPointerException if {@code prefix} or {@code values} is null
     * @throws java.util.concurrent.RejectedExecutionException if the cluster is closed
     */
    public <T> List<ClusterFuture<T>> scatter(String prefix, List<T> values) {
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(values, "values");
        scheduler.rejectIfClosed();           // an empty list too: nothing is placed on a closed cluster
        List<ClusterFuture<T>> out = new ArrayList<>(values.size());
        for (int i = 0; i < values.size(); i++) {
            out.add(scatter(prefix + "-" + i, values.get(i), i % scheduler.workerCount()));
        }
        return out;
    }

    /**
     * Waits for all the futures and returns their values in order. It works after the cluster
     * closed too: a future completed before the close keeps its value.
     *
     * <p>It reads the futures one after another, in list order, as {@link ClusterFuture#get()}
     * would: the first future in the list that did not succeed decides what it throws (a later one
     * that failed first does not), once the futures before it are done, and the futures after it
     * are neither waited for nor changed.
     *
     * @param <T> the values' type
     * @param futures futures of this client
     * @return a new list of the values, in the order of {@code futures}
     * @throws ExecutionException with the first failing task's exception (in list order) as the
     *         cause; for a task the cluster's close ended first, an {@link IllegalStateException}
     *         naming it
     * @throws java.util.concurrent.CancellationException if the first future that did not
     *         succeed was cancelled ({@link ClusterFuture#cancel}), as its {@code get} throws
     * @throws IllegalStateException if a future was released (its value is gone)
     * @throws IllegalArgumentException if a future belongs to another cluster's client
     * @throws InterruptedException if the calling thread is interrupted while it waits
     * @throws NullPointerException if {@code futures} or one of them is null
     */
    public <T> List<T> gather(List<ClusterFuture<T>> futures) throws InterruptedException, ExecutionException {
        Objects.requireNonNull(futures, "futures");
        for (ClusterFuture<T> f : futures) {
            Objects.requireNonNull(f, "future").requireOwner(scheduler, "in gather");
        }
        List<T> out = new ArrayList<>(futures.size());
        for (ClusterFuture<T> f : futures) {
            out.add(f.get());
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private <T> ClusterFuture<T> future(String key, CompletableFuture<Object> f) {
        return new ClusterFuture<>(key, (CompletableFuture<T>) (CompletableFuture<?>) f, scheduler);
    }
}
