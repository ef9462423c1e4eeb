/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntPredicate;

/**
 * Parks and wakes the workers of {@link WorkSharingPool}, {@link PriorityPool} and
 * {@link PinnedPool}. (The work-stealing pool has its own protocol, {@link Idle}, which also
 * knows about stealing and spare workers.)
 *
 * <h2>State</h2>
 *
 * <p>One atomic word counts <em>searching</em> workers (low 32 bits: woken, and not yet
 * holding a task) and <em>parked</em> workers (high 32 bits: registered on the parking stack).
 * The stack itself, and every change of the parked count, is guarded by a lock taken only on
 * slow paths: registering to park, cancelling, waking. Submitters read the word without the
 * lock, so the common case of "a worker is already searching" or "nobody is parked" costs one
 * volatile read.
 *
 * <h2>Two ways to wake</h2>
 *
 * <ul>
 *   <li><b>Any worker</b> ({@link #notifyWork()}, for pools whose workers share their queues):
 *       if some worker is searching, it will find the task, so nobody is woken; if nobody is
 *       parked there is nobody to wake. Otherwise the most recently parked worker (warmest
 *       cache) is popped, counted as searching <em>before</em> it runs, and unparked. A burst of
 *       submissions thus wakes one worker; that worker, when it takes a task and was the last
 *       searcher, wakes the next one if work is still queued ({@link #stopSearching()}), so
 *       wake-ups chain rather than stampede.</li>
 *   <li><b>One given worker</b> ({@link #wake(PoolWorker)}, for the pinned pool, whose tasks
 *       only their own worker may run): a volatile read of that worker's {@code parked} flag,
 *       and only if it is set, the lock, removal from the stack and an unpark. Targeted workers
 *       are never counted as searching.</li>
 * </ul>
 *
 * <h2>Why no wake-up is lost</h2>
 *
 * <p>A worker parks in two steps. {@link #prepareToPark} registers it (a volatile
 * read-modify-write of the state word and of its {@code parked} flag) and returns whether
 * nobody is searching; if so, the worker must then look at every queue it may take from, and if
 * it sees a task, cancel ({@link #cancelPark}) and run it. Only then does it sleep
 * ({@link #await}) until {@code notified} is set.
 *
 * <p>A submitter publishes its task with a volatile write (the queue's CAS) and then reads the
 * state word (or the target's flag). Volatile accesses are sequentially consistent, so of the
 * submitter's read and the worker's registration one comes first: either the submitter sees
 * the registration and wakes a worker, or the worker's look at the queues, which follows its
 * registration, sees the task. When the submitter instead sees a searcher and wakes nobody, that
 * searcher leaves the searching count in one of two ways, and both look at the queues after
 * leaving: it takes a task, and if it was the last searcher it looks and notifies again if work
 * remains; or it registers to park, and as the last searcher it re-checks as above. A worker that
 * parks while another is searching relies on that searcher in the same way.
 *
 * <p>An unpark delivered before the park is not lost either: {@link LockSupport#unpark} leaves a
 * permit, and {@link #await} loops on {@code notified}, so spurious returns are harmless. Stray
 * interrupts (for instance from a {@code Future.cancel(true)} that arrived after its task ended)
 * are dropped before each park ({@link PoolCore#dropStrayInterrupt}), since a pending interrupt
 * would turn the park into a spin.
 *
 * <h2>Termination</h2>
 *
 * <p>{@link #terminate()} marks the protocol finished and unparks every registered worker;
 * {@link #await} returns {@code false} from then on. The pools call it when a graceful shutdown
 * finds the pool quiet (checked with {@link #underLock}, so no worker can park or be woken during
 * the check) and from {@code shutdownNow}.
 */
final class Parking extends ParkingState implements IdleControl {

