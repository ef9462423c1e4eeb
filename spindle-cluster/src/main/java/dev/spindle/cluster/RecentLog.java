/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The most recent entries of a log, at most a fixed number: adding beyond it drops the oldest.
 * Not thread-safe: the scheduler thread alone adds and copies (its callers go through
 * {@code GraphScheduler.call}), so a copy is consistent.
 *
 * <p>A ring allocated whole up front, so that an add allocates nothing: an {@code ArrayDeque}
 * stores an element before it grows, and a grow that ran out of memory (the scheduler survives
 * it) left it looking empty, every entry logged before gone from the stats and overwritten by
 * the next adds.
 */
final class RecentLog<E> {

    private final Object[] ring;
    /** Where the next entry goes. */
    private int next;
    private int size;

    RecentLog(int capacity) {
        this.ring = new Object[capacity];
    }

    void add(E e) {
        ring[next] = Objects.requireNonNull(e, "e");
        next = next + 1 == ring.length ? 0 : next + 1;
        if (size < ring.length) {
            size++;
        }
    }

    /** Drops every entry. */
    void clear() {
        Arrays.fill(ring, null);
        next = 0;
        size = 0;
    }

    /** The entries, oldest first. */
    @SuppressWarnings("unchecked")
    List<E> copy() {
        Object[] out = new Object[size];
        int oldest = next - size < 0 ? next - size + ring.length : next - size;
        int firstPart = Math.min(size, ring.length - oldest);
        System.arraycopy(ring, oldest, out, 0, firstPart);
        System.arraycopy(ring, 0, out, firstPart, size - firstPart);
        return (List<E>) List.of(out);
    }

    /** How many entries it holds; for tests. */
    int size() {
        return size;
    }
}
