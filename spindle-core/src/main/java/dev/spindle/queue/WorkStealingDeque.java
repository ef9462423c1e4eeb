/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;

/**
 * A Chase-Lev work-stealing deque: one owner thread pushes and pops at the bottom (LIFO),
 * any number of other threads steal from the top (FIFO).
 *
 * <p>The owner is whichever single thread calls {@link #push}, {@link #offer} and {@link #pop};
 * using those from two threads at once breaks the deque. {@link #steal()}, {@link #stealBatch}
 * and the size queries may be called from any thread.
 *
 * <pre>{@code
 * WorkStealingDeque<Runnable> deque = new WorkStealingDeque<>();
 * deque.push(taskA);                        // owner thread
 * deque.push(taskB);
 * Runnable mine = deque.pop();              // owner: taskB (newest first)
 * StealResult<Runnable> s = deque.steal();  // another thread: taskA (oldest first)
 * if (s.isSuccess()) s.value().run();
 * }</pre>
 *
 * <h2>Implementation overview</h2>
 *
 * <p>The algorithm is the dynamic circular deque of Chase and Lev (SPAA 2005) with the C11
 * orderings proven correct by Lê, Pop, Cohen and Zappa Nardelli (PPoPP 2013), expressed with
 * {@link VarHandle}s. Two unbounded counters index a power-of-two ring: {@code top} (next slot
 * to steal) and {@code bottom} (next slot to push). Elements live in {@code [top, bottom)}.
 * {@code bottom} is written only by the owner; {@code top} only ever grows and is advanced
 * only by a successful CAS, which is what decides every race for an element.
 *
 * <ul>
 *   <li><b>push</b>: read {@code bottom} (owner's own field) and the owner's last view of
 *       {@code top} (see "the owner's view of top" below), grow the ring if full, write the
 *       slot, then store {@code bottom + 1} with release. The release store publishes the slot
 *       (and, after a grow, the new ring) to any thief that reads {@code bottom} with
 *       acquire.</li>
 *   <li><b>pop</b>: store {@code bottom - 1}, full fence, read {@code top}. The fence orders the
 *       store before the load; a thief does the mirror image (load top, full fence, load
 *       bottom), so of an owner and a thief racing for the same element at least one sees the
 *       other's write. If more than one element remains the owner takes its element without a
 *       CAS: no thief can reach index {@code bottom - 1} while {@code top < bottom - 1}. For the
 *       last element the owner competes with thieves by CAS on {@code top}, then restores
 *       {@code bottom}. When a first read of {@code top} already shows exactly one element,
 *       the owner skips the store and the fence and takes it exactly as a thief would, with one
 *       CAS on {@code top}; this halves the cost of the common pop-the-only-task case. The
 *       fence (or, in its place, an atomic read-modify-write, as {@code ForkJoinPool}'s pop
 *       exchanges the slot) cannot be dropped from the general case while every element is taken
 *       exactly once and a thief never waits for the owner: Attiya, Guerraoui, Hendler,
 *       Kuznetsov, Michael and Vechev ("Laws of Order", POPL 2011) prove that a linearizable
 *       work-stealing pop needs one or the other. Deques without it let an element run twice
 *       (idempotent work stealing, Michael, Vechev and Saraswat, PPoPP 2009) or keep the owner's
 *       newest elements private until a thief asks (the owner must then answer, so a task that
 *       blocks without telling the pool strands them): neither fits a pool that runs plain
 *       runnables once each and lets tasks block.</li>
 *   <li><b>steal</b>: read {@code top} with acquire, full fence, read {@code bottom} with
 *       acquire, read the ring and the slot, then CAS {@code top} from {@code t} to
 *       {@code t + 1}. The element read before the CAS is the thief's only if the CAS wins.</li>
 * </ul>
 *
 * <p><b>Growing.</b> The owner copies {@code [top, bottom)} into a ring twice the size and
 * publishes it before {@code bottom}. The old ring is never written again, so a thief still
 * reading it finds the same element at index {@code t} as in the new ring; the garbage
 * collector replaces the epoch reclamation a C implementation would need.
 *
 * <p><b>A young ring.</b> On HotSpot's default collector, G1 (JDK 17 to 25), storing a reference
 * to a young object into an array that lives in an old region runs a post-write barrier with a
 * full StoreLoad fence and a card-table check; an array in a young region skips both. A ring
 * outlives a few collections, is tenured, and from then on every push of a new task paid that
 * fence: 14-22 % of the workers' samples on the message-passing workloads (skynet, ping-pong,
 * yield-many; docs/BENCHMARKS.md, session 60). So the owner renews its ring: every
 * {@value #RENEW_INTERVAL}th time a push reads {@code top} afresh (below), it copies
 * {@code [top, bottom)} into a new ring of the same size, exactly as a grow does, and the new
 * ring is young until it too has survived a few collections. It is safe for the reason a grow
 * is: the old ring is never written again, and a thief still reading it finds there the element
 * it would find in the new one. It costs one small allocation and a copy of the live elements
 * per {@value #RENEW_INTERVAL} fresh reads, far fewer than the collections in between would
 * take to tenure it again while pushes run. Rings above {@value #RENEW_MAX_LENGTH} slots are not
 * renewed (a copy that size is no longer small), and a renewal that cannot allocate
 * (an {@link OutOfMemoryError}) is skipped: the old ring serves as before. Checked with
 * renewals at every fresh read by Lincheck (WorkStealingDequeRenewingLincheckTest and the
 * DequeScenarios programs), on hardware by jcstress (DequeTests.RenewVsSteal and
 * RenewVsStealBatch), and by the Promela model (spindle-stress/model/deque.pml, -DRENEW).
 *
 * <p><b>Clearing taken slots.</b> So that the collector can reclaim finished tasks, slots are
 * nulled once their element is taken. The owner nulls the slots it pops. A thief must
 * <em>not</em> null its slot after winning the CAS: by then the owner may already have wrapped
 * around and stored a new element in the same slot. Instead the owner lazily nulls slots below
 * {@code top} (already stolen) when it pushes, which it may do because an index below
 * {@code top} can never again be won by a CAS. A thief that reads such a null reports
 * {@link StealResult#retry() retry} because its CAS would fail anyway.
 *
 * <p>The owner leaves the {@value #CLEAR_LAG} slots just below {@code top} alone while the deque
 * holds elements: those share cache lines with the slots thieves are reading at that moment, and
 * a store there takes each line away from every thief (with sixteen workers draining one
 * spawner, nulling the slots right behind {@code top} on every push took a third of the workers'
 * samples). A push into an empty deque clears everything below {@code top}: no thief reads
 * slots then. So a stolen element is released once the owner pushes into a deque it saw empty
 * (its pop took the last element, or a thief did), or once thieves are {@value #CLEAR_LAG}
 * elements past it as the owner last saw {@code top} when it pushes: at the latest
 * {@value #CLEAR_LAG} pushes after that.
 *
 * <p><b>The owner's view of top.</b> Thieves write {@code top} with every steal, so its cache
 * line moves to each thief in turn; an owner that read it on every push would take the line
 * back each time, and with a thief stealing every element about as fast as the owner pushes it
 * that nearly doubled the cost of a push (docs/BENCHMARKS.md, session 16). A push needs
 * {@code top} only to know whether the ring is full and which stolen slots it may clear, and a
 * value that is too small is safe for both: the ring looks fuller than it is, and fewer slots
 * are cleared. So the owner keeps {@code topSeen}, the last value of {@code top} it read (with
 * acquire, or after pop's full fence) or set through a CAS of its own; {@code top} never falls
 * below it. A push reads {@code top} again only when the ring looks full (so it never grows, or
 * refuses an element, on a stale view), when it looks empty, and at every {@value #CLEAR_LAG}th
 * index; only then does it clear stolen slots (with an unchanged view there is nothing new to
 * clear). A pop that races for the last element sets the view from its CAS, and a pop that
 * finds the deque empty from the {@code top} it read, so a push into a deque the owner or its
 * thieves emptied still clears every stolen slot. That work is out of line: the fast path is a
 * few loads and two stores, which keeps the compiled code of callers that inline it small. The
 * fork/join path inlines it (a fork spills an old fork task into the deque), and HotSpot no
 * longer inlines a method whose compiled code exceeds {@code InlineSmallCode} (2,500 bytes):
 * with the clearing loop inline, a fork compiled on its own grew past that in some JVMs, and
 * later compiles of the fork/join recursion then called it instead of inlining it
 * (docs/BENCHMARKS.md, session 16).
 *
 * <p>Clearing a slot below {@code topSeen} is safe for the reason it is safe below {@code top}:
 * the read or CAS that produced the value came after the CAS of the thief that won the index
 * (all are volatile accesses of {@code top}), and that thief read the slot before its CAS. The
 * pops write {@code topSeen} just before their CAS, with the value the CAS leaves whether it
 * wins or loses; only the owner reads {@code topSeen}, after the CAS.
 *
 * <p><b>Batch steals.</b> A thief cannot move {@code top} forward by more than one in a single
 * CAS: the owner pops without a CAS while it believes more than one element remains, so a
 * multi-element CAS could take an element the owner has already popped. {@link #stealBatch}
 * therefore repeats the single-element protocol (fence, re-read {@code bottom}, CAS) for each
 * element, as crossbeam-deque does for its LIFO flavour. The thief grows its own deque to fit
 * the batch before it takes anything ({@code makeRoom}), so an offer into it never fails with a
 * taken element in hand.
 *
 * <p><b>Capacity.</b> The ring grows on demand up to {@code maxCapacity}. {@link #offer}
 * returns {@code false} when the deque holds {@code maxCapacity} elements, so the caller can
 * move work elsewhere (the pools move it to their injector); {@link #push} throws instead. A
 * push therefore never drops an element silently.
 *
 * @param <T> the element type
 */
