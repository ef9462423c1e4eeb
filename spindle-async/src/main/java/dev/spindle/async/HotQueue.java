/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import java.util.Arrays;

/**
 * The hot queue of a {@link AsyncPolicy#HYBRID} worker: a binary max-heap of woken tasks, most
 * woken first, and among equal wake counts the one that entered first. Only the owning worker
 * touches it, so it needs no synchronisation. The key is the number of wake-ups that found the
 * task waiting when it entered ({@link TaskCell#waitWakes()}, kept in {@link TaskCell#hotKey}):
 * the wake count less its yields, which no one made it wait for; the tie-break is a per-queue
 * sequence number ({@link TaskCell#hotSeq}), which makes the order among equals FIFO (a heap
 * alone is not stable).
 */
final class HotQueue {

    private TaskCell<?>[] heap = new TaskCell<?>[64];
    private int size;
    private long nextSeq;

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    void add(TaskCell<?> c) {
        c.hotKey = c.waitWakes();
        c.hotSeq = nextSeq++;
        if (size == heap.length) {
            heap = Arrays.copyOf(heap, size * 2);
        }
        int i = size++;
        while (i > 0) {                        // sift up
            int p = (i - 1) >>> 1;
            if (!before(c, heap[p])) {
                break;
            }
            heap[i] = heap[p];
            i = p;
        }
        heap[i] = c;
    }

    TaskCell<?> poll() {
        if (size == 0) {
            return null;
        }
        TaskCell<?> top = heap[0];
        TaskCell<?> last = heap[--size];
        heap[size] = null;
        if (size > 0) {
            int i = 0;
            for (;;) {                         // sift down
                int l = 2 * i + 1;
                if (l >= size) {
                    break;
                }
                int r = l + 1;
                int m = r < size && before(heap[r], heap[l]) ? r : l;
                if (!before(heap[m], last)) {
                    break;
                }
                heap[i] = heap[m];
                i = m;
            }
            heap[i] = last;
        }
        return top;
    }

    /** Whether {@code a} runs before {@code b}: more wakes first, then earlier entry. */
    private static boolean before(TaskCell<?> a, TaskCell<?> b) {
        return a.hotKey != b.hotKey ? a.hotKey > b.hotKey : a.hotSeq < b.hotSeq;
    }
}
