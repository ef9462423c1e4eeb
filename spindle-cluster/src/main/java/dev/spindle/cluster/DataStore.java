/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** A worker's values by key, with the sum of their measured sizes. Thread-safe. */
final class DataStore {

    private record Entry(Object value, long bytes) {
    }

    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    private final AtomicLong bytes = new AtomicLong();

    /** Stores a value; a second copy of the same key replaces the first and is counted once. */
    void put(String key, Object value, long size) {
        Entry old = entries.put(key, new Entry(value, size));
        bytes.addAndGet(size - (old == null ? 0 : old.bytes()));
    }

    boolean contains(String key) {
        return entries.containsKey(key);
    }

    /** The value; throws if absent, because callers check {@link #contains} or hold the key. */
    Object get(String key) {
        Entry e = entries.get(key);
        if (e == null) {
            throw new IllegalStateException("no value for key '" + key + "'");
        }
        return e.value();
    }

    /** The size of the value, or -1 if absent. */
    long size(String key) {
        Entry e = entries.get(key);
        return e == null ? -1 : e.bytes();
    }

    void remove(String key) {
        Entry old = entries.remove(key);
        if (old != null) {
            bytes.addAndGet(-old.bytes());
        }
    }

    long memoryBytes() {
        return bytes.get();
    }

    int keys() {
        return entries.size();
    }
}
