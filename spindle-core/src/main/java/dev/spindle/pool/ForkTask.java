/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import dev.spindle.Task;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * A spawned computation of a {@link WorkStealingPool}: the {@link Task} users hold and the
 * {@link Runnable} the queues carry.
 *
 * <p>State moves once from {@code NEW} through {@code RUNNING} to one of the final states, by
 * CAS, so the computation runs at most once even if the task is queued or run twice. The
 * runner claims completion with a CAS to {@code COMPLETING}, writes the outcome, and publishes
 * the final state with a release store; a reader that sees a final state sees its outcome.
 * Cancellation with interrupt
 * goes through {@code INTERRUPTING} so the interrupt can only hit the thread while it still runs
 * this task, never a later one.
 *
 * <p>Waiting threads push themselves on a Treiber stack and park; completion takes the whole
 * stack and unparks them. A {@link CompletableFuture} view is created on demand and pushed on
 * the same stack, so a task that nobody observes that way carries no field for it.
 *
 * <p>Two kinds share this class: tasks made from a {@link Callable} by
 * {@link WorkStealingPool#spawn(Callable)} (the callable sits in {@code payload} until the run),
 * and {@link ComputeTask} subclasses, whose {@code compute()} is the computation and whose pool
 * is bound when they are forked.
 */
class ForkTask<T> implements Task<T>, RunnableFuture<T> {

    static final int NEW = 0;
    static final int RUNNING = 1;
    static final int COMPLETING = 2;
    static final int NORMAL = 3;
    static final int EXCEPTIONAL = 4;
    static final int CANCELLED = 5;
    static final int INTERRUPTING = 6;
    static final int INTERRUPTED = 7;

    private static final VarHandle STATE;
    private static final VarHandle WAITERS;
    private static final VarHandle PAYLOAD;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            STATE = l.findVarHandle(ForkTask.class, "state", int.class);
            WAITERS = l.findVarHandle(ForkTask.class, "waiters", WaitNode.class);
            PAYLOAD = l.findVarHandle(ForkTask.class, "payload", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * The pool that runs the task: final in spirit, set before the task is published (by
     * construction, or by {@link #bind} when a {@link ComputeTask} is forked).
     */
    WorkStealingPool pool;
    /**
     * The task that was running on the spawning worker, or {@code null}; cleared on completion
     * so finished tasks do not keep their ancestors reachable. Joiners use it to recognise
     * descendants of the task they wait for (see {@code Worker.helpJoin}).
     */
    ForkTask<?> parent;
    private volatile int state;
    /**
     * One field through the task's life, so the hot path writes few references: the
     * {@link Callable} while {@code NEW}; the running {@link Thread} while {@code RUNNING}
     * (published with release, for a canceller that interrupts); the value or the exception once
     * completed (written in {@code COMPLETING}, before the final state is published).
     */
    private Object payload;
    /** Threads waiting for completion and {@link CompletableFuture} views, as a stack. */
    private volatile WaitNode waiters;

    ForkTask(WorkStealingPool pool, Callable<? extends T> callable, ForkTask<?> parent) {
        this.pool = pool;
        this.payload = callable;
        this.parent = parent;
    }

    /** For {@link ComputeTask}: no callable; the pool is bound at fork. */
    ForkTask() {
    }

    /** The computation of a task without a callable; {@link ComputeTask} makes it abstract. */
    T compute() throws Exception {
        throw new IllegalStateException("a task needs a callable or an overridden compute()");
    }

    /**
     * Binds a not yet forked task to {@code pool}, with {@code parent} as its spawning frame.
     *
     * @throws IllegalStateException if it was forked, spawned or run before
     */
    final void bind(WorkStealingPool pool, ForkTask<?> parent) {
        if (this.pool != null || state != NEW) {
            throw new IllegalStateException("a task can be forked once; " + this + " already was, or ran");
        }
        this.pool = pool;
        this.parent = parent;
    }

    /** Whether {@code r} is a task spawned, directly or not, by {@code ancestor}. */
    static boolean descendsFrom(Runnable r, ForkTask<?> ancestor) {
        if (!(r instanceof ForkTask<?> f)) {
            return false;
        }
        ForkTask<?> p = f.parent;
        for (int depth = 0; p != null && depth < MAX_ANCESTRY_WALK; depth++) {
            if (p == ancestor) {
                return true;
            }
            p = p.parent;
        }
        return false;
    }

    /** Bound on the ancestry walk; deeper descendants are simply not helped with. */
    static final int MAX_ANCESTRY_WALK = 1024;

    // ------------------------------------------------------------------ running

    @Override
    public void run() {
        tryRun();
    }

    /**
     * Runs the computation unless it already started or was cancelled. A task can be reached
     * twice (from its queue, and by a joiner that runs it inline); the CAS lets only the first
     * run it.
     *
     * @return whether this call ran the computation
     */
    @SuppressWarnings("unchecked")
    boolean tryRun() {
        if (state != NEW || !STATE.compareAndSet(this, NEW, RUNNING)) {
            return false;
        }
        Callable<? extends T> c = (Callable<? extends T>) payload;
        PAYLOAD.setRelease(this, Thread.currentThread());
        try {
            T v = c != null ? c.call() : compute();
            complete(NORMAL, v);
        } catch (Throwable ex) {
            complete(EXCEPTIONAL, ex);
        } finally {
            if (state >= INTERRUPTING) {
                awaitCancelInterrupt();        // the canceller still reads the runner
            }
        }
        return true;
    }

    /** Publishes the outcome unless the task was cancelled while running (then it is dropped). */
    private void complete(int finalState, Object result) {
        if (STATE.compareAndSet(this, RUNNING, COMPLETING)) {
            payload = result;
            STATE.setRelease(this, finalState);
            finish();
        }
    }

    private void awaitCancelInterrupt() {
        while (state == INTERRUPTING) {
            Thread.onSpinWait();
        }
    }

    private void finish() {
        parent = null;
        for (WaitNode q; (q = waiters) != null; ) {
            if (WAITERS.compareAndSet(this, q, null)) {
                for (; q != null; q = q.next) {
                    if (q.view != null) {
                        completeView(q.view);
                    }
                    Thread t = q.thread;
                    if (t != null) {
                        q.thread = null;
                        LockSupport.unpark(t);
                    }
                }
                break;
            }
        }
    }

    @SuppressWarnings("unchecked")
    private void completeView(CompletableFuture<?> view) {
        CompletableFuture<T> v = (CompletableFuture<T>) view;
        int s = state;
        if (s == NORMAL) {
            v.complete((T) payload);
        } else if (s == EXCEPTIONAL) {
            v.completeExceptionally((Throwable) payload);
        } else if (s >= CANCELLED) {
            v.completeExceptionally(new CancellationException("task was cancelled"));
        }
    }

    // ------------------------------------------------------------------ Future

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        for (;;) {
            int s = state;
            if (s >= NORMAL) {
                return false;
            }
            if (s == COMPLETING) {
                Thread.onSpinWait();           // an outcome is being published: it wins
                continue;
            }
            int next = (mayInterruptIfRunning && s == RUNNING) ? INTERRUPTING : CANCELLED;
            if (STATE.compareAndSet(this, s, next)) {
                if (s == NEW) {
                    payload = null;            // nobody will run it: release the callable
                }
                if (next == INTERRUPTING) {
                    try {
                        // The runner publishes itself right after winning NEW -> RUNNING, and
                        // its outcome can no longer replace it (RUNNING -> COMPLETING fails
                        // now), so this wait is short and ends.
                        Object r;
                        while (!((r = PAYLOAD.getAcquire(this)) instanceof Thread)) {
                            Thread.onSpinWait();
                        }
                        ((Thread) r).interrupt();
                    } finally {
                        STATE.setRelease(this, INTERRUPTED);
                    }
                }
                finish();
                return true;
            }
        }
    }

    @Override
    public boolean isCancelled() {
        return state >= CANCELLED;
    }

    @Override
    public boolean isDone() {
        return state >= NORMAL;
    }

    /** Whether the computation has not started and the task was not cancelled. */
    boolean isNew() {
        return state == NEW;
    }

    @Override
    public T join() {
        if (state < NORMAL) {
            boundPool().awaitDone(this);
        }
        return reportJoin();
    }

    /** The pool, or an exception saying why a task that was never forked cannot be awaited. */
    private WorkStealingPool boundPool() {
        WorkStealingPool p = pool;
        if (p == null) {
            throw new IllegalStateException("the task was never forked, spawned or invoked, so nothing will run it");
        }
        return p;
    }

    @Override
    public T get() throws InterruptedException, ExecutionException {
        if (state < NORMAL) {
            if (boundPool().isWorkerOfThisPool()) {
                pool.awaitDone(this);
            } else {
                awaitBlocking(false, 0L);
            }
        }
        return reportGet();
    }

    @Override
    public T get(long timeout, TimeUnit unit)
            throws InterruptedException, ExecutionException, TimeoutException {
        long nanos = unit.toNanos(timeout);
        if (state < NORMAL) {
            boundPool();
        }
        if (state < NORMAL && !awaitBlocking(true, nanos)) {
            throw new TimeoutException("task not completed within " + timeout + " " + unit);
        }
        return reportGet();
    }

    @Override
    public CompletableFuture<T> toCompletableFuture() {
        CompletableFuture<T> v = new CompletableFuture<>();
        if (state < NORMAL) {
            WaitNode node = new WaitNode(null);
            node.view = v;
            WaitNode h;
            do {
                h = waiters;
                node.next = h;
            } while (!WAITERS.compareAndSet(this, h, node));
        }
        if (state >= NORMAL) {
            completeView(v);                   // idempotent; covers a race with finish()
        }
        return v;
    }

    @SuppressWarnings("unchecked")
    private T reportJoin() {
        int s = state;
        if (s == NORMAL) {
            return (T) payload;
        }
        if (s == EXCEPTIONAL) {
            Throwable ex = (Throwable) payload;
            throw ex instanceof CompletionException ce ? ce : new CompletionException(ex);
        }
        throw new CancellationException("task was cancelled");
    }

    @SuppressWarnings("unchecked")
    private T reportGet() throws ExecutionException {
        int s = state;
        if (s == NORMAL) {
            return (T) payload;
        }
        if (s == EXCEPTIONAL) {
            throw new ExecutionException((Throwable) payload);
        }
        throw new CancellationException("task was cancelled");
    }

    // ------------------------------------------------------------------ waiting

    /**
     * Parks the calling thread until the task completes, the deadline passes ({@code timed}),
     * or, for {@code get}, the thread is interrupted.
     *
     * @return whether the task completed
     */
    boolean awaitBlocking(boolean timed, long nanos) throws InterruptedException {
        long deadline = timed ? System.nanoTime() + nanos : 0L;
        WaitNode node = null;
        boolean queued = false;
        for (;;) {
            if (state >= NORMAL) {
                if (node != null) {
                    node.thread = null;
                }
                return true;
            }
            if (Thread.interrupted()) {
                if (node != null) {
                    node.thread = null;
                }
                throw new InterruptedException();
            }
            if (node == null) {
                if (timed && nanos <= 0L) {
                    return false;
                }
                node = new WaitNode(Thread.currentThread());
            } else if (!queued) {
                WaitNode h = waiters;
                node.next = h;
                queued = WAITERS.compareAndSet(this, h, node);
            } else if (timed) {
                long left = deadline - System.nanoTime();
                if (left <= 0L) {
                    node.thread = null;
                    return state >= NORMAL;
                }
                LockSupport.parkNanos(this, left);
            } else {
                LockSupport.park(this);
            }
        }
    }

    /**
     * Registers the calling thread to be unparked when the task completes. A helping worker
     * registers once, then alternates between looking for other work and
     * {@link #parkBriefly(long) parking briefly}.
     */
    WaitNode addWaiter() {
        WaitNode node = new WaitNode(Thread.currentThread());
        WaitNode h;
        do {
            h = waiters;
            node.next = h;
        } while (!WAITERS.compareAndSet(this, h, node));
        return node;
    }

    /** Parks until the task completes or {@code nanos} pass, ignoring interrupts. */
    void parkBriefly(long nanos) {
        if (state < NORMAL) {
            LockSupport.parkNanos(this, nanos);
        }
    }

    /** A parked waiter; its thread is nulled once it no longer needs waking. */
    static final class WaitNode {
        volatile Thread thread;
        /** Or, instead of a thread, a view to complete. */
        CompletableFuture<?> view;
        WaitNode next;

        WaitNode(Thread thread) {
            this.thread = thread;
        }
    }

    @Override
    public String toString() {
        String s = switch (state) {
            case NEW -> "not started";
            case RUNNING, COMPLETING -> "running";
            case NORMAL -> "completed normally";
            case EXCEPTIONAL -> "completed exceptionally: " + payload;
            default -> "cancelled";
        };
        return "Task[" + s + "]";
    }
}
