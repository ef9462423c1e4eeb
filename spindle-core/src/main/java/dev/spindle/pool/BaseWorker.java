/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import dev.spindle.internal.BlockingSupport;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * What every pool worker has, whichever pool it serves: its index, its thread, the flags the
 * lifecycle in {@link PoolCore} needs, its counters, and the padded block of fields its owner
 * writes on every task. A subclass supplies the loop ({@link #work}) and the two operations of
 * the stop phase after {@code shutdownNow} ({@link #takeLate}, {@link #runLate}).
 *
 * <p>The counters are written only by the owner, with opaque stores, and read by
 * {@code stats()} with opaque loads: cheap, and exact once the pool is quiet.
 */
abstract class BaseWorker extends WorkerPadAfter implements Runnable, BlockingSupport {

    private static final VarHandle EXECUTED;
    private static final VarHandle PARKS;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            EXECUTED = l.findVarHandle(WorkerHotFields.class, "executed", long.class);
            PARKS = l.findVarHandle(WorkerHotFields.class, "parks", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final int index;
    /** The pool whose lifecycle runs this worker; compared on every spawn, hence a field. */
    final PoolCore core;

    /** The thread running this worker; set before it starts. */
    volatile Thread thread;
    /** Whether a thread runs this worker now (set before it starts, cleared as it exits). */
    volatile boolean alive;
    /** Owner only: whether this thread has been counted as finished (see {@link PoolCore}). */
    boolean finishedCounted;

    BaseWorker(int index, PoolCore core) {
        this.index = index;
        this.core = core;
    }

    /** The worker loop; returns when the worker should exit or the pool stops. */
    abstract void work();

    /** After {@code shutdownNow}: a task this worker may still take, or {@code null}. */
    abstract Runnable takeLate();

    /** After {@code shutdownNow}: runs a task from {@link #takeLate}. */
    abstract void runLate(Runnable task);

    @Override
    public final void run() {
        core.runWorker(this);
    }

    // ------------------------------------------------------------------ counters

    final void countExecuted() {
        EXECUTED.setOpaque(this, executed + 1);
    }

    final void countPark() {
        PARKS.setOpaque(this, parks + 1);
    }

    final long executed() {
        return (long) EXECUTED.getOpaque(this);
    }

    final long parks() {
        return (long) PARKS.getOpaque(this);
    }
}

/*
 * Padding: the fields the owner writes on every task live on cache lines of their own, so that
 * workers (whose objects are often allocated next to each other) do not slow each other down by
 * false sharing, and a submitter reading a worker's flags does not share a line with the owner's
 * counters. Superclass fields are laid out first, so the hierarchy fixes the order.
 */
abstract class WorkerPadBefore {
    byte p000, p001, p002, p003, p004, p005, p006, p007, p010, p011, p012, p013, p014, p015, p016, p017;
    byte p020, p021, p022, p023, p024, p025, p026, p027, p030, p031, p032, p033, p034, p035, p036, p037;
    byte p040, p041, p042, p043, p044, p045, p046, p047, p050, p051, p052, p053, p054, p055, p056, p057;
    byte p060, p061, p062, p063, p064, p065, p066, p067, p070, p071, p072, p073, p074, p075, p076, p077;
    byte p100, p101, p102, p103, p104, p105, p106, p107, p110, p111, p112, p113, p114, p115, p116, p117;
    byte p120, p121, p122, p123, p124, p125, p126, p127, p130, p131, p132, p133, p134, p135, p136, p137;
    byte p140, p141, p142, p143, p144, p145, p146, p147, p150, p151, p152, p153, p154, p155, p156, p157;
    byte p160, p161, p162, p163, p164, p165, p166, p167, p170, p171, p172, p173, p174, p175, p176, p177;
}

/**
 * The owner-only state of a worker, written on every task. Some fields serve one kind of
 * worker only; keeping them in one block costs a few bytes per worker and gives every worker the
 * same padding.
 */
abstract class WorkerHotFields extends WorkerPadBefore {
    /** {@link Worker}: the fork task it runs in its innermost recorded frame. */
    ForkTask<?> current;
    /** {@link Worker}: reused by {@code Worker.overflow}. */
    Object[] overflowBuffer;
    /** {@link PoolWorker}: the LIFO slot ({@link WorkSharingPool} only). */
    Runnable slot;
    /** {@link PoolWorker}: slot tasks run in a row since the last task from the shared queue. */
    int slotRuns;
    /** {@link Worker}: turns left until the next forced look at the injector. */
    int tick;
    int blockingDepth;
    boolean searching;
    long executed;
    long parks;
    /** {@link Worker}: tasks stolen from peers. */
    long steals;
    /** {@link Worker}: tasks moved from its full deque to the injector. */
    long overflowed;
}

abstract class WorkerPadAfter extends WorkerHotFields {
    byte q000, q001, q002, q003, q004, q005, q006, q007, q010, q011, q012, q013, q014, q015, q016, q017;
    byte q020, q021, q022, q023, q024, q025, q026, q027, q030, q031, q032, q033, q034, q035, q036, q037;
    byte q040, q041, q042, q043, q044, q045, q046, q047, q050, q051, q052, q053, q054, q055, q056, q057;
    byte q060, q061, q062, q063, q064, q065, q066, q067, q070, q071, q072, q073, q074, q075, q076, q077;
    byte q100, q101, q102, q103, q104, q105, q106, q107, q110, q111, q112, q113, q114, q115, q116, q117;
    byte q120, q121, q122, q123, q124, q125, q126, q127, q130, q131, q132, q133, q134, q135, q136, q137;
    byte q140, q141, q142, q143, q144, q145, q146, q147, q150, q151, q152, q153, q154, q155, q156, q157;
    byte q160, q161, q162, q163, q164, q165, q166, q167, q170, q171, q172, q173, q174, q175, q176, q177;
}