public final class WorkStealingDeque<T> extends DequeFields {

    /** The largest ring this deque will allocate. */
    public static final int MAX_CAPACITY = 1 << 30;
    /**
     * The batch limit the schedulers pass to {@link #stealBatchOrNull}: a thief takes about half
     * a victim's deque, but at most this many, so one steal neither empties a long deque into a
     * single thief nor costs more than a few cache lines of copying.
     */
    public static final int DEFAULT_STEAL_BATCH = 32;

    private static final int DEFAULT_INITIAL_CAPACITY = 64;

    /**
     * Pushes that read {@code top} afresh between two renewals of the ring (see "a young ring" in
     * the class overview). Such a read comes with a push into a deque that looks empty or full,
     * and at every {@value #CLEAR_LAG}th index.
     */
    static final int RENEW_INTERVAL = 256;
    /** The largest ring that is renewed (see "a young ring"): 16 KiB of compressed references. */
    static final int RENEW_MAX_LENGTH = 4096;

    /**
     * Stolen slots within this distance below {@code top} are not nulled while the deque holds
     * elements (see the class overview): four cache lines of compressed references, two of
     * uncompressed ones, and more than a batch steal reads.
     */
    static final int CLEAR_LAG = 64;

    private static final VarHandle TOP;
    private static final VarHandle BOTTOM;
    private static final VarHandle RING;
    private static final VarHandle OWNER_TAKES;
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Object[].class);

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            TOP = l.findVarHandle(DequeTop.class, "top", long.class);
            BOTTOM = l.findVarHandle(DequeBottom.class, "bottom", long.class);
            RING = l.findVarHandle(DequeBottom.class, "ring", Object[].class);
            OWNER_TAKES = l.findVarHandle(DequeBottom.class, "ownerTopTakes", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int maxCapacity;
    /** {@link #RENEW_INTERVAL}, or a test's. */
    private final int renewInterval;

    /** Creates an unbounded deque (up to {@link #MAX_CAPACITY} elements). */
    public WorkStealingDeque() {
        this(DEFAULT_INITIAL_CAPACITY, MAX_CAPACITY);
    }

    /**
     * Creates a deque that grows from {@code initialCapacity} up to {@code maxCapacity}
     * elements. Both are rounded up to a power of two.
     *
     * @param initialCapacity the ring's first size in elements, 2 to {@code maxCapacity}
     * @param maxCapacity the most elements the deque will hold, up to {@link #MAX_CAPACITY}
     * @throws IllegalArgumentException if either is below 2, above {@link #MAX_CAPACITY}, or
     *     {@code initialCapacity > maxCapacity}
     */
    public WorkStealingDeque(int initialCapacity, int maxCapacity) {
        this(initialCapacity, maxCapacity, RENEW_INTERVAL);
    }

    /**
     * As {@link #WorkStealingDeque(int, int)}, renewing the ring every {@code renewInterval} fresh
     * reads of {@code top}: tests only (1: at every one), so that the checkers explore renewals
     * beside thieves.
     */
    WorkStealingDeque(int initialCapacity, int maxCapacity, int renewInterval) {
        if (renewInterval < 1) {
            throw new IllegalArgumentException("renewInterval must be at least 1, was " + renewInterval);
        }
        if (initialCapacity < 2 || initialCapacity > MAX_CAPACITY) {
            throw new IllegalArgumentException(
                    "initialCapacity must be in [2, " + MAX_CAPACITY + "], was " + initialCapacity);
        }
        if (maxCapacity < 2 || maxCapacity > MAX_CAPACITY) {
            throw new IllegalArgumentException(
                    "maxCapacity must be in [2, " + MAX_CAPACITY + "], was " + maxCapacity);
        }
        if (initialCapacity > maxCapacity) {
            throw new IllegalArgumentException("initialCapacity (" + initialCapacity
                    + ") must not exceed maxCapacity (" + maxCapacity + ")");
        }
        this.maxCapacity = ceilPow2(maxCapacity);
        this.ring = new Object[ceilPow2(initialCapacity)];
        this.renewInterval = renewInterval;
    }

    static int ceilPow2(int n) {
        return n <= 1 ? 1 : Integer.highestOneBit(n - 1) << 1;
    }

    // ------------------------------------------------------------------ owner operations

    /**
     * Pushes {@code task} at the bottom. Owner only.
     *
     * @param task the element to push
     * @return {@code false}, leaving the deque unchanged, if it already holds its maximum
     *     capacity of elements
     * @throws NullPointerException if {@code task} is null
     */
    public boolean offer(T task) {
        Objects.requireNonNull(task, "task");
        long b = bottom;                       // only the owner writes bottom
        long t = topSeen;                      // the owner's view of top: see the overview
        Object[] a = ring;                     // only the owner writes ring
        if (b - t >= a.length || t == b || (b & (CLEAR_LAG - 1)) == 0) {
            return offerWithFreshTop(task, b, a);
        }
        a[(int) b & (a.length - 1)] = task;    // plain: the release store below publishes it
        BOTTOM.setRelease(this, b + 1);        // publishes the slot (and a new ring) to thieves
        return true;
    }

    /**
     * {@link #offer} when the ring looks full or empty, or at every {@value #CLEAR_LAG}th index:
     * reads {@code top} again, clears the stolen slots that view allows, then grows the ring or
     * refuses only on that fresh view. Out of line, and the only place that clears, so that
     * {@link #offer} stays small: a fork/join path that inlines it must stay under the JIT's
     * limits (see "the owner's view of top").
     */
    private boolean offerWithFreshTop(T task, long b, Object[] a) {
        long t = (long) TOP.getAcquire(this);
        topSeen = t;
        if (b - t >= a.length) {
            if (a.length >= maxCapacity) {
                return false;
            }
            a = grow(a, t, b);
        } else if (++freshTopReads >= renewInterval && a.length <= RENEW_MAX_LENGTH) {
            a = renew(a, t, b);
        } else {
            clearStolen(a, t, b);
        }
        a[(int) b & (a.length - 1)] = task;
        BOTTOM.setRelease(this, b + 1);
        return true;
    }

    /**
     * Pushes {@code task} at the bottom. Owner only.
     *
     * @param task the element to push
     * @throws IllegalStateException if the deque is at its maximum capacity
     * @throws NullPointerException if {@code task} is null
     */
    public void push(T task) {
        if (!offer(task)) {
            throw new IllegalStateException("deque full: capacity " + maxCapacity);
        }
    }

    /**
     * Removes and returns the newest element, or {@code null} if the deque is empty (or a
     * thief took the last element). Owner only.
     *
     * @return the newest element, or {@code null}
     */
    @SuppressWarnings("unchecked")
    public T pop() {
        long b = bottom - 1;
        Object[] a = ring;
        long seen = (long) TOP.getAcquire(this);
        if (seen == b) {
            // Exactly one element, as far as we can tell: take it as a thief would, with one CAS
            // on top and bottom untouched. top only grows, so a stale read can only be smaller
            // and would have sent us down the general path below instead.
            int i = (int) b & (a.length - 1);
            Object x = SLOT.getOpaque(a, i);
            topSeen = b + 1;                   // what the CAS leaves, won or lost (owner-only)
            if (!TOP.compareAndSet(this, b, b + 1)) {
                return null;                   // a thief took it: the deque is empty
            }
            OWNER_TAKES.setOpaque(this, ownerTopTakes + 1);
            a[i] = null;
            return (T) x;
        }
        if (seen > b) {
            // Empty (top never decreases): thieves took the rest. Keep what we read as the owner's
            // view, so that the next push sees the deque empty and clears the stolen slots (it
            // clears on its own fresh read of top; the view only sends it there).
            topSeen = seen;
            return null;
        }
        BOTTOM.setRelease(this, b);
        VarHandle.fullFence();                 // order the bottom store before the top load
        long t = (long) TOP.getOpaque(this);
        if (t > b) {                           // was empty: restore
            topSeen = t;                       // as above: the next push clears what thieves took
            BOTTOM.setRelease(this, b + 1);
            return null;
        }
        int i = (int) b & (a.length - 1);
        Object x = SLOT.getOpaque(a, i);
        if (t == b) {                          // last element: race the thieves for it
            topSeen = t + 1;                   // as above
            boolean won = TOP.compareAndSet(this, t, t + 1);
            BOTTOM.setRelease(this, b + 1);
            if (!won) {
                return null;
            }
            OWNER_TAKES.setOpaque(this, ownerTopTakes + 1);
        }
        a[i] = null;                           // index b can no longer be won by a thief
        return (T) x;
    }

    /**
     * Returns the owner's bottom index: one past the newest element. Owner only. It rises by one
     * with each element added at the bottom (a push, or an element a {@link #stealBatch} into
     * this deque moved here) and falls by one with each pop; thieves never change it. So its
     * difference across a batch steal into this deque is exactly the number of elements the
     * batch moved here, which {@link #size()} after the steal is not: a thief may already have
     * taken some of them from this deque.
     *
     * @return the bottom index
     */
    public long bottomIndex() {
        return bottom;
    }

    /**
     * Returns the newest element without removing it, or {@code null} if the deque looks
     * empty. Owner only; a thief may take the element at any time.
     *
     * @return the newest element, or {@code null}
     */
    @SuppressWarnings("unchecked")
    public T peekBottom() {
        long b = bottom;
        long t = (long) TOP.getAcquire(this);
        if (t >= b) {
            return null;
        }
        Object[] a = ring;
        return (T) SLOT.getOpaque(a, (int) (b - 1) & (a.length - 1));
    }

    /**
     * Whether {@code e} is queued here, as the owner sees the deque. Owner only. It looks from
     * the oldest element up, since an element awaited out of order is usually an old one. A
     * thief may take the element at any time, so {@code true} says only that it was queued here
     * a moment ago; the caller's own claim on the element decides who runs it.
     *
     * @param e the element to look for, compared by identity
     * @return whether it was found
     */
    public boolean holds(Object e) {
        long b = bottom;
        Object[] a = ring;
        for (long i = (long) TOP.getAcquire(this); i < b; i++) {
            if (SLOT.getOpaque(a, (int) i & (a.length - 1)) == e) {
                return true;
            }
        }
        return false;
    }

    /**
     * Run by the owner just before it allocates a bigger ring, if set: a seam for tests, which
     * throw from it what a full heap throws there. Read on the growing path only.
     */
    static volatile Runnable beforeGrow;

    private Object[] grow(Object[] old, long t, long b) {
        Runnable hook = beforeGrow;
        if (hook != null) {
            hook.run();
        }
        return copyInto(old, new Object[old.length << 1], t, b);
    }

    /**
     * Run by the owner just before it allocates a renewed ring, if set: a seam for tests, which
     * throw from it what a full heap throws there. Read on the renewing path only.
     */
    static volatile Runnable beforeRenew;

    /**
     * Replaces the ring with a young copy of the same size (see "a young ring" in the class
     * overview); on an {@link OutOfMemoryError} keeps it, and clears its stolen slots as the push
     * would have. Owner only.
     */
    private Object[] renew(Object[] old, long t, long b) {
        freshTopReads = 0;
        Object[] a;
        try {
            Runnable hook = beforeRenew;
            if (hook != null) {
                hook.run();
            }
            a = new Object[old.length];
        } catch (OutOfMemoryError e) {         // only an optimisation: the old ring serves
            clearStolen(old, t, b);
            return old;
        }
        return copyInto(old, a, t, b);
    }

    /** A grow's or renewal's copy of {@code [t, b)} from {@code old} into the new ring {@code a}, published. */
    private Object[] copyInto(Object[] old, Object[] a, long t, long b) {
        for (long i = t; i < b; i++) {
            a[(int) i & (a.length - 1)] = old[(int) i & (old.length - 1)];
        }
        RING.setRelease(this, a);              // before bottom's release store: see "Growing"
        clearedBelow = t;                      // the new ring holds nothing below t
        return a;
    }

    /**
     * Grows the ring, if need be, so that {@code n} more elements fit without growing. Owner
     * only; for a batch move into this deque ({@link #stealBatch}, {@link Injector#pollBatch}),
     * before the batch takes anything: the offers that follow cannot fail then. An offer that had
     * to grow the ring threw if the new ring could not be had (an {@link OutOfMemoryError}) with
     * the element in hand, and the oldest one taken, the batch's result, was lost with it (from an
     * injector, so was every element claimed after them). Thrown from here, nothing is taken. The
     * caller bounds {@code n} by {@link #remainingCapacity()}, so the ring never exceeds
     * {@code maxCapacity}. Usually two plain reads: {@code topSeen} is never above {@code top}, so
     * room seen with it is there.
     */
    void makeRoom(int n) {
        Object[] a = ring;
        long b = bottom;
        if (b - topSeen + n <= a.length) {
            return;
        }
        long t = (long) TOP.getAcquire(this);
        topSeen = t;
        while (b - t + n > a.length && a.length < maxCapacity) {
            a = grow(a, t, b);
        }
    }

    /** Nulls slots of elements that thieves have taken ({@link TakenSlots}). Owner only. */
    private void clearStolen(Object[] a, long t, long b) {
        clearedBelow = TakenSlots.clear(a, clearedBelow, t, b, CLEAR_LAG);
    }

    // ------------------------------------------------------------------ thief operations

    /**
     * Tries to take the oldest element. Any thread.
     *
     * @return {@link StealResult#empty()} if the deque was empty, {@link StealResult#retry()}
     *     if another thread won the race for the element (the caller may try again), or a
     *     success holding the element
     */
    public StealResult<T> steal() {
        long t = (long) TOP.getAcquire(this);
        VarHandle.fullFence();                 // order the top load before the bottom load
        long b = (long) BOTTOM.getAcquire(this);
        if (t >= b) {
            return StealResult.empty();
        }
        T x = read(t);
        if (x == null || !TOP.compareAndSet(this, t, t + 1)) {
            return StealResult.retry();
        }
        return StealResult.success(x);
    }

    /**
     * Tries to take the oldest element, returning it or {@code null} whether the deque was
     * empty or the race was lost. Any thread. Use {@link #steal()} to tell those apart.
     *
     * @return the oldest element, removed, or {@code null}
     */
    public T stealOrNull() {
        long t = (long) TOP.getAcquire(this);
        VarHandle.fullFence();
        long b = (long) BOTTOM.getAcquire(this);
        if (t >= b) {
            return null;
        }
        T x = read(t);
        return x != null && TOP.compareAndSet(this, t, t + 1) ? x : null;
    }

    /**
     * Steals about half of the elements, at most {@code limit}, moving all but the oldest into
     * {@code dest} (oldest first, so {@code dest}'s owner pops them newest first) and returning
     * the oldest. The calling thread must be {@code dest}'s owner. Elements stop moving when
     * {@code dest} is full, so nothing is lost.
     *
     * @param dest the calling thread's own deque, not this one
     * @param limit the most elements to take, at least 1
     * @return {@link StealResult#empty()}, {@link StealResult#retry()} if nothing was taken
     *     because of a lost race, or a success holding the oldest stolen element
     * @throws IllegalArgumentException if {@code limit < 1} or {@code dest == this}
     * @throws NullPointerException if {@code dest} is null
     */
    public StealResult<T> stealBatch(WorkStealingDeque<T> dest, int limit) {
        T first = stealBatchOrNull(dest, limit);
        if (first != null) {
            return StealResult.success(first);
        }
        return isEmpty() ? StealResult.empty() : StealResult.retry();
    }

    /**
     * As {@link #stealBatch} but returns the oldest stolen element, or {@code null} if nothing
     * was taken.
     *
     * @param dest the calling thread's own deque, not this one
     * @param limit the most elements to take, at least 1
     * @return the oldest element taken, or {@code null}
     * @throws IllegalArgumentException if {@code limit < 1} or {@code dest == this}
     * @throws NullPointerException if {@code dest} is null
     */
    public T stealBatchOrNull(WorkStealingDeque<T> dest, int limit) {
        Objects.requireNonNull(dest, "dest");
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, was " + limit);
        }
        if (dest == this) {
            throw new IllegalArgumentException("cannot steal into the same deque");
        }
        long t = (long) TOP.getAcquire(this);
        VarHandle.fullFence();
        long b = (long) BOTTOM.getAcquire(this);
        long size = b - t;
        if (size <= 0) {
            return null;
        }
        int want = (int) Math.min(Math.min((size + 1) >>> 1, limit), 1 + dest.remainingCapacity());
        if (want > 1) {
            dest.makeRoom(want - 1);           // before anything is taken: see makeRoom
        }
        T first = read(t);
        if (first == null || !TOP.compareAndSet(this, t, t + 1)) {
            return null;
        }
        for (int k = 1; k < want; k++) {
            long i = t + k;
            VarHandle.fullFence();
            if ((long) BOTTOM.getAcquire(this) <= i) {
                break;                         // the owner popped the rest
            }
            T x = read(i);
            if (x == null || !TOP.compareAndSet(this, i, i + 1)) {
                break;                         // another thief or the owner got there first
            }
            if (!dest.offer(x)) {
                // cannot happen: want is bounded by dest's free space; never drop regardless
                throw new IllegalStateException("destination deque full while batch stealing");
            }
        }
        return first;
    }

    /**
     * Removes up to {@code max} of the oldest elements into {@code out} (oldest first) with a
     * single CAS on {@code top}. Owner only: it is the owner's own pops that make a
     * multi-element move unsafe for thieves (see the overview), and the owner cannot race
     * itself. Thieves that read the same {@code top} lose their CAS and retry.
     *
     * @param out receives the elements from index 0, oldest first
     * @param max the most elements to take, 0 or more
     * @return how many elements were moved into {@code out}
     * @throws IllegalArgumentException if {@code max} is negative or {@code out} is shorter than
     *     {@code max}
     * @throws NullPointerException if {@code out} is null
     */
    public int takeOldest(Object[] out, int max) {
        Objects.requireNonNull(out, "out");
        if (max < 0) {
            throw new IllegalArgumentException("max must not be negative, was " + max);
        }
        if (out.length < max) {
            throw new IllegalArgumentException("out has room for " + out.length + ", not " + max);
        }
        for (;;) {
            long t = (long) TOP.getAcquire(this);
            long b = bottom;                   // the caller is the owner
            int n = (int) Math.min(max, b - t);
            if (n <= 0) {
                return 0;
            }
            Object[] a = ring;
            int mask = a.length - 1;
            for (int k = 0; k < n; k++) {
                out[k] = SLOT.getAcquire(a, (int) (t + k) & mask);
            }
            if (TOP.compareAndSet(this, t, t + n)) {
                topSeen = t + n;
                // the owner's own takes, which stolenCount() must not report as thieves' steals
                OWNER_TAKES.setOpaque(this, ownerTopTakes + n);
                return n;
            }
        }
    }

    /**
     * Returns the oldest element without removing it, or {@code null} if the deque looks
     * empty. Any thread; the answer may be stale by the time it returns.
     *
     * @return the oldest element, or {@code null}
     */
    public T peekTop() {
        long t = (long) TOP.getAcquire(this);
        long b = (long) BOTTOM.getAcquire(this);
        return t < b ? read(t) : null;
    }

    @SuppressWarnings("unchecked")
    private T read(long index) {
        Object[] a = (Object[]) RING.getAcquire(this);
        return (T) SLOT.getAcquire(a, (int) index & (a.length - 1));
    }

    // ------------------------------------------------------------------ queries (any thread)

    /** {@return an estimate of the number of elements (exact when no operation is in flight)} */
    public int size() {
        long b = (long) BOTTOM.getAcquire(this);
        long t = (long) TOP.getAcquire(this);
        long n = b - t;
        return n <= 0 ? 0 : (int) Math.min(n, Integer.MAX_VALUE);
    }

    /** {@return whether the deque looked empty at the moment of the call} */
    public boolean isEmpty() {
        long t = (long) TOP.getAcquire(this);
        long b = (long) BOTTOM.getAcquire(this);
        return t >= b;
    }

    /** {@return the maximum number of elements this deque will hold} */
    public int maxCapacity() {
        return maxCapacity;
    }

    int remainingCapacity() {
        return maxCapacity - size();
    }

    /**
     * Returns how many elements were taken from the top of this deque by thieves (the owner's
     * own last-element pops and {@link #takeOldest} excluded). An estimate while operations are
     * in flight.
     *
     * @return the elements thieves have taken so far
     */
    public long stolenCount() {
        return (long) TOP.getAcquire(this) - (long) OWNER_TAKES.getOpaque(this);
    }

    @Override
    public String toString() {
        return "WorkStealingDeque[size=" + size() + ", capacity=" + ring.length + "/" + maxCapacity + "]";
    }
}

