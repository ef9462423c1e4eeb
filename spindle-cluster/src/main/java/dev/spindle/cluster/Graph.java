/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A whole graph of keyed tasks, submitted in one call with {@link Client#submit(Graph)}.
 * Dependencies may name tasks of the graph (in any order) or keys already known to the cluster.
 *
 * <pre>{@code
 * Graph graph = Graph.builder()
 *         .task("sum-0", args -> (Integer) args.get(0) + (Integer) args.get(1), "one-0", "two-0")
 *         .task("one-0", args -> 1)
 *         .task("two-0", args -> 2)
 *         .build();
 * Map<String, ClusterFuture<?>> futures = client.submit(graph);
 * }</pre>
 */
public final class Graph {

    private final List<TaskSpec<?>> ordered;

    private Graph(List<TaskSpec<?>> ordered) {
        this.ordered = ordered;
    }

    /**
     * Starts an empty graph.
     *
     * @return a new, empty builder; builders are not thread-safe
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The tasks, each after the graph's tasks it depends on.
     *
     * @return an immutable list of the tasks in dependency order
     */
    public List<TaskSpec<?>> tasks() {
        return ordered;
    }

    /** Builds a {@link Graph}. */
    public static final class Builder {
        private final Map<String, TaskSpec<?>> specs = new LinkedHashMap<>();

        private Builder() {
        }

        /**
         * Adds a task with the given dependency keys.
         *
         * @param <T> the task's result type
         * @param key the task's key, unique in the graph and in the cluster it is submitted to
         * @param function computes the result from the dependencies' values
         * @param dependencies the keys of the tasks whose values are the arguments, in order: tasks
         *     of this graph or keys the cluster knows already
         * @return this builder
         * @throws IllegalArgumentException if the key is already in the graph
         */
        public <T> Builder task(String key, TaskFunction<T> function, String... dependencies) {
            return task(TaskSpec.builder(key, function).dependsOn(dependencies).build());
        }

        /**
         * Adds a task.
         *
         * @param spec the task
         * @return this builder
         * @throws IllegalArgumentException if the key is already in the graph
         * @throws NullPointerException if {@code spec} is null
         */
        public Builder task(TaskSpec<?> spec) {
            Objects.requireNonNull(spec, "spec");
            if (specs.putIfAbsent(spec.key(), spec) != null) {
                throw new IllegalArgumentException("the graph already has a task '" + spec.key() + "'");
            }
            return this;
        }

        /**
         * Orders the tasks so that each follows its dependencies.
         *
         * @return the graph
         * @throws IllegalArgumentException if the graph has a cycle, naming a task on it
         */
        public Graph build() {
            List<TaskSpec<?>> out = new ArrayList<>(specs.size());
            Map<String, Integer> mark = new HashMap<>();   // 1 = on the path, 2 = emitted
            for (TaskSpec<?> s : specs.values()) {
                visit(s, mark, out);
            }
            return new Graph(List.copyOf(out));
        }

        private void visit(TaskSpec<?> root, Map<String, Integer> mark, List<TaskSpec<?>> out) {
            // iterative depth-first search, so deep chains cannot overflow the stack
            List<TaskSpec<?>> stack = new ArrayList<>();
            List<Integer> next = new ArrayList<>();
            if (mark.containsKey(root.key())) {
                return;
            }
            stack.add(root);
            next.add(0);
            mark.put(root.key(), 1);
            while (!stack.isEmpty()) {
                int top = stack.size() - 1;
                TaskSpec<?> s = stack.get(top);
                int i = next.get(top);
                if (i == s.dependencies().size()) {
                    stack.remove(top);
                    next.remove(top);
                    mark.put(s.key(), 2);
                    out.add(s);
                    continue;
                }
                next.set(top, i + 1);
                TaskSpec<?> dep = specs.get(s.dependencies().get(i));
                if (dep == null) {
                    continue;                 // a key outside the graph; checked on submit
                }
                Integer m = mark.get(dep.key());
                if (m == null) {
                    mark.put(dep.key(), 1);
                    stack.add(dep);
                    next.add(0);
                } else if (m == 1) {
                    throw new IllegalArgumentException("the graph has a cycle through task '" + dep.key() + "'");
                }
            }
        }
    }
}
