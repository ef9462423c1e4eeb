/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Consumer;

/**
 * The waiting tasks a runtime must fail if it shuts down before they complete, kept so that
 * neither spawning nor completing a task touches shared state.
 *
 * <p>Each worker keeps its own list of the cells that returned pending from a poll on it for
 * the first time, linked through {@code TaskCell.nextLive} (a cell is in one list at most: the
 * {@code LISTED} bit of its state word says it is in one). A cell is not listed at its spawn:
 * until its first pending poll it is queued (and a shutdown finds it in the queues), being
 * polled, or done, and most tasks end in their first poll, so they never touch a list, whose
 * pruning walked cold cells (a third of a ping_pong pair's time when every spawn was listed).
 * Cells whose spawn site or statistics may be shown are listed at their spawn, and spawns from
 * outside go to one list under a lock. Cells are never
 * unlinked when they complete (completion may happen on any thread, and unlinking would need
 * the owner's cooperation or a lock). Instead the owner of a list prunes done cells when the
 * list has doubled since the last pruning (so pruning costs amortised O(1) per spawn), and a
 * worker also prunes its list before it parks, so that a finished burst of tasks does not keep
 * its results reachable. A listed cell may finish on another worker after its lister's last
 * park; so the last worker to park prunes every worker's list, under the idle protocol's lock,
 * when a listed cell has finished since it last did ({@link AsyncRuntime#sweepListsIfIdle}). The outside list is pruned by spawns from outside and, since those may
 * stop, by workers as they go idle ({@link #pruneWhenIdle}, under the list's lock), and by that
 * sweep too. A list that kept more than {@value #FIRST_PRUNE} cells is pruned at an idle moment
 * once it has grown by half, or, by the sweep, once about half as many listed cells finished
 * ({@link #pruneWhenSwept}).
 *
 * <p>At shutdown every worker has exited, so the worker lists are stable and their plain writes
 * visible (each worker's exit happens-before the last one's {@code cancelRemaining}); the
 * outside list is read under its lock.
 *
 * <p>{@link AsyncRuntime#busiestTasks} walks the lists while their owners change them. That is
 * safe, if approximate: the head is stored with release and read with acquire, so every cell
 * reached from it is seen constructed, and a {@code nextLive} link, whatever write of it the
 * walker sees, points to a cell added before the one holding it (adds only prepend, and
 * pruning keeps the order), so the walk ends and reaches only published cells. A walk during a
 * pruning may stop early at a link the pruning has cleared and not yet reset.
 */
final class LiveTasks {

    private static final VarHandle HEAD;

