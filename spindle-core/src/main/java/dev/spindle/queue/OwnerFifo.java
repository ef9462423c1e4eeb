/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;

/**
 * A bounded FIFO queue that one thread, its owner, fills and any thread drains: a worker's
 * queue of tasks that go to the back of its own line (a task that yields), which idle peers may
 * steal from. The owner's {@link #offer} costs no atomic read-modify-write; every take, the
 * owner's {@link #poll} as a thief's {@link #steal}, one CAS.
 *
 * <pre>{@code
 * OwnerFifo<Runnable> yields = new OwnerFifo<>(1024);
 * if (!yields.offer(task)) {                 // owner thread only
 *     injector.offer(task);                  // full: the caller puts it elsewhere, never drops it
 * }
 * Runnable mine = yields.poll();             // owner thread only; null when empty
 * Runnable theirs = yields.steal();          // any other thread; null when empty
 * }</pre>
 *
 * <p>As with {@link WorkStealingDeque}, which thread is the owner is the caller's contract, not
 * checked: {@link #offer} and {@link #poll} must only ever be called by one thread at a time,
 * and each call must happen-before the next (one thread, or hand-overs that synchronise).
 *
 * <h2>Implementation overview</h2>
 *
 * <p>A ring of {@code capacity} slots (a power of two) and two counters that only grow:
 * {@code tail}, the next index the owner fills, written only by the owner; and {@code head},
 * the next index to take, advanced by CAS by whichever consumer takes that element. Index
 * {@code i} lives in slot {@code i & (capacity - 1)}; the elements are those at
 * {@code [head, tail)}.
 *
 * <p><b>Offer</b> (owner): if {@code tail - head < capacity}, write the element into slot
 * {@code tail}, then publish it with a release store of {@code tail + 1}. The slot it writes held
 * index {@code tail - capacity}, which is below {@code head}, so it was taken already.
 *
 * <p><b>Take</b> ({@link #poll} by the owner, {@link #steal} by anyone): read {@code head} and then {@code tail} (acquire: the element's slot
 * write, which preceded the owner's release of {@code tail}, is visible), read the slot at
 * {@code head}, and claim that index by CAS {@code head -> head + 1}. The CAS makes each index
 * taken exactly once. A consumer that read a slot and lost its CAS discards what it read: the
 * owner may by then have refilled that slot with a later index (it can only have done so after
 * some CAS moved {@code head} past the index, so this consumer's CAS, expecting the old
 * {@code head}, fails). The counters are 64-bit and never wrap, so a CAS cannot succeed on a
 * stale value (no ABA).
 *
 * <p><b>No stale references.</b> A thief cannot clear the slot it took: once its CAS has moved
 * {@code head}, the owner may refill that slot at any moment. The owner clears instead: the slot
 * of each element it polls itself, right after its CAS (only the owner writes slots, and it has
 * not refilled this one: that needs {@code head} past the index, which only this CAS moved),
 * and, when it offers, the slots of the elements thieves took (those below {@code head} and at
 * or above {@link #cleared}). As in {@link WorkStealingDeque}, it leaves the slots just below
 * {@code head} (up to {@link WorkStealingDeque#CLEAR_LAG}, at most a quarter of the ring) alone
 * while the queue holds elements, since thieves are reading those cache lines; an offer into an
 * empty queue clears them all. So a stolen element stays reachable from the ring until the
 * owner's next offer into an empty queue, or its first offer once thieves are that far past it.
 * An index below {@code tail - capacity} is never cleared: its slot holds a later index.
 *
 * <p>{@link #size} and {@link #isEmpty} read both counters without a lock and are estimates,
 * exact when no operation is in flight; {@code isEmpty} after a completed {@code offer} reports
 * the element unless a consumer has already claimed it.
 *
 * @param <T> the element type
 */
public final class OwnerFifo<T> extends OwnerFifoFields {

    /** The largest capacity allowed. */
    public static final int MAX_CAPACITY = 1 << 20;

