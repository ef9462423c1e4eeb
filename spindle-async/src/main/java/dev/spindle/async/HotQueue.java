/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import dev.spindle.queue.Injector;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The hot queue of a {@link AsyncPolicy#HYBRID} worker: a binary max-heap of woken tasks, most
 * woken first, and among equal wake counts the one that entered first. The owning worker uses
 * it; another touches it only to spill a stalled owner's cells (see below). The key is the number of wake-ups that found the
 * task waiting when it entered ({@link TaskCell#waitWakes()}): the wake count less its yields,
 * which no one made it wait for; the tie-break is a per-queue sequence number, which makes the
 * order among equals FIFO (a heap alone is not stable). Keys and sequence numbers are kept in
 * arrays parallel to the heap's, not in the cells: every spawned task would otherwise carry
 * 16 bytes that only this policy's queue uses.
 *
 * <h2>The lock, and the spill</h2>
 *
 * <p>The queue is the owner's, but a poll that blocks its worker (or computes for long) would
 * strand the rest of the batch here, where no peer can take it: a task that waits for another
 * in its own batch would wait for good ({@code StalledPollTest}). So a worker that watches its
 * peers ({@code LoneTaskWatch}), finding the owner's poll run on for an interval while the queue
 * holds cells, {@linkplain #spillTo spills} them to the owner's wake channel, which any worker
 * may take from. The two threads exclude each other with a lock word: the owner holds it
 * between polls, while it picks ({@link #lock}, one uncontended CAS a pick, and
 * {@link #unlock}, a release store), never across a poll; the spiller only tries it
 * ({@link #tryLock}) and gives up if the owner holds it, since then the owner is not stalled.
 * The CAS that takes the lock reads what the last holder's release store published, so each
 * sees the heap as the other left it. Only the spiller's reading of the size is racy
 * ({@link #sizeRacy}): a stale zero skips one look, a stale non-zero costs a failed try.
 */
final class HotQueue {

    private static final VarHandle LOCK;
    private static final VarHandle SIZE;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            LOCK = l.findVarHandle(HotQueue.class, "lock", int.class);
            SIZE = l.findVarHandle(HotQueue.class, "size", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** 1 while the owner picks or a watcher spills; accessed only through {@link #LOCK}. */
    @SuppressWarnings("unused")
    private int lock;
    private final TaskCell<?>[] heap;
    private final long[] keys;
    private final long[] seqs;
    private int size;
    private long nextSeq;

    /**
     * A queue of at most {@code capacity} cells, all its room allocated now: the owner fills it
     * only when it is empty, a batch at a time ({@link #isFull} ends the batch), so it never
     * grows. A queue that grew as it filled could fail to (an {@link OutOfMemoryError}) with the
     * cell already taken from the wake channel, which was then lost, and an error between the
     * three arrays' copies left them of different lengths, every later fill failing
     * (HotQueueFillAllocatesNothingTest).
     */
    HotQueue(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        heap = new TaskCell<?>[capacity];
        keys = new long[capacity];
        seqs = new long[capacity];
    }

    /** Owner: takes the lock before it touches the queue; waits out a spill under way. */
    void lock() {
        while (!LOCK.compareAndSet(this, 0, 1)) {
            Thread.onSpinWait();               // a spill moves at most one batch: short
        }
    }

    /** Releases the lock, publishing the queue as its holder left it. */
    void unlock() {
        LOCK.setRelease(this, 0);
    }

    /** A spiller's try: fails while the owner picks (it is then not stalled). */
    boolean tryLock() {
        return LOCK.compareAndSet(this, 0, 1);
    }

    /** The size as another thread may read it without the lock: for a hint only. */
    int sizeRacy() {
        return (int) SIZE.getOpaque(this);
    }

    /**
     * Moves every cell to {@code wakeChannel}, most woken first, stopping at one the channel cannot
     * take (it could not grow: the cell stays here); the caller holds the lock. The
     * owner counts a wake-up as it picks the cell from this queue, so a spilled cell is counted
     * once: by the owner if it takes it back, as a steal if a peer takes it.
     *
     * @return how many cells moved
     */
    int spillTo(Injector<TaskCell<?>> wakeChannel) {
        int n = 0;
        for (TaskCell<?> c; (c = poll()) != null; n++) {
            try {
                wakeChannel.offer(c);
            } catch (OutOfMemoryError e) {
                // the channel could not grow, and the cell was not placed: it goes back (the
                // queue has room for it, and adding allocates nothing) for the owner, or for
                // the next spill. Lost here, its task was never polled again
                add(c);
                break;
            }
        }
        return n;
    }

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    boolean isFull() {
        return size == heap.length;
    }

    /** Adds {@code c}; the caller has checked that the queue is not {@link #isFull full}. */
    void add(TaskCell<?> c) {
        long key = c.waitWakes();
        long seq = nextSeq++;
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
