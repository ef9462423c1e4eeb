/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * A small bounded stack of the newest tasks one thread has forked, which that thread pushes and
 * pops without any fence or atomic instruction, and which other threads may read but never
 * change. It sits beside a {@link WorkStealingDeque} and holds the deque's newest entries kept
 * out of it: in recursive fork/join almost every task is joined by its forker soon after the
 * fork, and taking it back from here costs two plain stores where a deque pop costs a full
 * fence.
 *
 * <p><b>Only for elements that claim themselves.</b> The stack does not decide who takes an
 * element: an element may be returned to its owner by {@link #pop} and to another thread by
 * {@link #peekOldest} at the same time. It is meant for elements that carry their own claim,
 * an atomic state word that only one thread can move from "new" to "started" (as a fork task's
 * start CAS does): whoever reads an element runs it only if it wins that claim, so an element
 * read twice still runs once. The {@code unclaimed} predicate given to the constructor reads
 * that state.
 *
 * <pre>{@code
 * ForkStack<MyTask> forks = new ForkStack<>(8, MyTask::isNew);
 * MyTask displaced = forks.push(task);       // owner; a full stack hands back its oldest
 * if (displaced != null) deque.push(displaced);
 * MyTask mine = forks.pop();                 // owner: newest first
 * MyTask other = forks.peekOldest();         // any thread: oldest unclaimed, not removed
 * if (other != null && other.tryClaim()) other.run();
 * }</pre>
 *
 * <h2>Implementation overview</h2>
 *
 * <p>A ring of {@code capacity} (a power of two) references and two counters written only by
 * the owner: {@code top}, the next index to push, and {@code base}, the oldest index still held.
 * Entries live at {@code [base, top)}; {@code top - base <= capacity}.
 *
 * <ul>
 *   <li><b>push</b>: if the stack is full, {@code base} moves up by one and the oldest entry is
 *       returned to the caller (which moves it into the deque, below everything left here, so
 *       the owner's LIFO order holds). The element is then written into its cell with a
 *       <em>release</em> store, and {@code top} with an opaque store.</li>
 *   <li><b>pop</b>: {@code top} moves down by one and the cell is cleared, both opaque stores;
 *       the element is returned whether or not another thread has claimed it meanwhile (the
 *       caller's claim decides).</li>
 *   <li><b>peekOldest</b> (any thread): reads {@code base} and {@code top} (acquire), then the
 *       cells from {@code base} up (acquire), at most {@code capacity} of them, and returns the
 *       first non-null element that the predicate calls unclaimed.</li>
 * </ul>
 *
 * <p><b>Why a reader may race the owner.</b> A reader's view of the counters and cells may be
 * stale or torn: it may see a cell already popped, one overwritten by a newer push, or a
 * {@code null}. None of that matters, because the reader never writes and only ever returns an
 * element that was, at some moment, in the stack: every element it can read was stored there
 * by the owner with a release store, so the reader's acquire load that returns it also makes
 * the element's own fields visible. Claiming it is then as safe as claiming it through the
 * deque. What the reader cannot do is take an element away from its owner: the owner pops
 * every element it pushed (or hands it back from {@link #push} for the deque), so an element
 * nobody else claimed is always run by its owner. Hence no element is lost, and with the
 * element's own claim none runs twice. A reader that reads an inconsistent range merely returns
 * a newer or older element than the oldest, or none; the loop is bounded by the capacity, so a
 * reader never spins on a moving stack.
 *
 * <p><b>Why the owner's stores need no stronger ordering.</b> The only publication that matters
 * is that of an element's contents, carried by the cell's release store. The counters and the
 * clearing of popped cells are hints for readers: a stale hint costs a reader a miss or a
 * failed claim, never a wrong result. Clearing popped cells lets finished elements be
 * collected; a reader that still reads a popped element finds it claimed.
 *
 * <p><b>A young array.</b> On G1 (HotSpot's default collector, JDK 17 to 25) a store of a
 * reference to a young object into an array in an old region runs a full StoreLoad fence in the
 * collector's post-write barrier, which an array in a young region skips; a stack lives as long
 * as its worker, so its array is tenured and every push paid that fence (as the deque's ring
 * did: see {@link WorkStealingDeque}, "a young ring"). So every {@value #RENEW_INTERVAL}th push
 * the owner copies {@code [base, top)} into a new array of the same size and publishes it with
 * a release store of the array field, which readers read with acquire. A reader still holding
 * the old array reads elements that were in the stack when it was replaced, which is the
 * staleness described above; the elements it finds in the new one were copied there before the
 * release store that published the array, so their fields are visible to it. A renewal that
 * cannot allocate (an {@link OutOfMemoryError}) is skipped. Checked with a renewal at every push
 * by Lincheck (ForkStackRenewingLincheckTest) and on hardware by jcstress
 * (ForkStackTests.RenewVsThief).
 *
 * @param <T> the element type
 */
public final class ForkStack<T> {

    private static final VarHandle CELL = MethodHandles.arrayElementVarHandle(Object[].class);
    private static final VarHandle TOP;
    private static final VarHandle BASE;
    private static final VarHandle CELLS;

    /** Pushes between two renewals of the array (see "a young array" in the class overview). */
    static final int RENEW_INTERVAL = 1024;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            CELLS = l.findVarHandle(ForkStack.class, "cells", Object[].class);
            TOP = l.findVarHandle(ForkStack.class, "top", int.class);
            BASE = l.findVarHandle(ForkStack.class, "base", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Replaced only by the owner (release), to renew it; read by others with acquire. Package-private for tests. */
    Object[] cells;
    private final int mask;
    private final Predicate<? super T> unclaimed;
    /** {@link #RENEW_INTERVAL}, or a test's. */
    private final int renewInterval;
    /** Next index to push; written only by the owner (opaque), read by others with acquire. */
    private int top;
    /** Oldest index held; written only by the owner (opaque), read by others with acquire. */
    private int base;
    /** Owner only: pushes since the array was last renewed. */
    private int pushes;

    /**
     * Creates an empty stack.
     *
     * @param capacity how many elements it holds, a power of two from 1 to 1024
     * @param unclaimed whether an element is still to be claimed (its state is "new"); used by
     *     {@link #peekOldest} and {@link #unclaimedCount} to skip elements that have started
     * @throws IllegalArgumentException if {@code capacity} is not a power of two in range
     * @throws NullPointerException if {@code unclaimed} is null
     */
    public ForkStack(int capacity, Predicate<? super T> unclaimed) {
        this(capacity, unclaimed, RENEW_INTERVAL);
    }

    /**
     * As {@link #ForkStack(int, Predicate)}, renewing the array every {@code renewInterval}
     * pushes: tests only (1: at every push), so that the checkers explore renewals beside readers.
     */
    ForkStack(int capacity, Predicate<? super T> unclaimed, int renewInterval) {
        if (renewInterval < 1) {
            throw new IllegalArgumentException("renewInterval must be at least 1, was " + renewInterval);
        }
        if (capacity < 1 || capacity > 1024 || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("capacity must be a power of two from 1 to 1024, was " + capacity);
        }
        this.cells = new Object[capacity];
        this.mask = capacity - 1;
        this.unclaimed = Objects.requireNonNull(unclaimed, "unclaimed");
        this.renewInterval = renewInterval;
    }

    // ------------------------------------------------------------------ owner operations

    /**
     * Pushes {@code e} as the newest element. Owner only.
     *
     * @param e the element, not yet claimed by anyone
     * @return the oldest element if the stack was full (it is no longer held here: the caller
     *     must put it where it runs, usually the deque's bottom), else {@code null}
     * @throws NullPointerException if {@code e} is null: {@link #pop} and the other readers
     *     answer {@code null} for "empty", so a null element would hide the elements below it
     */
    @SuppressWarnings("unchecked")
    public T push(T e) {
        Objects.requireNonNull(e, "element");
        int t = top;                           // plain: only the owner writes the counters
        Object displaced = null;
        int b = base;
        Object[] c = ++pushes < renewInterval ? cells : renew(b, t);
        if (t - b > mask) {                    // full: hand the oldest back
            displaced = c[b & mask];
            BASE.setOpaque(this, b + 1);
        }
        CELL.setRelease(c, t & mask, e);       // publishes e's fields to readers of the cell
        TOP.setOpaque(this, t + 1);
        return (T) displaced;
    }

    /**
     * Run by the owner just before it allocates a renewed array, if set: a seam for tests, which
     * throw from it what a full heap throws there. Read on the renewing path only.
     */
    static volatile Runnable beforeRenew;

    /**
     * Replaces the array with a young copy of {@code [b, t)} (see "a young array" in the class
     * overview) and returns it; on an {@link OutOfMemoryError} returns the old one. Out of
     * {@link #push}, which every fork runs. Owner only.
     */
    private Object[] renew(int b, int t) {
        pushes = 0;
        Object[] old = cells;
        Object[] a;
        try {
            Runnable hook = beforeRenew;
            if (hook != null) {
                hook.run();
            }
            a = new Object[old.length];
        } catch (OutOfMemoryError e) {         // only an optimisation: the old array serves
            return old;
        }
        for (int i = b; i != t; i++) {
            a[i & mask] = old[i & mask];
        }
        CELLS.setRelease(this, a);             // publishes the copies with the array
        return a;
    }

    /**
     * Removes and returns the newest element. Owner only. The element may have been claimed by
     * another thread meanwhile.
     *
     * @return the newest element, or {@code null} if the stack is empty
     */
    @SuppressWarnings("unchecked")
    public T pop() {
        int t = top;
        if (t == base) {
            return null;
        }
        int i = --t & mask;
        Object e = cells[i];
        CELL.setOpaque(cells, i, null);
        TOP.setOpaque(this, t);
        return (T) e;
    }

    /** {@return the newest element without removing it, or {@code null} if the stack is empty} Owner only. */
    @SuppressWarnings("unchecked")
    public T peekNewest() {
        int t = top;
        return t == base ? null : (T) cells[(t - 1) & mask];
    }

    /**
     * Whether {@code e} is held here, anywhere in the stack, as its owner sees it. Owner only; another
     * thread may have claimed it meanwhile (the caller's claim decides).
     *
     * @param e the element to look for, compared by identity
     * @return whether it is held
     */
    public boolean holds(Object e) {
        for (int i = base, t = top; i != t; i++) {
            if (cells[i & mask] == e) {
                return true;
            }
        }
        return false;
    }

    /** {@return whether the stack holds no element, as its owner sees it} Owner only. */
    public boolean isEmptyForOwner() {
        return top == base;
    }

    /**
     * Removes the oldest element and returns it. Owner only; used to move the whole stack into
     * the deque, oldest first.
     *
     * @return the oldest element, or {@code null} if the stack is empty
     */
    @SuppressWarnings("unchecked")
    public T removeOldest() {
        int b = base;
        if (b == top) {
            return null;
        }
        int i = b & mask;
        Object e = cells[i];
        CELL.setOpaque(cells, i, null);
        BASE.setOpaque(this, b + 1);
        return (T) e;
    }

    // ------------------------------------------------------------------ any thread

    /**
     * Finds the oldest element that is still unclaimed, without removing it. Any thread; the
     * answer may be stale at once, and the caller must claim the element before running it.
     *
     * @return that element, or {@code null} if none looks unclaimed
     */
    @SuppressWarnings("unchecked")
    public T peekOldest() {
        Object[] c = (Object[]) CELLS.getAcquire(this);
        int b = (int) BASE.getAcquire(this);
        int t = (int) TOP.getAcquire(this);
        for (int i = b, n = 0; i - t < 0 && n <= mask; i++, n++) {
            Object e = CELL.getAcquire(c, i & mask);
            if (e != null && unclaimed.test((T) e)) {
                return (T) e;
            }
        }
        return null;
    }

    /**
     * Whether {@code e} looks held here, unclaimed or not. Any thread; the answer may be stale
     * at once (a stack its owner does not change meanwhile is read as it is).
     *
     * @param e the element to look for, compared by identity
     * @return whether it was seen in the stack
     */
    public boolean mayHold(Object e) {
        Object[] c = (Object[]) CELLS.getAcquire(this);
        int b = (int) BASE.getAcquire(this);
        int t = (int) TOP.getAcquire(this);
        for (int i = b, n = 0; i - t < 0 && n <= mask; i++, n++) {
            if (CELL.getAcquire(c, i & mask) == e) {
                return true;
            }
        }
        return false;
    }

    /** {@return how many elements look unclaimed} Any thread; a racy estimate. */
    @SuppressWarnings("unchecked")
    public int unclaimedCount() {
        Object[] c = (Object[]) CELLS.getAcquire(this);
        int b = (int) BASE.getAcquire(this);
        int t = (int) TOP.getAcquire(this);
        int count = 0;
        for (int i = b, n = 0; i - t < 0 && n <= mask; i++, n++) {
            Object e = CELL.getAcquire(c, i & mask);
            if (e != null && unclaimed.test((T) e)) {
                count++;
            }
        }
        return count;
    }

    /** {@return the capacity given to the constructor} */
    public int capacity() {
        return mask + 1;
    }

    @Override
    public String toString() {
        int b = (int) BASE.getAcquire(this);
        int t = (int) TOP.getAcquire(this);
        return "ForkStack[held=" + Math.max(0, t - b) + ", capacity=" + (mask + 1) + "]";
    }
}