/*
 * Field layout with padding against false sharing: top (written by thieves) and bottom (written
 * by the owner) live on separate cache lines, and both away from neighbouring objects. HotSpot
 * lays out superclass fields before subclass fields, so the hierarchy fixes the order.
 */
abstract class DequePad0 {
    byte p000, p001, p002, p003, p004, p005, p006, p007, p010, p011, p012, p013, p014, p015, p016, p017;
    byte p020, p021, p022, p023, p024, p025, p026, p027, p030, p031, p032, p033, p034, p035, p036, p037;
    byte p040, p041, p042, p043, p044, p045, p046, p047, p050, p051, p052, p053, p054, p055, p056, p057;
    byte p060, p061, p062, p063, p064, p065, p066, p067, p070, p071, p072, p073, p074, p075, p076, p077;
}

abstract class DequeTop extends DequePad0 {
    /** Index of the oldest element; advanced only by CAS. */
    volatile long top;
}

abstract class DequePad1 extends DequeTop {
    byte p100, p101, p102, p103, p104, p105, p106, p107, p110, p111, p112, p113, p114, p115, p116, p117;
    byte p120, p121, p122, p123, p124, p125, p126, p127, p130, p131, p132, p133, p134, p135, p136, p137;
    byte p140, p141, p142, p143, p144, p145, p146, p147, p150, p151, p152, p153, p154, p155, p156, p157;
    byte p160, p161, p162, p163, p164, p165, p166, p167, p170, p171, p172, p173, p174, p175, p176, p177;
}

abstract class DequeBottom extends DequePad1 {
    /** Index one past the newest element; written only by the owner. */
    long bottom;
    /** The ring; replaced only by the owner when it grows. */
    Object[] ring;
    /** Owner-only: indices below this have had their slots nulled. */
    long clearedBelow;
    /** Owner-only: the owner's own takes that advanced top (last-element pops, takeOldest). */
    long ownerTopTakes;
    /** Owner-only: top as last read or set by the owner's own CAS; top never falls below it. */
    long topSeen;
    /** Owner-only: pushes that read top afresh since the ring was last renewed or grown. */
    int freshTopReads;
}

abstract class DequeFields extends DequeBottom {
    byte p200, p201, p202, p203, p204, p205, p206, p207, p210, p211, p212, p213, p214, p215, p216, p217;
    byte p220, p221, p222, p223, p224, p225, p226, p227, p230, p231, p232, p233, p234, p235, p236, p237;
    byte p240, p241, p242, p243, p244, p245, p246, p247, p250, p251, p252, p253, p254, p255, p256, p257;
    byte p260, p261, p262, p263, p264, p265, p266, p267, p270, p271, p272, p273, p274, p275, p276, p277;
}
