/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import java.util.Arrays;

/**
 * The hot queue of a {@link AsyncPolicy#HYBRID} worker: a binary max-heap of woken tasks, most
 * woken first, and among equal wake counts the one that entered first. Only the owning worker
 * touches it, so it needs no synchronisation. The key is the number of wake-ups that found the
 * task waiting when it entered ({@link TaskCell#waitWakes()}): the wake count less its yields,
 * which no one made it wait for; the tie-break is a per-queue sequence number, which makes the
 * order among equals FIFO (a heap alone is not stable). Keys and sequence numbers are kept in
 * arrays parallel to the heap's, not in the cells: every spawned task would otherwise carry
 * 16 bytes that only this policy's queue uses.
 */
final class HotQueue {

    private TaskCell<?>[] heap = new TaskCell<?>[64];
    private long[] keys = new long[64];
    private long[] seqs = new long[64];
    private int size;
    private long nextSeq;

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    void add(TaskCell<?> c) {
        long key = c.waitWakes();
        long seq = nextSeq++;
        if (size == heap.length) {
            heap = Arrays.copyOf(heap, size * 2);
            keys = Arrays.copyOf(keys, size * 2);
            seqs = Arrays.copyOf(seqs, size * 2);
        }
        int i = size++;
        while (i > 0) {                        // sift up
            int p = (i - 1) >>> 1;
            if (!before(key, seq, keys[p], seqs[p])) {
                break;
            }
            move(p, i);
            i = p;
        }
        put(i, c, key, seq);
    }

    TaskCell<?> poll() {
        if (size == 0) {
            return null;
        }
        TaskCell<?> top = heap[0];
        int n = --size;
        TaskCell<?> last = heap[n];
        long lastKey = keys[n];
        long lastSeq = seqs[n];
        heap[n] = null;
        if (n > 0) {
            int i = 0;
            for (;;) {                         // sift down
                int l = 2 * i + 1;
                if (l >= n) {
                    break;
                }
                int r = l + 1;
                int m = r < n && before(keys[r], seqs[r], keys[l], seqs[l]) ? r : l;
                if (!before(keys[m], seqs[m], lastKey, lastSeq)) {
                    break;
                }
                move(m, i);
                i = m;
            }
            put(i, last, lastKey, lastSeq);
        }
        return top;
    }

    private void move(int from, int to) {
        heap[to] = heap[from];
        keys[to] = keys[from];
        seqs[to] = seqs[from];
    }

    private void put(int i, TaskCell<?> c, long key, long seq) {
        heap[i] = c;
        keys[i] = key;
        seqs[i] = seq;
    }

    /** Whether the entry (key a, seq sa) runs before (b, sb): more wakes first, then earlier entry. */
    private static boolean before(long a, long sa, long b, long sb) {
        return a != b ? a > b : sa < sb;
    }
}
