/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import dev.spindle.internal.BlockingSupport;
import dev.spindle.queue.Injector;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One worker of a {@link WorkSharingPool}, {@link PriorityPool} or {@link PinnedPool}: its
 * counters, its parking state, and the parts of a worker only some of the pools use (the LIFO
 * slot of the work-sharing pool, the own queue of the pinned pool). The loop it runs is
 * {@link AbstractPool#runWorker}.
 *
 * <p>Field access rules:
 * <ul>
 *   <li>{@code executed} and {@code parks} are written only by the owner, with opaque stores,
 *       and read by {@code stats()} with opaque loads.</li>
 *   <li>{@code slot} is filled only by the owner, while it runs a task. The owner empties it
 *       with an atomic swap, and so does {@code shutdownNow} (from another thread), so a slot
 *       task is taken exactly once. The owner's fill of an empty slot is a release store: a
 *       thread that swaps the task out sees it fully constructed.</li>
 *   <li>{@code searching} and {@code slotRuns} are owner-only plain fields.</li>
 *   <li>{@code parked} and {@code notified} are written under the {@link Parking} lock and
 *       read without it, hence volatile.</li>
 * </ul>
 */
final class PoolWorker extends PoolWorkerPadAfter implements Runnable, BlockingSupport {

    private static final VarHandle EXECUTED;
    private static final VarHandle PARKS;
    private static final VarHandle SLOT;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            EXECUTED = l.findVarHandle(PoolWorkerHotFields.class, "executed", long.class);
            PARKS = l.findVarHandle(PoolWorkerHotFields.class, "parks", long.class);
            SLOT = l.findVarHandle(PoolWorkerHotFields.class, "slot", Runnable.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final AbstractPool pool;
    final int index;
    /** This worker's own queue ({@link PinnedPool} only; {@code null} elsewhere). */
    final Injector<Runnable> queue;

    /** The thread running this worker; set before it starts. */
    volatile Thread thread;
    /** Registered on the {@link Parking} stack; written under its lock. */
    volatile boolean parked;
    /** Set by whoever takes this worker off the parking stack to wake it. */
    volatile boolean notified;
    /** Set once the thread has left {@link AbstractPool#runWorker}. */
    volatile boolean exited;
    /** Owner only: whether this worker has been counted as finished (see {@link AbstractPool}). */
    boolean finishedCounted;

    PoolWorker(AbstractPool pool, int index, Injector<Runnable> queue) {
        this.pool = pool;
        this.index = index;
        this.queue = queue;
    }

    @Override
    public void run() {
        pool.runWorker(this);
    }

    // ------------------------------------------------------------------ blocking sections

    @Override
    public void beginBlocking() {
        if (blockingDepth++ == 0) {
            pool.beforeBlocking(this);
        }
    }

    @Override
    public void endBlocking() {
        blockingDepth--;
    }

    // ------------------------------------------------------------------ the LIFO slot

    /** Owner only: the slot's content, read without ordering (only the owner fills it). */
    Runnable slotPlain() {
        return (Runnable) SLOT.get(this);
    }

    /** Owner only: fills an empty slot. */
    void fillEmptySlot(Runnable task) {
        SLOT.setRelease(this, task);
    }

    /** Puts {@code task} in the slot and returns what was there (atomic against a taker). */
    Runnable swapSlot(Runnable task) {
        return (Runnable) SLOT.getAndSet(this, task);
    }

    /** Any thread: empties the slot and returns what was there; exactly one taker wins a task. */
    Runnable takeSlot() {
        return (Runnable) SLOT.getAndSet(this, (Runnable) null);
    }

    /** Any thread: whether the slot looks occupied. */
    boolean slotOccupied() {
        return SLOT.getAcquire(this) != null;
    }

    // ------------------------------------------------------------------ counters

    void countExecuted() {
        EXECUTED.setOpaque(this, executed + 1);
    }

    void countPark() {
        PARKS.setOpaque(this, parks + 1);
    }

    long executed() {
        return (long) EXECUTED.getOpaque(this);
    }

    long parks() {
        return (long) PARKS.getOpaque(this);
    }
}

/*
 * Padding: the fields the owner writes on every task sit on cache lines of their own, so that
 * workers (whose objects are usually allocated next to each other) do not slow each other down
 * by false sharing, and so that a submitter reading a worker's parking flag does not share a line
 * with the owner's counter. Superclass fields are laid out first, so the hierarchy fixes the order.
 */
abstract class PoolWorkerPadBefore {
    byte p000, p001, p002, p003, p004, p005, p006, p007, p010, p011, p012, p013, p014, p015, p016, p017;
    byte p020, p021, p022, p023, p024, p025, p026, p027, p030, p031, p032, p033, p034, p035, p036, p037;
    byte p040, p041, p042, p043, p044, p045, p046, p047, p050, p051, p052, p053, p054, p055, p056, p057;
    byte p060, p061, p062, p063, p064, p065, p066, p067, p070, p071, p072, p073, p074, p075, p076, p077;
    byte p100, p101, p102, p103, p104, p105, p106, p107, p110, p111, p112, p113, p114, p115, p116, p117;
    byte p120, p121, p122, p123, p124, p125, p126, p127, p130, p131, p132, p133, p134, p135, p136, p137;
    byte p140, p141, p142, p143, p144, p145, p146, p147, p150, p151, p152, p153, p154, p155, p156, p157;
    byte p160, p161, p162, p163, p164, p165, p166, p167, p170, p171, p172, p173, p174, p175, p176, p177;
}

/** The state a {@link PoolWorker}'s owner writes on every task. */
abstract class PoolWorkerHotFields extends PoolWorkerPadBefore {
    /** The LIFO slot ({@link WorkSharingPool} only). */
    Runnable slot;
    /** Slot tasks run in a row since the last task from the shared queue. */
    int slotRuns;
    int blockingDepth;
    boolean searching;
    long executed;
    long parks;
}

abstract class PoolWorkerPadAfter extends PoolWorkerHotFields {
    byte q000, q001, q002, q003, q004, q005, q006, q007, q010, q011, q012, q013, q014, q015, q016, q017;
    byte q020, q021, q022, q023, q024, q025, q026, q027, q030, q031, q032, q033, q034, q035, q036, q037;
    byte q040, q041, q042, q043, q044, q045, q046, q047, q050, q051, q052, q053, q054, q055, q056, q057;
    byte q060, q061, q062, q063, q064, q065, q066, q067, q070, q071, q072, q073, q074, q075, q076, q077;
    byte q100, q101, q102, q103, q104, q105, q106, q107, q110, q111, q112, q113, q114, q115, q116, q117;
    byte q120, q121, q122, q123, q124, q125, q126, q127, q130, q131, q132, q133, q134, q135, q136, q137;
    byte q140, q141, q142, q143, q144, q145, q146, q147, q150, q151, q152, q153, q154, q155, q156, q157;
    byte q160, q161, q162, q163, q164, q165, q166, q167, q170, q171, q172, q173, q174, q175, q176, q177;
}