    static {
        try {
            HEAD = MethodHandles.lookup().findVarHandle(LiveTasks.class, "head", TaskCell.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Minimum length before a list is pruned. */
    private static final int FIRST_PRUNE = 64;

    private TaskCell<?> head;
    private int length;
    /** Cells kept by the last pruning. */
    private int kept;
    private int pruneAt = FIRST_PRUNE;
    /** The runtime's count of listed cells finished when {@link #pruneWhenSwept} last pruned. */
    private long finishedAtSweep;

    /** Adds a cell; owner only (or under the caller's lock). */
    void add(TaskCell<?> c) {
        c.nextLive = head;
        HEAD.setRelease(this, c);              // for walkers on other threads, see above
        if (++length >= pruneAt) {
            prune();
        }
    }

    /**
     * Prunes if cells were added since the last pruning, at least half as many as it kept; for
     * an idle worker's turn at the list of spawns from outside (under its lock), which its
     * spawners prune only while they keep spawning. Still amortised O(1) per spawn: a pruning
     * walks the kept cells and those added since, at most three times what was added.
     */
    void pruneIfGrown() {
        pruneIfGrownBy(1);
    }

    /**
     * The growth rule: prunes once the cells added since the last pruning are at least
     * {@code least} and at least half the kept ones. The growth condition keeps the cost amortised
     * O(1) per spawn even when many tasks stay pending (idle connections) and workers park often.
     */
    private void pruneIfGrownBy(int least) {
        if (length - kept >= Math.max(least, kept / 2)) {
            prune();
        }
    }

    /**
     * An idle worker's turn at its own list, and at the list of spawns from outside (under that
     * list's lock): a list of at most {@value #FIRST_PRUNE} kept cells is pruned whenever it is
     * not empty (a short walk, so done cells, and the results they hold, go at the first idle
     * moment after they finish, even if no cell was added since the last pruning); a longer one
     * only by {@link #pruneIfGrown}'s growth rule, so that cells that stay pending (idle
     * connections) are not walked at every park.
     */
    void pruneWhenIdle() {
        if (length > 0 && kept <= FIRST_PRUNE) {
            prune();
        } else {
            pruneIfGrown();
        }
    }

    /**
     * The idle sweep's turn at the list ({@link AsyncRuntime#sweepListsIfIdle}, every worker
     * parked): as {@link #pruneWhenIdle}, and also once the listed cells finished since this
     * list's last such pruning, counted runtime-wide, are at least half the cells it kept. The
     * growth rule alone never pruned a list that kept more than {@value #FIRST_PRUNE} cells
     * pending and saw them all finish with no spawn after: 200 tasks spawned together, each
     * waiting for one signal, kept their cells and results listed, and so reachable, for as
     * long as the runtime idled. A pruning so walks at most about three times as many cells as
     * finished since the last, amortised O(1) per finished cell, and a list of cells that stay
     * pending is not walked unless about half as many other listed cells finished meanwhile.
     *
     * @param finished the runtime's count of listed cells finished so far
     */
    void pruneWhenSwept(long finished) {
        if (finished - finishedAtSweep >= Math.max(1, kept / 2)) {
            prune();
            finishedAtSweep = finished;
        } else {
            pruneWhenIdle();
        }
    }

    /** Whether cells were added since the last pruning; unlocked, so only a hint (and for tests). */
    boolean mayHaveGrown() {
        return length != kept;
    }

    /**
     * Whether {@link #pruneWhenIdle} may prune; an unlocked read of fields guarded by a lock, so
     * only a hint for whether to take it.
     */
    boolean mayPruneWhenIdle() {
        return length != kept || (length > 0 && kept <= FIRST_PRUNE);
    }

    private void prune() {
        TaskCell<?> keptHead = null;
        TaskCell<?> tail = null;
        int n = 0;
        for (TaskCell<?> c = head; c != null; ) {
            TaskCell<?> next = c.nextLive;
            if (c.state() == TaskCell.DONE) {
                c.nextLive = null;
            } else {
                if (tail == null) {
                    keptHead = c;
                } else {
                    tail.nextLive = c;
                }
                tail = c;
                c.nextLive = null;
                n++;
            }
            c = next;
        }
        HEAD.setRelease(this, keptHead);
        length = n;
        this.kept = n;
        pruneAt = Math.max(FIRST_PRUNE, 2 * n);
    }

    /**
     * Drops every cell; at shutdown, once each has been failed or was done. A closed runtime may
     * stay reachable (a service keeps it in a field), and its lists would otherwise keep the
     * finished cells not yet pruned, and their results, for as long as it does.
     */
    void clear() {
        for (TaskCell<?> c = head; c != null; ) {
            TaskCell<?> next = c.nextLive;
            c.nextLive = null;
            c = next;
        }
        HEAD.setRelease(this, null);
        length = 0;
        kept = 0;
        pruneAt = FIRST_PRUNE;
    }

    /** Cells in the list, done ones not yet pruned included. */
    int length() {
        return length;
    }

    /**
     * Calls {@code action} for every cell not done, examining at most {@code limit} cells; at
     * shutdown once the list is stable, or from any thread as a racy walk (see above).
     *
     * @return the cells examined, done ones included
     */
    int forEachNotDone(int limit, Consumer<TaskCell<?>> action) {
        int examined = 0;
        for (TaskCell<?> c = (TaskCell<?>) HEAD.getAcquire(this); c != null && examined < limit;
                c = c.nextLive) {
            examined++;
            if (c.state() != TaskCell.DONE) {
                action.accept(c);
            }
        }
        return examined;
    }
}
