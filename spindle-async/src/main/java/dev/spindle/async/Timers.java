/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The timer behind {@link Async#sleep} and {@link Async#timeout}.
 *
 * <p><b>Overview.</b> One daemon thread ({@code spindle-async-timer}), started lazily by the
 * first {@link #schedule}, shared by every runtime in the JVM. Deadlines ({@link System#nanoTime}
 * values) live in a binary min-heap ordered by (deadline, sequence number), so entries fire in
 * deadline order and FIFO among equal deadlines. Each entry knows its heap index, so
 * {@link Entry#cancel()} removes it in O(log n) instead of leaving garbage behind (a server that
 * puts a 30 s timeout on every request and mostly finishes early cancels almost all of them).
 *
 * <p>The thread waits on a condition with the time to the earliest deadline; a schedule that
 * becomes the new earliest deadline signals it. There is no polling and no busy waiting: an empty
 * heap means an untimed wait. Expired entries are taken out under the lock and their wakers fired
 * after it is released, so a waker that schedules another timer cannot deadlock.
 */
final class Timers {

    private static final ReentrantLock LOCK = new ReentrantLock();
    private static final Condition CHANGED = LOCK.newCondition();
    private static Entry[] heap = new Entry[64];
    private static int size;
    private static long nextSeq;
    private static Thread thread;

    private Timers() {}

    /** A scheduled wake-up. */
    static final class Entry {
        final long deadline;
        final long seq;
        private volatile Waker waker;
        private volatile boolean fired;
        int index = -1; // heap slot; -1 when not in the heap. Guarded by LOCK.

        Entry(long deadline, long seq, Waker waker) {
            this.deadline = deadline;
            this.seq = seq;
            this.waker = waker;
        }

        /** Whether the deadline passed and the waker was (or is being) fired. */
        boolean fired() {
            return fired;
        }

        /** Replaces the waker to fire (a task may be polled with a new waker). */
        void setWaker(Waker w) {
            this.waker = w;
        }

        /** Removes the entry if it has not fired yet; idempotent. */
        void cancel() {
            LOCK.lock();
            try {
                if (index >= 0) {
                    removeAt(index);
                }
            } finally {
                LOCK.unlock();
            }
            waker = null;
        }

        boolean before(Entry o) {
            return deadline != o.deadline ? deadline - o.deadline < 0 : seq < o.seq;
        }
    }

    /**
     * Schedules {@code waker} to be woken once {@link System#nanoTime()} reaches
     * {@code deadlineNanos}.
     */
    static Entry schedule(long deadlineNanos, Waker waker) {
        LOCK.lock();
        try {
            Entry e = new Entry(deadlineNanos, nextSeq++, waker);
            if (size == heap.length) {
                heap = Arrays.copyOf(heap, size * 2);
            }
            heap[size] = e;
            e.index = size;
            size++;
            siftUp(e.index);
            if (thread == null) {
                thread = new Thread(Timers::run, "spindle-async-timer");
                thread.setDaemon(true);
                thread.start();
            } else if (e.index == 0) {
                CHANGED.signal();
            }
            return e;
        } finally {
            LOCK.unlock();
        }
    }

    /** Number of entries waiting (for tests). */
    static int pending() {
        LOCK.lock();
        try {
            return size;
        } finally {
            LOCK.unlock();
        }
    }

    private static void run() {
        List<Entry> due = new ArrayList<>();
        while (true) {
            LOCK.lock();
            try {
                while (true) {
                    if (size == 0) {
                        CHANGED.awaitUninterruptibly();
                        continue;
                    }
                    long wait = heap[0].deadline - System.nanoTime();
                    if (wait <= 0) {
                        break;
                    }
                    try {
                        CHANGED.awaitNanos(wait);
                    } catch (InterruptedException ignored) {
                        // the timer thread is not interruptible in any meaningful way
                    }
                }
                long now = System.nanoTime();
                while (size > 0 && heap[0].deadline - now <= 0) {
                    Entry e = heap[0];
                    removeAt(0);
                    e.fired = true;
                    due.add(e);
                }
            } finally {
                LOCK.unlock();
            }
            for (Entry e : due) {
                Waker w = e.waker;
                if (w != null) {
                    try {
                        w.wake();
                    } catch (Throwable t) {
                        // a waker must not throw; do not let one kill the timer thread
                    }
                }
            }
            due.clear();
        }
    }

    private static void removeAt(int i) {
        Entry removed = heap[i];
        removed.index = -1;
        size--;
        if (i == size) {
            heap[size] = null;
            return;
        }
        Entry last = heap[size];
        heap[size] = null;
        heap[i] = last;
        last.index = i;
        siftDown(i);
        if (last.index == i) {
            siftUp(i);
        }
    }

    private static void siftUp(int i) {
        Entry e = heap[i];
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            Entry p = heap[parent];
            if (!e.before(p)) {
                break;
            }
            heap[i] = p;
            p.index = i;
            i = parent;
        }
        heap[i] = e;
        e.index = i;
    }

    private static void siftDown(int i) {
        Entry e = heap[i];
        while (true) {
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && heap[child + 1].before(heap[child])) {
                child++;
            }
            if (!heap[child].before(e)) {
                break;
            }
            heap[i] = heap[child];
            heap[i].index = i;
            i = child;
        }
        heap[i] = e;
        e.index = i;
    }
}
