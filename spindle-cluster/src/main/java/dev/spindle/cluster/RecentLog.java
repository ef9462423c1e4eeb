/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.ArrayDeque;
import java.util.List;

/**
 * The most recent entries of a log, at most a fixed number: adding beyond it drops the oldest.
 * Not thread-safe: the scheduler thread alone adds and copies (its callers go through
 * {@code GraphScheduler.call}), so a copy is consistent.
 */
final class RecentLog<E> {

    private final int capacity;
    private final ArrayDeque<E> entries = new ArrayDeque<>();

    RecentLog(int capacity) {
        this.capacity = capacity;
    }

    void add(E e) {
        if (entries.size() == capacity) {
            entries.removeFirst();
        }
        entries.addLast(e);
    }

    /** The entries, oldest first. */
    List<E> copy() {
        return List.copyOf(entries);
    }
}
