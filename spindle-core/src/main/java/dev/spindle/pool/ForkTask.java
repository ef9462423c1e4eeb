/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import dev.spindle.Task;
import dev.spindle.internal.Strays;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
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
 * Cancellation with interrupt goes through {@code INTERRUPTING} so the interrupt can only hit
 * the thread while it still runs this task, never a later one; a pool worker that ran it then
 * clears it as the run ends (see {@link #consumeCancelInterrupt}).
 *
 * <p><b>Handed back by {@code shutdownNow}.</b> A task taken from a queue by
 * {@link WorkStealingPool#shutdownNow()} is claimed with a CAS from {@code NEW} to
 * {@code HANDED_BACK} before it goes into the returned list, and one whose CAS fails (a joiner
 * started it inline, or it was cancelled) is left out. Checking {@code NEW} without claiming was
 * not enough: a joiner may run the task it awaits by reference while it is still queued (its
 * queued entry is then skipped), so it could win {@code NEW -> RUNNING} after the drain had
 * seen {@code NEW}, and the task both ran and was returned as never started. The pool's
 * workers run only {@code NEW} tasks ({@link #tryRun}), so a handed-back task runs only if
 * whoever holds the list calls {@link #run()}, or gives it to a Spindle pool's {@code execute}
 * or {@code submit}, either of which first moves it back to {@code NEW} ({@link #reclaim}); it
 * can also be cancelled. {@code HANDED_BACK} is below {@code NEW}, so every test of the
 * form "not yet completed" ({@code state < NORMAL}) holds for it unchanged.
 *
 * <p><b>Completion against a waiter registering.</b> A waiter pushes its node on
 * {@code waiters} (a CAS) and then reads {@code state}; the runner must not miss a node whose
 * waiter then parks. The runner therefore reads {@code waiters} right after its CAS to
 * {@code COMPLETING}, not after the final release store: a release store followed by a load is
 * the one pair x86 (and the JMM, for a release store) may reorder, and the load could then miss
 * a node whose waiter still read {@code RUNNING} (jcstress: {@code ForkTaskCompletionTests}).
 * Each side then does a CAS followed by a volatile read, and those are totally ordered: either the
 * runner's read sees the node (it unparks the waiter once the outcome is published), or the
 * waiter's read comes later and sees {@code COMPLETING} or a final state. A waiter treats
 * {@code COMPLETING} as the end of its wait ({@link #waitIsOver}) and spins the few
 * instructions until the final state, instead of parking. A canceller's CAS publishes a final
 * state directly and reads {@code waiters} after it, with the same argument. A node pushed
 * after the runner's read stays on the stack, its thread cleared by its waiter: garbage that
 * lives as long as the task, never a missed wake-up. (A runner descheduled inside those few
 * instructions keeps its waiters spinning until it runs again; they were waiting for it anyway.)
 *
 * <p>Waiting threads push themselves on a Treiber stack and park; completion takes the whole
 * stack and unparks them. A {@link CompletableFuture} view is created on demand and pushed on
 * the same stack, so a task that nobody observes that way carries no field for it. The stack
 * is {@code null} while nobody waits, which is almost always: completion then reads it once
 * and does no atomic operation.
 *
 * <p>Two kinds share this class: tasks made from a {@link Callable} by
 * {@link WorkStealingPool#spawn(Callable)} (the callable sits in {@code payload} until the run;
 * one that is itself a {@link Thread} sits there wrapped, so that only a runner is a thread),
 * and {@link ComputeTask} subclasses, whose {@code compute()} is the computation and which hold
 * the marker {@link #UNFORKED} in {@code payload} until forked.
 *
 * <p><b>A task does not know its pool.</b> A joiner waits in the way its own thread calls for
 * (see {@link #join}): a worker of a {@link WorkStealingPool} helps in
 * its pool, a worker of another Spindle pool lets that pool compensate, and any other thread
 * parks. So nothing is written into the task for its pool when it is forked, and a task that
 * is run by {@link ComputeTask#invoke()} (it has no pool) is waited for like any other. The
 * object has four fields of its own, the same 32 bytes with compressed references as FJP's task
 * with its result, so that a {@code ComputeTask} with one field of its own is as small as a
 * {@code RecursiveTask} with one.
 */
class ForkTask<T> implements Task<T>, RunnableFuture<T> {

    /** Taken from a queue and returned by {@code shutdownNow}; see the class overview. */
    static final int HANDED_BACK = -1;
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
    /**
     * Threads waiting for completion and {@link CompletableFuture} views, as a stack of
     * {@link WaitNode}s; {@code null} while nobody waits.
     */
    private volatile WaitNode waiters;

    /** {@code payload} of a {@link ComputeTask} that was not forked (nor started) yet. */
    static final Object UNFORKED = new Object();

    /**
     * The {@code parent} of a task a {@link PinnedPool}, {@link PriorityPool} or
     * {@link WorkSharingPool} accepted ({@link #prepareToQueue}): the task must run on the worker
     * it went to (a pinned pool's), or at least on a worker of that pool, ordered by its queues
     * and counted by its shutdown, so no joiner runs it by reference
     * ({@link #isPinned}; see {@code Worker.helpJoin}). A marker, never run or queued; an
     * ancestry walk ({@link #descendsFrom}) ends at it, as it has no parent.
     */
    static final ForkTask<Void> PINNED = new ForkTask<>(() -> null, null);

    ForkTask(Callable<? extends T> callable, ForkTask<?> parent) {
        if (callable instanceof Thread) {
            // held as it is, a callable that is a Thread passed in payload for the runner before
            // the runner had published itself: a cancel(true) then interrupted the callable's
            // thread, not the runner's, and runnerHint named it. Wrapped, only a runner is a Thread
            Callable<T> c = callable::call;
            this.payload = c;
        } else {
            this.payload = callable;
        }
        this.parent = parent;
    }

    /** For {@link ComputeTask}: no callable; marked unforked until {@link #bind}. */
    ForkTask() {
        this.payload = UNFORKED;
    }

    /** The computation of a task without a callable; {@link ComputeTask} makes it abstract. */
    T compute() throws Exception {
        throw new IllegalStateException("a task needs a callable or an overridden compute()");
    }

    /**
     * Marks a not yet forked task as forked, with {@code parent} as its spawning frame. Waiters
     * and views registered before are kept: forking writes nothing into {@code waiters}.
     *
     * @throws IllegalStateException if it was forked, spawned or run before
     * @throws CancellationException if it was cancelled before anything started it
     */
    final void bind(ForkTask<?> parent) {
        if (payload != UNFORKED || state != NEW) {
            throw notBindable();
        }
        this.payload = null;
        this.parent = parent;
    }

    /**
     * Why {@link #bind} refuses: a task cancelled before it was ever forked, spawned or run
     * ({@link #cancel} keeps {@link #UNFORKED} for it) has the cancellation as its outcome, which
     * starting it reports as its {@code join()} does; an {@link IllegalStateException} said it
     * "already was [forked], or ran", which it never was. Any other task was started before.
     * Out of {@link #bind}, which every fork runs, to keep that path as small as it was.
     */
    private RuntimeException notBindable() {
        if (payload == UNFORKED && state >= CANCELLED) {
            return new CancellationException("the task was cancelled before it was started");
        }
        return new IllegalStateException("a task can be forked once; " + this + " already was, or ran");
    }

    /** What {@link #prepareToQueue} did: nothing. */
    static final int KEPT = 0;
    /** What {@link #prepareToQueue} did: bound a {@link ComputeTask} that was not started. */
    static final int BOUND = 1;
    /** What {@link #prepareToQueue} did: moved a task {@code shutdownNow} handed back to {@code NEW}. */
    static final int RECLAIMED = 2;

    /**
     * For a pool that is given {@code task} by {@code execute} or {@code submit} and will run it
     * (its workers, or the future {@code submit} returns, call {@link #run}): a
     * {@link ComputeTask} not started yet is marked forked, with {@code parent}, as
     * {@code spawn} marks it; a task that {@code shutdownNow} handed back is {@code NEW} again
     * ({@link #reclaim}). Left as they were while they waited in the queue, the first's
     * {@code get} and {@code join} threw "never forked ... nothing will run it" (and it could be
     * started a second time), and the second's join threw "shutdownNow() returned it not
     * started", though both were about to run (and a {@link WorkStealingPool}'s workers skipped
     * the second). If the pool refuses the task after this, {@link #undoPrepareToQueue} undoes it.
     * A {@link PinnedPool}, {@link PriorityPool} or {@link WorkSharingPool} gives {@link #PINNED}
     * as {@code parent}, and a handed-back task is pinned again, or no longer, as the pool it goes
     * to now says.
     *
     * @return {@link #KEPT}, {@link #BOUND} or {@link #RECLAIMED}, for {@link #undoPrepareToQueue}
     */
    static int prepareToQueue(Runnable task, ForkTask<?> parent) {
        if (!(task instanceof ForkTask<?> f)) {
            return KEPT;
        }
        if (f.isUnforked()) {                  // a ComputeTask: nothing else is ever unforked
            f.bind(parent);
            return BOUND;
        }
        if (!f.reclaim()) {
            return KEPT;
        }
        if (parent == PINNED || f.parent == PINNED) {
            f.parent = parent;                 // pinned where it goes now, and only there
        }
        return RECLAIMED;
    }

    /**
     * Run by a pool just before it offers to a queue a task that {@link #prepareToQueue} bound or
     * reclaimed, if set: a seam for tests, which throw from it what a full heap throws there.
     */
    static volatile Runnable beforePreparedOffer;

    /** Runs {@link #beforePreparedOffer}, if set, for a task {@link #prepareToQueue} changed. */
    static void beforeOffer(int prepared) {
        if (prepared != KEPT) {
            Runnable hook = beforePreparedOffer;
            if (hook != null) {
                hook.run();
            }
        }
    }

    /**
     * Undoes {@link #prepareToQueue} for a task the pool refused ({@code RejectedExecutionException}),
     * or could not queue (the offer threw, an {@link OutOfMemoryError} for a queue's segment):
     * an unbound task can be spawned elsewhere, and one handed back again ends its joins and can
     * be run by the holder of {@code shutdownNow}'s list, where, left {@code NEW}, it looked
     * queued and its joins waited for ever. Only for a task in no queue: one a worker may take
     * must stay as it is.
     */
    static void undoPrepareToQueue(Runnable task, int prepared) {
        if (prepared == BOUND) {
            ((ForkTask<?>) task).unbind();
        } else if (prepared == RECLAIMED) {
            ForkTask<?> f = (ForkTask<?>) task;
            if (f.isUnforked()) {
                f.payload = null;              // bound since its spawn; a refused fork unbound it
            }
            f.tryHandBack();                   // fails only if a joiner has run it meanwhile
        }
    }

    /**
     * Undoes {@link #bind} for a task whose pool refused it ({@code RejectedExecutionException}),
     * or failed to queue it (the offer threw), before queueing it anywhere: nothing will run it,
     * so it is unforked again. Left bound, it
     * looked started: its {@code join()} waited for ever instead of throwing, as it does for a
     * task never started, and it could not be spawned on another pool.
     */
    final void unbind() {
        if (state == NEW && payload == null) {
            this.payload = UNFORKED;
            this.parent = null;
        }
    }

    /**
     * Any thread, racy: the thread running this task, or {@code null} if it is not running (or
     * its runner has not published itself yet). A hint for joiners that follow the runner (see
     * {@code Worker.helpJoin}); whatever they take on its strength is checked again.
     */
    final Thread runnerHint() {
        return state == RUNNING && PAYLOAD.getOpaque(this) instanceof Thread t ? t : null;
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

    /**
     * Runs the computation unless it already started or was cancelled; a task that
     * {@code shutdownNow} handed back is run by its caller this way (see the class overview).
     */
    @Override
    public void run() {
        reclaim();
        tryRun();
    }

    /**
     * Moves a task that {@code shutdownNow} handed back to {@code NEW} again, for its holder to
     * run it ({@link #run}) or to give it to a pool whose workers run it ({@code tryRun}, which
     * runs only {@code NEW} tasks). Nothing else moves it out of {@code HANDED_BACK}, so only the
     * list's holder does this.
     *
     * @return whether the task was handed back and is {@code NEW} now
     */
    final boolean reclaim() {
        return state == HANDED_BACK && STATE.compareAndSet(this, HANDED_BACK, NEW);
    }

    /**
     * For every pool's {@code shutdownNow}: whether {@code r}, taken from a queue, goes into the
     * returned list: any task but a fork task, and a fork task only once {@link #tryHandBack}
     * claimed it (one a joiner ran or that was cancelled meanwhile is left out).
     */
    static boolean handBackIfFork(Runnable r) {
        if (r instanceof ForkTask<?> f) {
            if (!f.tryHandBack()) {
                return false;
            }
            if (f instanceof Submitted<?> s) {
                s.owned.handBack();            // runs only through f: handed back with it
            }
            return true;
        }
        if (r instanceof CompensatingExecutorService.CompensatingFuture<?> cf && cf.owned != null) {
            cf.owned.handBack();               // runs only through cf: handed back with it
        }
        return true;
    }

    /**
     * How a future of {@code submit} that owns a task of this package ({@link Submitted},
     * {@code CompensatingExecutorService.CompensatingFuture}) runs it: only while it is
     * {@code NEW}, as a pool's workers run one, unless the future's own pool handed it back with
     * the future ({@link #handBackIfFork}), for the holder of the list to run it, as its
     * {@link #run()} does. A {@code run()} alone took it back from the {@code shutdownNow} of
     * another pool where it was queued too, which had returned it as not started and ended its
     * joins as cancelled: it ran all the same.
     */
    static final class OwnedRun implements Runnable {
        final ForkTask<?> fork;
        /** Set once the future's pool handed the task back with the future; read by its run. */
        private volatile boolean handedBack;

        OwnedRun(ForkTask<?> fork) {
            this.fork = fork;
        }

        /** The future's own pool hands the future back: the task too, if it has not started. */
        void handBack() {
            if (fork.tryHandBack()) {
                handedBack = true;
            }
        }

        @Override
        public void run() {
            if (handedBack) {
                fork.run();                    // the list's holder runs it: reclaimed first
            } else {
                fork.tryRun();
            }
        }

        @Override
        public String toString() {
            return fork.toString();            // what a future's toString shows of its task
        }
    }

    /**
     * The task a {@link WorkStealingPool}'s {@code submit} makes around a task of this package
     * ({@link #prepareToQueue} bound or reclaimed it, so it looks queued; one it kept as it was,
     * queued or started before, is hidden from {@code newTaskFor}, see
     * {@code CompensatingExecutorService.submit}): that task runs only through this one, so it
     * is cancelled and handed back with it; left as it was, its {@code join} waited for good.
     */
    static final class Submitted<T> extends ForkTask<T> {
        /** Runs the task (see {@link OwnedRun}); {@code callable} runs it. */
        final OwnedRun owned;

        Submitted(Callable<? extends T> callable, ForkTask<?> parent, OwnedRun owned) {
            super(callable, parent);
            this.owned = owned;
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            boolean cancelled = super.cancel(mayInterruptIfRunning);
            if (cancelled) {
                owned.fork.cancel(false);
            }
            return cancelled;
        }
    }

    /**
     * For {@code shutdownNow}'s drain: claims a task that has not started, so that no joiner
     * runs it inline once it is in the returned list (see the class overview).
     *
     * @return whether the task was {@code NEW} and is now handed back
     */
    boolean tryHandBack() {
        if (state != NEW || !STATE.compareAndSet(this, NEW, HANDED_BACK)) {
            return false;
        }
        // A thread outside the pool may be joining it: nothing will run it now unless the list's
        // holder does, so its join ends (see awaitBlocking). Wake it without taking its node, to
        // look at the state again; read after the CAS, as the runner reads the waiters (see the
        // class overview), so a joiner that pushed its node before is woken, and one that pushes
        // after sees HANDED_BACK.
        for (WaitNode n = waiters; n != null; n = n.next) {
            Thread t = n.thread;
            if (t != null) {
                LockSupport.unpark(t);
            }
        }
        return true;
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
        Object c = payload;
        PAYLOAD.setRelease(this, Thread.currentThread());
        T v;
        try {
            v = c instanceof Callable<?> callable ? (T) callable.call() : compute();
        } catch (Throwable ex) {
            complete(EXCEPTIONAL, ex);
            return true;
        }
        complete(NORMAL, v);                   // no try/finally: the join's fast path inlines
        return true;                           // this method, and a finally doubles its code
    }

    /**
     * Publishes the outcome unless the task was cancelled while running (then it is dropped).
     * {@code waiters} is read after the CAS and before the final state: see the class overview.
     */
    private void complete(int finalState, Object result) {
        if (STATE.compareAndSet(this, RUNNING, COMPLETING)) {
            WaitNode w = waiters;
            payload = result;
            parent = null;
            STATE.setRelease(this, finalState);
            if (w != null) {
                releaseWaiters();
            }
        } else if (state >= INTERRUPTING) {
            awaitCancelInterrupt();            // the canceller still reads the runner
            consumeCancelInterrupt();
        }
    }

    /**
     * On a pool worker that ran this task, which a {@code cancel(true)} interrupted: clears the
     * interrupt, which was for this run and is now over. The worker loop drops such an interrupt
     * before its next task anyway, but a worker that ran this task inside a join goes back to
     * the joining task, which nobody interrupted: its next wait threw
     * {@link InterruptedException}. Kept once the worker's pool stops, as {@code shutdownNow}'s
     * interrupt is (see {@link PoolCore}); a thread outside the pools keeps it, as with
     * {@link java.util.concurrent.FutureTask}.
     */
    private static void consumeCancelInterrupt() {
        BaseWorker w = PoolCore.workerOfCurrentThread();
        if (w != null && !w.core.isStopping()) {
            Thread.interrupted();
        }
    }

    /**
     * Whether a waiter that has registered may stop waiting instead of parking: the outcome is
     * published, or about to be ({@code COMPLETING}, which lasts a few instructions; the caller
     * spins through it). See the class overview for why a waiter must not park then.
     */
    final boolean waitIsOver() {
        return state >= COMPLETING;
    }

    /** Spins through {@code COMPLETING}: returns once the state is final. */
    private void awaitSettled() {
        while (state == COMPLETING) {
            Thread.onSpinWait();
        }
    }

    private void awaitCancelInterrupt() {
        while (state == INTERRUPTING) {
            Thread.onSpinWait();
        }
    }

    /** After a cancellation's CAS: releases the waiters (read after the CAS; see the overview). */
    private void finish() {
        parent = null;
        if (waiters != null) {
            releaseWaiters();
        }
    }

    /** Takes every node and completes or unparks it; the final state is published. */
    private void releaseWaiters() {
        for (WaitNode n = (WaitNode) WAITERS.getAndSet(this, null); n != null; n = n.next) {
            if (n.view != null) {
                completeView(n.view);
            }
            Thread t = n.thread;
            if (t != null) {
                n.thread = null;
                LockSupport.unpark(t);
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
            // A CancellationException the computation threw (a join of a cancelled subtask,
            // say) is its failure: this task is not cancelled, and its get() throws an
            // ExecutionException. Stored bare, it made the view report itself cancelled and its
            // get() throw the CancellationException; wrapped, as CompletableFuture's own async
            // stages store a computation's exception, the view answers as the task does.
            Throwable ex = (Throwable) payload;
            v.completeExceptionally(ex instanceof CancellationException ? new CompletionException(Strays.describe(ex), ex) : ex);
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
                if ((s == NEW || s == HANDED_BACK) && payload != UNFORKED) {
                    payload = null;            // nobody will run it: release the callable; the
                }                              // marker stays, for bind (see notBindable)
                try {
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
                } finally {
                    // also when the interrupt threw (it closes an interruptible channel the
                    // runner waits in, whose close may fail), as FutureTask does: skipped, the
                    // task read as cancelled while its waiters and views waited for good
                    finish();
                }
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

    /** Whether {@code shutdownNow} returned the task not started, and nobody ran it since. */
    final boolean isHandedBack() {
        return state == HANDED_BACK;
    }

    /** Whether this is a {@link ComputeTask} that was never forked, spawned, run nor cancelled. */
    final boolean isUnforked() {
        return payload == UNFORKED && state == NEW;
    }

    /** Whether the computation has not started and the task was not cancelled. */
    boolean isNew() {
        return state == NEW;
    }

    /**
     * Whether a {@link PinnedPool}, {@link PriorityPool} or {@link WorkSharingPool} accepted this
     * task not started yet ({@link #PINNED}): only that pool's workers (a pinned pool's: the
     * worker it was pinned to) may run it. A plain read, as a joiner's other reads of
     * {@code parent}: the pool writes it before it queues the task.
     */
    final boolean isPinned() {
        return parent == PINNED;
    }

    /** Whether the task completed, normally or not; {@link #isDone()} without its bridge in subclasses. */
    final boolean isFinal() {
        return state >= NORMAL;
    }

    /**
     * Waits in the way the calling thread calls for: a worker of a {@link WorkStealingPool}
     * helps in its own pool ({@code Worker.helpJoin}), any other thread goes to
     * {@link WorkStealingPool#awaitOutside}. The worker's help is called from here directly,
     * not through a helper: see "the JIT's inlining depth" in {@code Worker}.
     */
    @Override
    public T join() {
        if (state < NORMAL) {
            checkForked();
            if (PoolCore.workerOfCurrentThread() instanceof Worker w) {
                w.helpJoin(this);
            } else {
                WorkStealingPool.awaitOutside(this);
            }
        }
        return reportJoin();
    }

    /** Throws, saying why, if nothing will ever run this task: a ComputeTask never forked. */
    private void checkForked() {
        if (isUnforked()) {
            throw new IllegalStateException("the task was never forked, spawned or invoked, so nothing will run it");
        }
    }

    @Override
    public T get() throws InterruptedException, ExecutionException {
        if (state < NORMAL) {
            checkForked();
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            try {
                WorkStealingPool.awaitForGet(this, false, 0L);
            } catch (CancellationException e) {
                if (state < NORMAL) {
                    // the helping worker's pool stopped (shutdownNow) and nothing will run this
                    // task: as shutdownNow's interrupt would end a blocked get(), not as a
                    // cancellation of a task that is not cancelled (invokeAll swallows that one)
                    InterruptedException ie = new InterruptedException(e.getMessage());
                    ie.initCause(e);
                    throw ie;
                }
            }
        }
        return reportGet();
    }

    @Override
    public T get(long timeout, TimeUnit unit)
            throws InterruptedException, ExecutionException, TimeoutException {
        long nanos = Objects.requireNonNull(unit, "unit").toNanos(timeout);
        if (state < NORMAL) {
            checkForked();
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            boolean completed;
            try {
                completed = WorkStealingPool.awaitForGet(this, true, nanos);
            } catch (CancellationException e) {
                if (state >= NORMAL) {
                    return reportGet();
                }
                // the helping worker's pool stopped: as in get()
                InterruptedException ie = new InterruptedException(e.getMessage());
                ie.initCause(e);
                throw ie;
            }
            if (!completed) {
                throw new TimeoutException("task not completed within " + timeout + " " + unit);
            }
        }
        return reportGet();
    }

    @Override
    public CompletableFuture<T> toCompletableFuture() {
        CompletableFuture<T> v = new CompletableFuture<>();
        if (state < NORMAL) {
            WaitNode node = new WaitNode(v);
            WaitNode h;
            do {
                h = waiters;
                node.next = h;
            } while (!WAITERS.compareAndSet(this, h, node));
        }
        if (waitIsOver()) {
            awaitSettled();
            completeView(v);                   // idempotent; covers a race with the completion
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
            throw ex instanceof CompletionException ce ? ce : new CompletionException(Strays.describe(ex), ex);
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
            // a computation that failed by joining a failed task threw its CompletionException:
            // report the cause, as CompletableFuture.get() (and this task's view) does
            Throwable ex = (Throwable) payload;
            Throwable cause = ex instanceof CompletionException && ex.getCause() != null ? ex.getCause() : ex;
            throw new ExecutionException(Strays.describe(cause), cause);
        }
        throw new CancellationException("task was cancelled");
    }

    // ------------------------------------------------------------------ waiting

    /**
     * Parks the calling thread until the task completes, the deadline passes ({@code timed}),
     * or, for {@code get}, the thread is interrupted. With {@code forJoin}, the wait also ends
     * once {@code shutdownNow} has handed the task back: a join cannot be interrupted, and
     * nothing runs the task unless the holder of the returned list does, so it ends as a
     * worker's join ends when its pool stops, and as a {@link java.util.concurrent.ForkJoinPool}'s
     * does (whose {@code shutdownNow} cancels the tasks it drains). A {@code get}, which an
     * interrupt ends, goes on waiting for the holder, as one on a
     * {@link java.util.concurrent.ThreadPoolExecutor}'s future does.
     *
     * @return whether the task completed
     * @throws CancellationException with {@code forJoin}, if the task was handed back
     */
    boolean awaitBlocking(boolean timed, long nanos, boolean forJoin) throws InterruptedException {
        long deadline = timed ? System.nanoTime() + nanos : 0L;
        WaitNode node = null;
        boolean queued = false;
        for (;;) {
            if (waitIsOver()) {                // after the push: see the overview
                if (node != null) {
                    node.thread = null;
                }
                awaitSettled();
                return true;
            }
            if (forJoin && isHandedBack()) {   // after the push: see tryHandBack
                if (queued) {
                    removeWaiter(node);
                }
                throw new CancellationException("pool stopped before the awaited task completed;"
                        + " shutdownNow() returned it not started");
            }
            if (Thread.interrupted()) {
                if (queued) {
                    removeWaiter(node);
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
                    if (waitIsOver()) {
                        awaitSettled();
                        return true;
                    }
                    removeWaiter(node);
                    return false;
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
        if (!waitIsOver()) {
            LockSupport.parkNanos(this, nanos);
        }
    }

    /** Nodes on the waiter stack now, for tests; racy. */
    int waiterCount() {
        int n = 0;
        for (WaitNode q = waiters; q != null; q = q.next) {
            n++;
        }
        return n;
    }

    /**
     * Unlinks the nodes of waiters that gave up before the task completed (a timed-out or
     * interrupted {@code get}), {@code node} among them, as {@link java.util.concurrent.FutureTask}
     * does: without it each such node stayed on the stack until the task completed, so a task
     * that runs long and is polled with short timed gets grew it by a node per poll, without
     * bound. Called only by a waiter that gives up, never on completion or a join's path.
     *
     * <p>A node is removable once its thread is cleared and it carries no view; that is
     * permanent (a thread is cleared once, a view node never has one). A removal writes a
     * predecessor's {@code next} to a node further down, skipping removable nodes only, or
     * pops a removable head with a CAS (which fails if a push or the release changed the head).
     * {@code next} is plain: a racing remover may read, and write back, an older value, which
     * links removable nodes again but never skips a live one, since every value ever written
     * leads through removable nodes alone to the nodes below. The release ({@code getAndSet})
     * then wakes every live node and at most some cleared ones (it skips those). A predecessor
     * found removable after the write may have been unlinked meanwhile, so the walk starts
     * over, as FutureTask's does. Fields other than {@code next} are final or volatile and were
     * published by the push's CAS, which precedes the walk's read of the head.
     */
    void removeWaiter(WaitNode node) {
        node.thread = null;
        retry:
        for (;;) {
            for (WaitNode pred = null, q = waiters, s; q != null; q = s) {
                s = q.next;
                if (!q.removable()) {
                    pred = q;
                } else if (pred != null) {
                    pred.next = s;
                    if (pred.removable()) {
                        continue retry;        // pred was given up meanwhile
                    }
                } else if (!WAITERS.compareAndSet(this, q, s)) {
                    continue retry;
                }
            }
            return;
        }
    }

    /** A parked waiter; its thread is nulled once it no longer needs waking. */
    static final class WaitNode {
        volatile Thread thread;
        /** Or, instead of a thread, a view to complete. */
        final CompletableFuture<?> view;
        /** The next node, or {@code null} at the bottom of the stack. */
        WaitNode next;

        WaitNode(Thread thread) {
            this.thread = thread;
            this.view = null;
        }

        WaitNode(CompletableFuture<?> view) {
            this.view = view;
        }

        /** Whether nobody needs this node any more: its waiter stopped waiting. */
        boolean removable() {
            return view == null && thread == null;
        }
    }

    @Override
    public String toString() {
        String s = switch (state) {
            case NEW, HANDED_BACK -> "not started";
            case RUNNING, COMPLETING -> "running";
            case NORMAL -> "completed normally";
            case EXCEPTIONAL -> "completed exceptionally: " + Strays.describe((Throwable) payload);
            default -> "cancelled";
        };
        return "Task[" + s + "]";
    }
}
