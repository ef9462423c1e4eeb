/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.workload;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Workloads by name, each built at a {@link Size}, in the order they were added (the reports'
 * order). The one place that looks a name up, so that {@link Workloads} and the actor workloads
 * refuse an unknown one alike, naming the valid ones.
 *
 * @param <W> what the registry builds
 */
public final class WorkloadRegistry<W> {

    private final String what;
    private final Map<String, Function<Size, ? extends W>> byName = new LinkedHashMap<>();

    /**
     * An empty registry.
     *
     * @param what what an unknown name is said not to be ({@code workload}, {@code actor workload})
     */
    public WorkloadRegistry(String what) {
        this.what = what;
    }

    /**
     * Adds the workload {@code name}, built by {@code factory} at the size asked for.
     *
     * @return this registry
     */
    public WorkloadRegistry<W> add(String name, Function<Size, ? extends W> factory) {
        byName.put(name, factory);
        return this;
    }

    /** The names, in the order they were added. */
    public List<String> names() {
        return List.copyOf(byName.keySet());
    }

    /**
     * Builds the workload called {@code name} at {@code size}.
     *
     * @throws IllegalArgumentException naming the valid workloads if there is none by that name
     */
    public W create(String name, Size size) {
        Function<Size, ? extends W> f = byName.get(name);
        if (f == null) {
            throw new IllegalArgumentException("unknown " + what + " '" + name + "'; valid: " + String.join(", ", names()));
        }
        return f.apply(size);
    }
}