    private static final long SEARCHING_ONE = 1L;
    private static final long PARKED_ONE = 1L << 32;
    private static final long SEARCHING_MASK = 0xFFFF_FFFFL;

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(ParkingStateField.class, "state", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Object lock = new Object();
    /** Registered workers, most recent last; guarded by {@link #lock}. */
    private final PoolWorker[] stack;
    /** Guarded by {@link #lock}. */
    private int size;
    private volatile boolean terminated;

    Parking(int workers) {
        stack = new PoolWorker[workers];
    }

    private static int searching(long s) {
        return (int) (s & SEARCHING_MASK);
    }

    private static int parked(long s) {
        return (int) (s >>> 32);
    }

    /** Wakes one parked worker if work may be waiting and nobody is searching for it. */
    void notifyWork() {
        long s = (long) STATE.getVolatile(this);
        if (searching(s) != 0 || parked(s) == 0) {
            return;
        }
        PoolWorker w;
        synchronized (lock) {
            if (searching(state) != 0 || size == 0 || terminated) {
                return;
            }
            w = stack[--size];
            stack[size] = null;
            STATE.getAndAdd(this, SEARCHING_ONE - PARKED_ONE);
            w.parked = false;
            w.notified = true;
        }
        LockSupport.unpark(w.thread);
    }

    /** Wakes {@code w} if it is parked (or registered to park). */
    void wake(PoolWorker w) {
        if (!w.parked) {
            return;
        }
        synchronized (lock) {
            if (!w.parked || terminated) {
                return;
            }
            remove(w);
            STATE.getAndAdd(this, -PARKED_ONE);
            w.parked = false;
            w.notified = true;
        }
        LockSupport.unpark(w.thread);
    }

    /**
     * Uncounts a searcher that found a task.
     *
     * @return whether it was the last searcher: the caller must then look at the shared queues
     *     and call {@link #notifyWork()} if work is still there. Looking after the decrement is
     *     what makes this safe; not waking unconditionally keeps a system call from standing
     *     between every woken worker and its task.
     */
    boolean stopSearching() {
        long s = (long) STATE.getAndAdd(this, -SEARCHING_ONE) - SEARCHING_ONE;
        return searching(s) == 0;
    }

    /**
     * Registers {@code w} as parked, uncounting it as a searcher if it was one.
     *
     * @return whether nobody is searching now; the caller must then look at its queues once more
     *     and {@link #cancelPark} if it sees work
     */
    boolean prepareToPark(PoolWorker w, boolean wasSearching) {
        synchronized (lock) {
            w.notified = false;
            stack[size++] = w;
            w.parked = true;
            long s = (long) STATE.getAndAdd(this, PARKED_ONE - (wasSearching ? SEARCHING_ONE : 0))
                    + PARKED_ONE - (wasSearching ? SEARCHING_ONE : 0);
            return searching(s) == 0;
        }
    }

    /**
     * Takes {@code w} off the stack if nobody woke it meanwhile.
     *
     * @return {@code true} if it was removed (it is now neither parked nor searching);
     *     {@code false} if a waker got there first (it is then counted as searching if it was
     *     woken by {@link #notifyWork()})
     */
    boolean cancelPark(PoolWorker w) {
        synchronized (lock) {
            if (!w.parked) {
                return false;
            }
            remove(w);
            STATE.getAndAdd(this, -PARKED_ONE);
            w.parked = false;
            return true;
        }
    }

    /**
     * Sleeps until {@code w} is woken.
     *
     * @return {@code true} if it was woken; {@code false} if the protocol was terminated
     */
    boolean await(PoolWorker w) {
        while (!w.notified) {
            if (terminated) {
                return false;
            }
            w.pool.dropStrayInterrupt();       // a stray interrupt would make park return at once
            LockSupport.park(this);
        }
        return true;
    }

    private void remove(PoolWorker w) {
        for (int i = size - 1; i >= 0; i--) {
            if (stack[i] == w) {
                System.arraycopy(stack, i + 1, stack, i, size - i - 1);
                stack[--size] = null;
                return;
            }
        }
        throw new IllegalStateException("worker " + w.index + " flagged parked but not on the stack");
    }

    /** Runs {@code check} with the number of registered workers, none parking or waking meanwhile. */
    @Override
    public boolean underLock(IntPredicate check) {
        synchronized (lock) {
            return check.test(size);
        }
    }

    /** Wakes every registered worker for good; later parks return at once. */
    @Override
    public void terminate() {
        PoolWorker[] toWake;
        synchronized (lock) {
            terminated = true;
            toWake = java.util.Arrays.copyOf(stack, size);
        }
        for (PoolWorker w : toWake) {
            LockSupport.unpark(w.thread);
        }
    }

    @Override
    public boolean isTerminated() {
        return terminated;
    }
}

/* Padding: the state word is read by every submitter and written by parking workers. */
abstract class ParkingPad0 {
    byte p000, p001, p002, p003, p004, p005, p006, p007, p010, p011, p012, p013, p014, p015, p016, p017;
    byte p020, p021, p022, p023, p024, p025, p026, p027, p030, p031, p032, p033, p034, p035, p036, p037;
    byte p040, p041, p042, p043, p044, p045, p046, p047, p050, p051, p052, p053, p054, p055, p056, p057;
    byte p060, p061, p062, p063, p064, p065, p066, p067, p070, p071, p072, p073, p074, p075, p076, p077;
}

abstract class ParkingStateField extends ParkingPad0 {
    /** Low 32 bits: searching workers. High 32 bits: parked workers. */
    volatile long state;
}

abstract class ParkingState extends ParkingStateField {
    byte p100, p101, p102, p103, p104, p105, p106, p107, p110, p111, p112, p113, p114, p115, p116, p117;
    byte p120, p121, p122, p123, p124, p125, p126, p127, p130, p131, p132, p133, p134, p135, p136, p137;
    byte p140, p141, p142, p143, p144, p145, p146, p147, p150, p151, p152, p153, p154, p155, p156, p157;
    byte p160, p161, p162, p163, p164, p165, p166, p167, p170, p171, p172, p173, p174, p175, p176, p177;
}
