/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import dev.spindle.queue.Injector;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Consumer;

/**
 * The scheduled cells that no queue could take: where a cell goes when the {@link Injector} it
 * was offered to (a worker's wake channel, the runtime's injector) could not grow.
 *
 * <p><b>Why.</b> A cell is moved to {@code SCHEDULED} first (by the wake-up, cancel, spawn or
 * poll that claims its one queue entry, see {@link TaskCell}) and offered to a queue after. An
 * injector allocates a segment every 1,024 cells, and an {@link OutOfMemoryError} from that
 * allocation left the cell scheduled and in no queue: every later wake-up found it scheduled and
 * queued nothing, so its task was never polled again and its handle never completed (until a
 * shutdown), while whoever woke it (a promise's {@code complete}, a channel's send) had
 * succeeded; a cancelled cell was never retired, so its task was never withdrawn, and a receive
 * it waited in took the next value sent, for nobody (WakeThatCannotBeQueuedTest). Such a cell
 * comes here instead, and runs as if the queue had taken it.
 *
 * <p><b>How.</b> A Treiber stack linked through the cells themselves ({@code
 * TaskCell.nextStranded}), so a push allocates nothing and cannot fail. Each cell is in it at most
 * once: it comes with its one queue entry, which the offer that failed did not place. A push is
 * a CAS of the top (the link written before it, published by it); {@link #take} swaps the whole
 * stack out (so no ABA: nothing pops one cell while another thread pushes it back), keeps the
 * first and pushes the rest back as one chain. The order among stranded cells is not kept: they
 * are the rare cells of a heap that was full. Whoever pushes then wakes a worker, and the workers
 * look here as they look at the injector: before they park (it counts as visible work), when
 * the injector is empty, and at their periodic look at what came from outside, one volatile read
 * each time, so a busy worker's usual path does not read it. Shutdown collects what is left.
 */
final class StrandedCells {

    private static final VarHandle TOP;

    static {
        try {
            TOP = MethodHandles.lookup().findVarHandle(StrandedCells.class, "top", TaskCell.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The newest stranded cell, or {@code null}; accessed through {@link #TOP} but for reads. */
    @SuppressWarnings("unused")
    private volatile TaskCell<?> top;

    /**
     * Offers {@code c} to {@code q}, or keeps it here if {@code q} cannot grow.
     * Only an {@link OutOfMemoryError} is caught: the one failure an offer can have (its
     * segment's allocation), and it comes before the cell is placed, so the cell is in exactly
     * one of the two.
     *
     * @return {@code null} if {@code q} took the cell; else the error of the offer, the cell kept
     *     here (the caller then wakes a worker for it)
     */
    OutOfMemoryError offer(Injector<TaskCell<?>> q, TaskCell<?> c) {
        try {
            q.offer(c);
            return null;
        } catch (OutOfMemoryError e) {
            push(c, c);
            return e;
        }
    }

    /** Whether no cell is stranded now (a volatile read). */
    boolean isEmpty() {
        return top == null;
    }

    /** A stranded cell to run, or {@code null} if there is none. */
    TaskCell<?> take() {
        if (top == null) {
            return null;                       // the usual answer: one volatile read
        }
        TaskCell<?> first = (TaskCell<?>) TOP.getAndSet(this, (TaskCell<?>) null);
        if (first == null) {
            return null;
        }
        TaskCell<?> rest = first.nextStranded;
        first.nextStranded = null;
        if (rest != null) {
            TaskCell<?> last = rest;
            while (last.nextStranded != null) {
                last = last.nextStranded;
            }
            push(rest, last);
        }
        return first;
    }

    /** For shutdown: hands every stranded cell to {@code action}, leaving none. */
    void drain(Consumer<TaskCell<?>> action) {
        TaskCell<?> c = (TaskCell<?>) TOP.getAndSet(this, (TaskCell<?>) null);
        while (c != null) {
            TaskCell<?> next = c.nextStranded;
            c.nextStranded = null;
            action.accept(c);
            c = next;
        }
    }

    /** Pushes the chain from {@code first} to {@code last} (linked through nextStranded). */
    private void push(TaskCell<?> first, TaskCell<?> last) {
        for (;;) {
            TaskCell<?> t = top;
            last.nextStranded = t;             // before the CAS that publishes it
            if (TOP.compareAndSet(this, t, first)) {
                return;
            }
        }
    }
}