    private static final VarHandle HEAD;
    private static final VarHandle TAIL;
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Object[].class);

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            HEAD = l.findVarHandle(OwnerFifoHead.class, "head", long.class);
            TAIL = l.findVarHandle(OwnerFifoTail.class, "tail", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Object[] slots;
    private final int mask;
    /** Owner only: the slots of the indices below this one are cleared. */
    private long cleared;
    /** Stolen slots this close below {@code head} are left alone while the queue holds elements. */
    private final int clearLag;

    /**
     * Creates an empty queue.
     *
     * @param capacity how many elements it holds at most: a power of two, 2 to
     *     {@link #MAX_CAPACITY}
     * @throws IllegalArgumentException if {@code capacity} is out of range or not a power of two
     */
    public OwnerFifo(int capacity) {
        if (capacity < 2 || capacity > MAX_CAPACITY || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException(
                    "capacity must be a power of two in [2, " + MAX_CAPACITY + "], was " + capacity);
        }
        this.slots = new Object[capacity];
        this.mask = capacity - 1;
        this.clearLag = Math.min(WorkStealingDeque.CLEAR_LAG, capacity / 4);
    }

    /** {@return the most elements this queue holds} */
    public int capacity() {
        return slots.length;
    }

    /**
     * Appends {@code element} unless the queue is full. Owner only.
     *
     * @param element the element to append
     * @return {@code false} if the queue is full (the element was not added)
     * @throws NullPointerException if {@code element} is null
     */
    public boolean offer(T element) {
        Objects.requireNonNull(element, "element");
        long t = tail;                         // only this thread writes tail
        long h = (long) HEAD.getAcquire(this);
        if (t - h >= slots.length) {
            return false;
        }
        cleared = TakenSlots.clear(slots, cleared, h, t, clearLag);  // slots thieves took
        slots[(int) t & mask] = element;       // published by the release below
        TAIL.setRelease(this, t + 1);
        return true;
    }

    /**
     * Removes and returns the oldest element. Owner only; other threads {@link #steal}.
     *
     * @return the oldest element, or {@code null} if the queue is empty
     */
    @SuppressWarnings("unchecked")
    public T poll() {
        for (;;) {
            long h = (long) HEAD.getAcquire(this);
            if (h >= tail) {                   // only this thread writes tail
                return null;
            }
            int i = (int) h & mask;
            Object x = slots[i];               // this thread wrote it
            if (HEAD.compareAndSet(this, h, h + 1)) {
                slots[i] = null;               // not refilled: see the overview
                if (cleared == h) {
                    cleared = h + 1;
                }
                return (T) x;
            }
        }
    }

    /**
     * Removes and returns the oldest element, from any thread but the owner.
     *
     * @return the oldest element, or {@code null} if the queue is empty
     */
    @SuppressWarnings("unchecked")
    public T steal() {
        for (;;) {
            long h = (long) HEAD.getAcquire(this);
            long t = (long) TAIL.getAcquire(this);
            if (h >= t) {
                return null;
            }
            Object x = SLOT.getAcquire(slots, (int) h & mask);
            if (HEAD.compareAndSet(this, h, h + 1)) {
                return (T) x;                  // the owner clears the slot (see the overview)
            }
        }
    }

    /**
     * How many more elements {@link #offer} would accept now. Owner only: exact for the owner
     * but for takes in flight, which only add room.
     *
     * @return the free slots, from 0 to {@link #capacity()}
     */
    public int remainingCapacity() {
        long h = (long) HEAD.getAcquire(this);
        return (int) (slots.length - (tail - h));
    }

    /** {@return whether the queue looked empty (an estimate; see the class overview)} */
    public boolean isEmpty() {
        long h = (long) HEAD.getAcquire(this);
        return h >= (long) TAIL.getAcquire(this);
    }

    /** {@return an estimate of the number of elements; exact when no operation is in flight} */
    public int size() {
        long h = (long) HEAD.getAcquire(this);
        long t = (long) TAIL.getAcquire(this);
        return (int) Math.max(0, Math.min(t - h, slots.length));
    }

    @Override
    public String toString() {
        return "OwnerFifo[size~" + size() + ", capacity " + slots.length + "]";
    }
}

/** Padding before the head, so that the counters do not share a line with neighbouring objects. */
abstract class OwnerFifoPad0 {
    long p00, p01, p02, p03, p04, p05, p06, p07;
    long p08, p09, p10, p11, p12, p13, p14, p15;
}

/** The take counter, advanced by CAS by any consumer. */
abstract class OwnerFifoHead extends OwnerFifoPad0 {
    volatile long head;
}

/** Padding between the counters: consumers' CASes on head and the owner's tail stores. */
abstract class OwnerFifoPad1 extends OwnerFifoHead {
    long p20, p21, p22, p23, p24, p25, p26, p27;
    long p28, p29, p30, p31, p32, p33, p34, p35;
}

/** The fill counter, written only by the owner (release), read by consumers (acquire). */
abstract class OwnerFifoTail extends OwnerFifoPad1 {
    volatile long tail;
}

/** Padding after the tail. */
abstract class OwnerFifoFields extends OwnerFifoTail {
    long p40, p41, p42, p43, p44, p45, p46, p47;
    long p48, p49, p50, p51, p52, p53, p54, p55;
}
