/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import dev.spindle.internal.Strays;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * The result of a {@linkplain AsyncRuntime#spawn spawned} task, or of an {@link AsyncPromise}
 * (a handle that its holder completes, with no task behind it).
 *
 * <p>It is a {@link Future}, for threads outside the runtime ({@link #get()} blocks), and an
 * {@link AsyncTask}, for other tasks: polling a handle registers the poller's waker and is ready
 * once the spawned task is done, so tasks join tasks without blocking a worker.
 *
 * <pre>{@code
 * try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
 *     JoinHandle<Integer> child = rt.spawn(cx -> Poll.ready(21));
 *     int v = rt.run(cx -> {                      // a task awaiting another
 *         Poll<Integer> p = child.poll(cx);       // pending until child is done
 *         return p.isReady() ? Poll.ready(p.value() * 2) : Poll.pending();
 *     });                                         // v == 42
 *     child.get();                                // 21, from a plain thread
 * }
 * }</pre>
 *
 * <p><b>Outcomes.</b> If the task returns ready, the handle completes with its value. If its
 * poll throws, the handle completes exceptionally ({@link #get()} throws an
 * {@link ExecutionException} with that cause); so it does, with a {@link NullPointerException},
 * if its poll returns {@code null}. After {@link #cancel} the task is not polled again and the
 * handle is cancelled ({@link CancellationException}). If the runtime shuts down first, the
 * handle is completed with a {@link CancellationException} saying so.
 *
 * <p><b>Withdrawal.</b> A task that is cancelled, or still pending at shutdown, is also
 * {@linkplain Cancellable#cancel() cancelled itself} (if it is {@link Cancellable}), once, after
 * its last poll: a receive gives up its place in the channel (a value already handed to it goes
 * to the next receiver or back into the channel), an acquire its place or its granted permit, a
 * sleep its timer entry, exactly as when a combinator such as {@link Async#timeout} abandons
 * them.
 *
 * <p><b>Cost.</b> The handle is the task's only allocation: the runtime's cell for the task
 * (its state, queue links, waker and polling context) is this very object. No
 * {@link CompletableFuture} exists unless {@link #toCompletableFuture()} is called. So a
 * spawned task's handle is, at run time, also the {@link Waker} and {@link Context} the runtime
 * gives that task's polls; that is not API: use the handle only as a {@code JoinHandle}, and the
 * waker only as {@link Context#waker()} hands it out. (A cast that reaches the waker anyway
 * causes at most a spurious wake, which every task tolerates; the context's methods belong to
 * the task's own polls, and used from elsewhere they act on whatever worker polls it, or fail.)
 *
 * @param <T> the result type
 */
public abstract sealed class JoinHandle<T> implements Future<T>, AsyncTask<T> permits TaskCell, AsyncPromise {

    /*
     * Implementation overview: the completion half of the task cell.
     *
     * The state word. One volatile long, shared with the run protocol of TaskCell:
     *
     *   bits 0-2  run state (TaskCell's): IDLE, SCHEDULED (queued or being polled), DONE
     *   bits 3-4  outcome: none, VALUE, FAILED, CANCELLED; set once, by CAS, never changed
     *   bit  5    listed (TaskCell's): the cell is in a LiveTasks list; set by its poller
     *   bits 8-63 wake count (TaskCell's)
     *
     * Every change is a CAS (or an atomic add of bits no one else changes at that moment), so
     * the run protocol and the completion never overwrite each other's bits. The outcome is
     * recorded by exactly one CAS from "none": the worker finishing the task (ready or throwing,
     * one thread, since only the poller completes), cancel() (any thread), or shutdown (after
     * every worker exited). Whoever loses finds an outcome there and does nothing else.
     *
     * The result. One plain field, the value or the Throwable. The worker writes it before its
     * outcome CAS, so a reader that sees VALUE or FAILED (a volatile read) sees it. cancel()
     * writes nothing there (the CancellationException is made when someone asks), so the only
     * writer that can lose is the worker or shutdown, never both at once: a loser's plain write
     * lands on a field that nobody reads under CANCELLED, and the loser clears it again. An
     * AsyncPromise has many possible completers; they first claim the right to write with a CAS
     * of the run bits, so there too a single thread writes a result (see AsyncPromise).
     *
     * The waiters. A Treiber stack of nodes (a blocked thread, a joining task's waker, or a
     * CompletableFuture made by toCompletableFuture), head in `waiters`, FIRED once the
     * outcome is out. After its outcome CAS the winner reads the head (shutdown: once it has
     * recorded the outcome of every unfinished handle, see record): if it is null, nobody
     * waits and the winner is done (no atomic instruction: most tasks have no waiter, or a
     * joiner that found the outcome already out). Otherwise it swaps the head to FIRED
     * (getAndSet) and releases every node it took. A push CASes a non-FIRED head and then
     * re-reads the state; if the outcome is out, the pusher swaps the head to FIRED itself and
     * releases what it took (its own node included). Whoever swaps first takes the stack; a
     * later swap finds FIRED and releases nothing. No wake-up is lost:
     *   - the winner writes the state then reads the head; a pusher writes the head then reads
     *     the state; all four are volatile, so (Dekker) at least one of them sees the other's
     *     write: either the winner sees the push and swaps, or the pusher sees the outcome and
     *     swaps; either way the node is released after the outcome was written;
     *   - a waiter that pushed before the winner's swap is released by that swap;
     *   - a waiter whose push fails reads FIRED, written after the outcome, so its next read of
     *     the state sees the outcome;
     *   - a blocked thread re-reads the state after pushing and after every park; an unpark
     *     that comes before its park leaves the permit, so the park returns at once.
     * Each node is released once (one swap takes the stack once), so a CompletableFuture is
     * completed exactly once. The first waker pushed on an empty stack goes in bare, without a
     * node (most tasks have one joiner, which then costs nothing); a bare waker is only ever the
     * bottom entry, since it has no `next`.
     *
     * Stale entries. An entry is stale when releasing it can no longer matter: a get that gave
     * up (a timeout, an interrupt: its node is `gone`), a waker that has expired ({@link Waker#expired}) (a task
     * that is done, a select's child that the select dropped), a future that is done. A handle
     * that lives long and completes late (a shutdown signal awaited by a select in every request)
     * would otherwise collect one stale entry per awaiter, each keeping its task reachable, until
     * it completes. Two removals keep the stack bounded by about twice its live entries:
     *   - a push that finds a stale head pops it (a CAS of the head; nodes are never reused and
     *     an expired waker is never pushed again, so there is no ABA, bare wakers included);
     *   - a push prunes the stack below the head when the stack has grown to twice what the
     *     last prune left (each node records the entries below it and the size that triggers the
     *     next prune), so pruning costs O(1) per push, amortised. Pruning unlinks a stale node,
     *     and a node whose waker has an entry higher up (a duplicate), by writing its
     *     predecessor's `next` to the node's successor (plain writes: readers tolerate any value
     *     ever written, below).
     * Duplicates: a pending poll looks for its own waker among the top four entries only, so
     * that n waiters register in O(n) rather than O(n^2); a task that polls again while others
     * registered above it pushes its waker a second time, and the next prune drops the lower
     * entry. Until then a release may wake that waker twice, a spurious wake it tolerates.
     * Why no waiter is ever lost, with pushes, prunes and the release racing: a `next` only ever
     * moves from a node to one further down, and each such write skips removable entries only:
     * stale ones (staleness is permanent) and duplicates of a waker with an entry higher up
     * (the highest entry of a waker is never removable, and pushes only add higher ones); so
     * every value a reader can see in `next` leads through removable entries alone to the
     * entries below, and each live waiter keeps an entry reachable from the head. A release
     * that walks a stack being pruned therefore wakes every live waiter, and at most some
     * removable entries too (a stale waker tolerates it: a done task ignores a wake, a dropped
     * child's wake is a spurious wake of its parent). A node's fields other than `next` are final or volatile and
     * were published by the CAS that pushed it, which precedes every push above it, so a reader
     * that reaches a node through racy `next` reads sees it whole. A pruner never changes the
     * head except by the popping CAS, and its own push then fails if the stack fired meanwhile.
     */

    static final long RUN_MASK = 0b111;
    static final long OUTCOME_MASK = 0b11 << 3;
    static final long VALUE = 1 << 3;
    static final long FAILED = 2 << 3;
    static final long CANCELLED = 3 << 3;
    /** One wake in the wake count. */
    static final long LISTED = 1 << 5;
    static final long WAKE = 1 << 8;
    /** The run state DONE (see {@link TaskCell}). */
    static final long RUN_DONE = 4;

    private static final VarHandle STATE;
    private static final VarHandle WAITERS;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            STATE = l.findVarHandle(JoinHandle.class, "state", long.class);
            WAITERS = l.findVarHandle(JoinHandle.class, "waiters", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Entries a waiter stack reaches before the first push that prunes it (see the overview). */
    static final int PRUNE_MIN = 16;
    /** Entries from the top that a pending poll searches for its own waker before pushing it. */
    static final int REGISTERED_LOOK = 4;

    /** A blocked thread, a joining task's waker or a future, waiting for the outcome. */
    static final class Waiter {
        /** A {@link Thread}, a {@link Waker} or a {@link CompletableFuture}. */
        final Object target;
        /** Set by a thread that stopped waiting (timeout, interrupt): releasing it is skipped. */
        volatile boolean gone;
        /**
         * The entry below: a node, a bare {@link Waker} (the bottom entry, pushed on an empty
         * stack) or null; written before the push that publishes this node, and after it only
         * by a prune, which unlinks stale entries (see the overview).
         */
        Object next;
        /** Entries in the stack from this node down, when it was pushed (an upper bound after). */
        int depth;
        /** The depth at which a push onto this node prunes the stack first. */
        int pruneAt;

        Waiter(Object target) {
            this.target = target;
        }
    }

    /** The head of the waiter stack once the waiters were released: nothing is pushed any more. */
    private static final Waiter FIRED = new Waiter(null);

    private volatile long state;
    /** The value or the {@link Throwable}; read only after seeing VALUE or FAILED. */
    private Object result;
    /**
     * The waiter stack: null, {@link #FIRED}, a bare {@link Waker} (the only waiter, as a joining
     * task mostly is: no node), or the top {@link Waiter}.
     */
    private volatile Object waiters;

    JoinHandle(long initialState) {
        // Plain: a volatile store here would cost a full fence per spawn. Nothing can read the
        // word before the cell is published, and every publication (a queue's offer, the LIFO
        // slot's exchange, returning the handle to the spawning thread) is a release or program
        // order that the reader's matching acquire or CAS pairs with.
        STATE.set(this, initialState);
    }

    // ------------------------------------------------------------------ the word (runtime)

    final long word() {
        return state;
    }

    final boolean casWord(long expected, long update) {
        return STATE.compareAndSet(this, expected, update);
    }

    final long addToWord(long delta) {
        return (long) STATE.getAndAdd(this, delta);
    }

    /** The run state (see {@link TaskCell}); for the runtime and tests. */
    final int state() {
        return (int) (state & RUN_MASK);
    }

    /** Whether the outcome is out and is a value: a poll now returns it without registering. */
    final boolean succeeded() {
        return (state & OUTCOME_MASK) == VALUE;
    }

    /** The value, once {@link #succeeded()} returned true (its volatile read made it visible). */
    final Object succeededValue() {
        return result;
    }

    /**
     * Whether {@code word}, a value of the state word, records that {@link #cancel} won: the
     * worker that takes the cell retires it unpolled. Static, so the worker tests the very word
     * its poll then compares with (TaskCell's overview).
     */
    static boolean cancelRequested(long word) {
        return (word & OUTCOME_MASK) == CANCELLED;
    }

    /**
     * Records the outcome unless one is recorded already, and releases the waiters if it was.
     *
     * @param outcome {@link #VALUE}, {@link #FAILED} or {@link #CANCELLED}
     * @param r the value or the error (ignored for CANCELLED)
     * @param retire whether to set the run state to DONE in the same step (the worker's ready
     *     or failed poll), whether or not the outcome was recorded
     * @return whether this call recorded the outcome
     */
    final boolean complete(long outcome, Object r, boolean retire) {
        if (!record(outcome, r, retire)) {
            return false;
        }
        releaseWaiters();
        return true;
    }

    /**
     * {@link #complete} without releasing the waiters: the caller calls {@link #releaseWaiters()}
     * afterwards (shutdown, which records the outcome of every unfinished handle before it
     * releases the waiters of any). Until then a waiter that pushed before the outcome waits on;
     * one that pushes after it sees the outcome and releases the stack itself (see the overview).
     */
    final boolean record(long outcome, Object r, boolean retire) {
        if (outcome != CANCELLED) {
            result = r;                        // before the CAS that publishes it
        }
        boolean won;
        for (;;) {
            long s = state;
            won = (s & OUTCOME_MASK) == 0;
            long n = s;
            if (won) {
                n |= outcome;
            }
            if (retire) {
                n = (n & ~RUN_MASK) | RUN_DONE;
            }
            if (n == s || STATE.compareAndSet(this, s, n)) {
                break;
            }
        }
        if (!won) {
            if (outcome != CANCELLED) {
                result = null;                 // lost to cancel(): nobody reads it, drop it
            }
            return false;
        }
        return true;
    }

    /** Releases the waiters once the outcome is recorded; does nothing if they were released. */
    final void releaseWaiters() {
        if (waiters != null) {                 // nobody waits (the common case): no swap
            fire();
        }
    }

    /** Takes the waiter stack, leaving FIRED, and releases what it held (once: see above). */
    private void fire() {
        Object top = WAITERS.getAndSet(this, FIRED);
        if (top != FIRED) {
            release(top);
        }
    }

    void fail(Throwable error) {
        complete(FAILED, error, false);
    }

    /** Queues a cancelled cell so that a worker retires it; by {@link #cancel}, after the outcome. */
    abstract void retireCancelled();

    /**
     * Called before a blocking {@code get} waits for an outcome not yet out: throws if nothing
     * but the calling thread could ever produce it (see {@link TaskCell}). A promise has none
     * such: any thread may complete it.
     */
    void refuseSelfDeadlock() {
    }

    private void release(Object top) {
        Object e = top;
        while (e != null) {
            if (e instanceof Waiter) {
                Waiter w = (Waiter) e;
                if (!w.gone) {
                    release1(w.target);
                }
                e = w.next;
            } else {
                release1(e);                   // a bare waker: the bottom entry
                e = null;
            }
        }
    }

    private void release1(Object t) {
        if (t instanceof Thread) {
            LockSupport.unpark((Thread) t);
        } else if (t instanceof Waker) {
            try {
                ((Waker) t).wake();
            } catch (Throwable e) {
                // A waker must not throw. This may run on a worker (which must survive it)
                // and every other waiter must still be released: report it and go on.
                AsyncRuntime.reportStray(e);
            }
        } else {
            @SuppressWarnings("unchecked")
            CompletableFuture<T> f = (CompletableFuture<T>) t;
            completeFuture(f);
        }
    }

    /**
     * Pushes {@code x}: a {@link Waiter}, or a {@link Waker}, which goes in bare if the stack is
     * empty and in a node of its own otherwise.
     *
     * @return {@code false} if the waiters were released already (the outcome is out)
     * @throws NullPointerException if {@code x} is null: a poll whose context gave no waker
     */
    private boolean push(Object x) {
        if (x == null) {
            // a poll's Context.waker() returned null (a broken hand-written context, a mock's
            // default answer). Stored, the null entry threw in the release, on the completing
            // thread (a worker, which died and shut its runtime down) and before the entries
            // below it were released, whose tasks then waited for good
            throw new NullPointerException("Context.waker() returned null: a handle is awaited by "
                    + "registering the waker of the poll that finds it pending");
        }
        Waiter node = x instanceof Waiter ? (Waiter) x : null;
        for (;;) {
            Object h = waiters;
            if (h == FIRED) {
                return false;
            }
            if (h != null && isStale(h)) {    // pop it: never reused, never pushed again: no ABA
                WAITERS.compareAndSet(this, h, h instanceof Waiter ? ((Waiter) h).next : null);
                continue;
            }
            Object top;
            if (h == null && node == null) {
                top = x;
            } else {
                if (node == null) {
                    node = new Waiter(x);
                }
                node.next = h;
                int below;
                int limit;
                if (h instanceof Waiter) {
                    below = ((Waiter) h).depth;
                    limit = ((Waiter) h).pruneAt;
                } else {
                    below = h == null ? 0 : 1;
                    limit = PRUNE_MIN;
                }
                if (below >= limit) {
                    below = prune(h);
                    limit = Math.max(PRUNE_MIN, 2 * below);
                }
                node.depth = below + 1;
                node.pruneAt = limit;
                top = node;
            }
            if (WAITERS.compareAndSet(this, h, top)) {
                if ((state & OUTCOME_MASK) != 0) {
                    fire();                    // the winner may have found no waiter: see above
                }
                return true;
            }
        }
    }

    /**
     * Unlinks the stale entries below {@code h}, the head as a push read it (not stale itself),
     * and the entries of a waker that has one higher up (a duplicate left by a re-poll, see
     * {@link #registered}); see the overview for why racing with pushes, other prunes and the
     * release is safe.
     *
     * @return the entries left from {@code h} down, {@code h} included
     */
    private static int prune(Object h) {
        if (!(h instanceof Waiter)) {
            return h == null ? 0 : 1;
        }
        Waiter pred = (Waiter) h;
        Map<Object, Boolean> wakers = new IdentityHashMap<>();
        seen(wakers, pred.target);
        int live = 1;
        for (Object e = pred.next; e != null; ) {
            if (e instanceof Waiter) {
                Waiter w = (Waiter) e;
                e = w.next;
                if (isStale(w) || seen(wakers, w.target)) {
                    pred.next = e;             // skips a removable entry only
                } else {
                    pred = w;
                    live++;
                }
            } else {
                if (isStale(e) || seen(wakers, e)) {
                    pred.next = null;          // a removable bare waker at the bottom
                } else {
                    live++;
                }
                break;
            }
        }
        return live;
    }

    /** Records {@code target} if it is a waker; whether this waker was recorded before. */
    private static boolean seen(Map<Object, Boolean> wakers, Object target) {
        return target instanceof Waker && wakers.put(target, Boolean.TRUE) != null;
    }

    /** Whether releasing entry {@code e} (a node or a bare waker) can no longer matter. */
    private static boolean isStale(Object e) {
        Object t = e;
        if (e instanceof Waiter) {
            Waiter w = (Waiter) e;
            if (w.gone) {
                return true;
            }
            t = w.target;
        }
        return t instanceof Waker ? expired((Waker) t)
                : t instanceof CompletableFuture && ((CompletableFuture<?>) t).isDone();
    }

    /**
     * {@link Waker#expired()}, which must not throw. One that does is reported, as a waker whose
     * {@code wake()} throws is, and its entry is kept (it is woken with the others): asked on
     * every push and prune, it threw in whoever registered next, so an unrelated task awaiting
     * this handle failed with it, and {@code get} and {@code toCompletableFuture} threw it.
     */
    private static boolean expired(Waker w) {
        try {
            return w.expired();
        } catch (Throwable e) {
            AsyncRuntime.reportStray(e);
            return false;
        }
    }

    /**
     * Whether {@code w} is among the top {@value #REGISTERED_LOOK} entries already (a joiner
     * polling again before the outcome, usually with its entry still on top). Bounded, so that
     * registering n waiters costs O(n), not O(n^2): a re-poll whose entry sits deeper pushes a
     * duplicate, which the next prune removes (see the overview).
     */
    private boolean registered(Waker w) {
        Object e = waiters;
        for (int i = 0; i < REGISTERED_LOOK && e != null && e != FIRED; i++) {
            if (e instanceof Waiter) {
                if (((Waiter) e).target == w) {
                    return true;
                }
                e = ((Waiter) e).next;
            } else {
                return e == w;
            }
        }
        return false;
    }

    /** Entries in the waiter stack, gone ones included (0 once released); for tests. */
    final int waiterCount() {
        return countEntries(null);
    }

    /** Entries in the waiter stack for {@code target} (a waker, say), stale ones included; for tests. */
    final int waiterCount(Object target) {
        return countEntries(Objects.requireNonNull(target, "target"));
    }

    /** Entries whose target is {@code target}, or all of them for {@code null}. */
    private int countEntries(Object target) {
        int n = 0;
        Object e = waiters;
        while (e != null && e != FIRED) {
            Object t = e instanceof Waiter ? ((Waiter) e).target : e;
            n += target == null || t == target ? 1 : 0;
            e = e instanceof Waiter ? ((Waiter) e).next : null;
        }
        return n;
    }

    /**
     * How many times the task's waker fired while the task was not done (its wake count, the
     * key of {@link AsyncPolicy#HYBRID}'s hot queue). For diagnostics and measurements. An
     * {@link AsyncPromise} has no task to wake, so its count stays 0.
     *
     * @return the number of wake-ups counted so far, 0 or more
     */
    public long wakeCount() {
        return state >>> 8;
    }

    // ------------------------------------------------------------------ AsyncTask

    /**
     * Ready with the task's value once it is done; pending (with the caller's waker registered,
     * once per waker) before.
     *
     * @throws CancellationException if the task was cancelled or the runtime shut down
     * @throws CompletionException with the task's exception as its cause, if the task failed
     * @throws NullPointerException if the outcome is not out and {@code cx.waker()} is null
     */
    @Override
    public Poll<T> poll(Context cx) {
        return DirectTask.wrap(pollOutcome(cx));
    }

    /**
     * {@link #poll} without the {@link Poll} object: the value, or {@link DirectTask#PENDING};
     * {@link DirectTask#pollValue} reads it, so a combinator that awaits a handle allocates
     * nothing for the value.
     */
    final Object pollOutcome(Context cx) {
        long s = state;
        if ((s & OUTCOME_MASK) == 0) {
            Waker w = cx.waker();
            if (registered(w) || push(w)) {
                return DirectTask.PENDING;     // the completion will wake w
            }
            s = state;                         // released meanwhile: the outcome is out
        }
        return join(s);
    }

    /** The outcome as {@link CompletableFuture#join()} reports it. */
    private T join(long s) {
        Throwable x = failure(s);
        if (x == null) {
            return value();
        }
        if (x instanceof CompletionException) {
            throw (CompletionException) x;
        }
        throw new CompletionException(Strays.describe(x), x);
    }

    /** The outcome as {@link Future#get()} reports it. */
    private T report(long s) throws ExecutionException {
        Throwable x = failure(s);
        if (x == null) {
            return value();
        }
        if (x instanceof CompletionException && x.getCause() != null) {
            x = x.getCause();
        }
        throw new ExecutionException(Strays.describe(x), x);
    }

    /**
     * The task's exception for a FAILED outcome, {@code null} for a value; a cancellation is
     * thrown here, as {@code get} and {@code join} both throw it as it is.
     */
    private Throwable failure(long s) {
        long o = s & OUTCOME_MASK;
        if (o == VALUE) {
            return null;
        }
        if (o == CANCELLED) {
            throw cancelled();
        }
        Throwable x = (Throwable) result;
        if (x instanceof CancellationException) {
            throw (CancellationException) x;
        }
        return x;
    }

    @SuppressWarnings("unchecked")
    private T value() {
        return (T) result;
    }

    private static CancellationException cancelled() {
        return new CancellationException("task cancelled");
    }

    private void completeFuture(CompletableFuture<T> f) {
        long o = state & OUTCOME_MASK;
        if (o == VALUE) {
            f.complete(value());
        } else if (o == CANCELLED) {
            f.completeExceptionally(cancelled());
        } else {
            f.completeExceptionally((Throwable) result);  // as stored: a cancellation stays one
        }
    }

    // ------------------------------------------------------------------ Future

    /**
     * Cancels the task: it is not polled again (a poll already under way finishes), and this
     * handle completes with a {@link CancellationException}. Does nothing once the task is done.
     * Tasks that the task spawned are not cancelled with it: each runs on until its own handle is
     * cancelled, which the task's combinators do for a handle they own (see
     * {@link AsyncRuntime#spawn}).
     * A worker then retires the task and, if it is {@link Cancellable}, cancels it so that it
     * withdraws from what it waits in (see the class comment); this returns before that.
     *
     * <p>If a poll is under way and completes the task, its result is dropped, as
     * {@link java.util.concurrent.FutureTask} drops the result of a run it was cancelled during:
     * the handle already reports the cancellation. A task that must not lose what it received
     * (a channel's value) should pass it on within the poll that receives it. A dropped value
     * that is a connection ({@link dev.spindle.async.io.AsyncTcpStream}) is closed, since
     * nobody could receive it any more, unless the task passed on the value of a handle it
     * awaited (which still hands it to its other awaiters) or of a stage ({@link Async#from},
     * which still hands it to its other dependents); the runtime closes no other value. What
     * the poll starts after this call takes nothing: the runtime refuses it the budget (see
     * {@link Context}), so a receive begun then leaves the value to other receivers, and an
     * acquire leaves the permit. A stream's read whose count is dropped so gives the bytes it
     * read back to the stream ({@link dev.spindle.async.io.AsyncTcpStream#read}).
     *
     * @param mayInterruptIfRunning ignored: a poll is never interrupted
     * @return whether this call cancelled the task
     */
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        if (!complete(CANCELLED, null, false)) {
            return false;                      // done already, or cancelled by another call
        }
        retireCancelled();
        return true;
    }

    @Override
    public boolean isCancelled() {
        long o = state & OUTCOME_MASK;
        return o == CANCELLED || (o == FAILED && result instanceof CancellationException);
    }

    @Override
    public boolean isDone() {
        return (state & OUTCOME_MASK) != 0;
    }

    /**
     * Waits for the outcome. Meant for threads outside the runtime: a task awaits a handle by
     * polling it. A task that blocks here holds its worker until the outcome is out, so the
     * awaited task runs on another worker; once every worker of the runtime is blocked in a get
     * (a promise's included), the workers blocked in a get of a task of their runtime run queued
     * tasks of the runtime while they wait, so such gets do not hang the runtime. A worker
     * blocked in a promise's get runs nothing: if every worker waits for a promise, only a
     * completion from outside (or a peer's help) ends the wait. On a runtime with one worker a
     * get of that runtime's task is refused (below).
     *
     * @throws IllegalStateException if called by the only worker of a one-worker runtime for a
     *     task of that runtime that is not done (nothing else could run it: the wait would never
     *     end, and a shutdown joining that worker neither)
     */
    @Override
    public T get() throws InterruptedException, ExecutionException {
        long s = state;
        if ((s & OUTCOME_MASK) == 0) {
            refuseSelfDeadlock();
            s = await(false, 0L);
        }
        return report(s);
    }

    /**
     * Waits at most {@code timeout} for the outcome; see {@link #get()}. A worker that runs
     * queued tasks while it waits starts none once the timeout has passed (one it is running
     * when the time is up delays the {@link TimeoutException} until its poll returns).
     *
     * @throws IllegalStateException if called by the only worker of a one-worker runtime for a
     *     task of that runtime that is not done (the wait could only time out)
     */
    @Override
    public T get(long timeout, TimeUnit unit)
            throws InterruptedException, ExecutionException, TimeoutException {
        // checked first, as the JDK's futures do: a done handle returned its outcome for a null
        // unit, and only a pending one threw (JoinHandleGetWithANullUnitTest)
        Objects.requireNonNull(unit, "unit");
        long s = state;
        if ((s & OUTCOME_MASK) == 0) {
            refuseSelfDeadlock();
            s = await(true, unit.toNanos(timeout));
            if ((s & OUTCOME_MASK) == 0) {
                throw new TimeoutException("task not done within " + timeout + " " + unit);
            }
        }
        return report(s);
    }

    /**
     * Blocks until the outcome is out, the deadline passes or the thread is interrupted. A
     * worker of any runtime is counted as blocked in its runtime while it waits here, whatever
     * it waits for: it runs no task meanwhile, and a peer blocked in a get of a task only their
     * runtime can run must see that to start helping. A worker waiting for a promise (or
     * another runtime's handle) was left out, and two workers, one blocked in {@code p.get()},
     * the other in the get of the task that completes {@code p}, waited for good
     * ({@code AsyncThirdReviewRegressionTest}). Such a get is counted but does not help itself
     * ({@link #blockedWorker()} is null): what it waits for may come from outside the runtime.
     */
    private long await(boolean timed, long nanos) throws InterruptedException {
        AsyncWorker worker = AsyncWorker.current();
        if (worker == null) {
            return await(timed, nanos, null);
        }
        worker.runtime.blockedInGet.incrementAndGet();
        try {
            return await(timed, nanos, blockedWorker());
        } finally {
            worker.runtime.blockedInGet.decrementAndGet();
        }
    }

    /**
     * The worker of the runtime that runs this handle's task, if the calling thread is one: it
     * runs queued tasks of its runtime while it waits here once every worker is blocked in a get
     * (see AsyncWorker's <i>Blocking gets</i>); {@code null} for any other thread, and for a
     * promise, which any thread may complete (a worker waiting for one is counted as blocked
     * all the same, see {@link #await(boolean, long)}).
     */
    AsyncWorker blockedWorker() {
        return null;
    }

    /** {@link #await(boolean, long)}, helping as {@code helper} if it is not null. */
    private long await(boolean timed, long nanos, AsyncWorker helper) throws InterruptedException {
        // a negative timeout counts as 0, as in the JDK's timed waits: now + Long.MIN_VALUE lies
        // 2^63 ns away, and the difference tested below overflowed into ~292 years ahead
        long deadline = timed ? System.nanoTime() + Math.max(0L, nanos) : 0L;
        Waiter node = null;
        for (;;) {
            long s = state;
            if ((s & OUTCOME_MASK) != 0) {
                return s;
            }
            if (Thread.interrupted()) {
                if (node != null) {
                    node.gone = true;
                }
                throw new InterruptedException();
            }
            if (node == null) {
                node = new Waiter(Thread.currentThread());
                if (!push(node)) {
                    return state;              // released before the push: the outcome is out
                }
                continue;                      // re-read the state before parking
            }
            // the deadline before any help: a help that finds a task returns to this loop
            // without parking, and with a task that keeps yielding queued (or a stream of work)
            // there is always one, so a deadline read only after a fruitless help never passed
            // (TimedGetWhileHelpingTest)
            if (timed && deadline - System.nanoTime() <= 0L) {
                node.gone = true;
                return state;
            }
            // every worker blocked: run a queued task, or look again after a while (a spawn
            // from outside, a wake-up or a due timer may bring one); see AsyncWorker
            boolean helping = helper != null && helper.mustHelp();
            if (helping && helper.helpWhileBlocked((TaskCell<?>) this)) {
                continue;
            }
            if (helper != null && helper.cancelAbandoned((TaskCell<?>) this, timed)) {
                continue;                      // the runtime closed with nobody to run it
            }
            // a blocked worker looks again after a while even when not helping: a shutdown
            // does not wake it, and only it can see that nobody will run what it waits for
            if (timed) {
                long left = deadline - System.nanoTime();
                if (left <= 0L) {
                    node.gone = true;
                    return state;
                }
                LockSupport.parkNanos(this, helper != null ? Math.min(left, AsyncWorker.HELP_RECHECK_NANOS) : left);
            } else if (helper != null) {
                LockSupport.parkNanos(this, AsyncWorker.HELP_RECHECK_NANOS);
            } else {
                LockSupport.park(this);
            }
        }
    }

    /**
     * A {@link CompletableFuture} that completes as this handle does, once, whether it is asked
     * for before or after the task is done. Each call makes a new one: completing or cancelling
     * the returned future does not affect the task; use {@link #cancel} for that.
     *
     * @return a new future with the task's value, or completed exceptionally with its failure (a
     *     {@link java.util.concurrent.CancellationException} if it was cancelled)
     */
    public CompletableFuture<T> toCompletableFuture() {
        CompletableFuture<T> f = new CompletableFuture<>();
        if ((state & OUTCOME_MASK) == 0 && push(new Waiter(f))) {
            return f;                          // the completion completes it
        }
        completeFuture(f);                     // the outcome is out (the push found FIRED)
        return f;
    }

    @Override
    public String toString() {
        return "JoinHandle[" + (isDone() ? "done" : "pending") + "]";
    }
}
