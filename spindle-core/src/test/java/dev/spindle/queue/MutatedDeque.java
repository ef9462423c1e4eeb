package dev.spindle.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A test-only copy of the {@link WorkStealingDeque} algorithm (no padding, no maximum capacity,
 * no counters) into which one known bug can be switched on. The checker tests run their
 * scenarios against it to show that they notice when the deque is wrong.
 *
 * <p>It follows the real deque step for step: the push on the owner's view of {@code top}
 * ({@code topSeen}) with a fresh read only when the ring looks full or empty or at every
 * {@code lag}th index, the clearing of stolen slots by the real {@link TakenSlots}, the pop that
 * takes a lone element with one CAS, and the batch steal one CAS an element. Keep it in step
 * when the deque changes. The clearing lag is a parameter so that the scenarios, whose rings
 * hold a handful of elements, reach the clearing code that the real lag of
 * {@value WorkStealingDeque#CLEAR_LAG} keeps out of their reach.
 *
 * <p>With {@link Mutation#NONE} it behaves like the real deque.
 */
final class MutatedDeque<T> {

    enum Mutation {
        /** The real algorithm. */
        NONE,
        /** pop() takes the last element without racing thieves by CAS on top. */
        POP_LAST_WITHOUT_CAS,
        /**
         * stealBatch claims its whole batch with one CAS from t to t + n, which can take an
         * element that the owner has already popped without a CAS.
         */
        BATCH_SINGLE_CAS,
        /**
         * A thief nulls the slot it won after its CAS, which the overview forbids: by then the
         * owner may have wrapped around and stored a new element in the same slot.
         */
        THIEF_CLEARS_SLOT,
    }

    private static final VarHandle TOP;
    private static final VarHandle BOTTOM;
    private static final VarHandle RING;
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Object[].class);

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            TOP = l.findVarHandle(MutatedDeque.class, "top", long.class);
            BOTTOM = l.findVarHandle(MutatedDeque.class, "bottom", long.class);
            RING = l.findVarHandle(MutatedDeque.class, "ring", Object[].class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Mutation mutation;
    private final int lag;
    private volatile long top;
    private long bottom;
    private Object[] ring;
    private long clearedBelow;
    private long topSeen;

    /**
     * @param lag the clearing lag, a power of two (the real deque's is
     *     {@value WorkStealingDeque#CLEAR_LAG})
     */
    MutatedDeque(Mutation mutation, int initialCapacity, int lag) {
        if (Integer.bitCount(lag) != 1) {
            throw new IllegalArgumentException("lag must be a power of two, was " + lag);
        }
        this.mutation = mutation;
        this.ring = new Object[initialCapacity];
        this.lag = lag;
    }

    void push(T task) {
        long b = bottom;
        long t = topSeen;
        Object[] a = ring;
        if (b - t >= a.length || t == b || (b & (lag - 1)) == 0) {
            pushWithFreshTop(task, b, a);
            return;
        }
        a[(int) b & (a.length - 1)] = task;
        BOTTOM.setRelease(this, b + 1);
    }

    private void pushWithFreshTop(T task, long b, Object[] a) {
        long t = (long) TOP.getAcquire(this);
        topSeen = t;
        if (b - t >= a.length) {
            Object[] bigger = new Object[a.length << 1];
            for (long i = t; i < b; i++) {
                bigger[(int) i & (bigger.length - 1)] = a[(int) i & (a.length - 1)];
            }
            RING.setRelease(this, bigger);
            clearedBelow = t;
            a = bigger;
        } else {
            clearedBelow = TakenSlots.clear(a, clearedBelow, t, b, lag);
        }
        a[(int) b & (a.length - 1)] = task;
        BOTTOM.setRelease(this, b + 1);
    }

    @SuppressWarnings("unchecked")
    T pop() {
        long b = bottom - 1;
        Object[] a = ring;
        long seen = (long) TOP.getAcquire(this);
        if (seen == b) {
            int i = (int) b & (a.length - 1);
            Object x = SLOT.getOpaque(a, i);
            topSeen = b + 1;
            if (!claimLast(b)) {
                return null;
            }
            a[i] = null;
            return (T) x;
        }
        if (seen > b) {
            return null;
        }
        BOTTOM.setRelease(this, b);
        VarHandle.fullFence();
        long t = (long) TOP.getOpaque(this);
        if (t > b) {
            BOTTOM.setRelease(this, b + 1);
            return null;
        }
        int i = (int) b & (a.length - 1);
        Object x = SLOT.getOpaque(a, i);
        if (t == b) {
            topSeen = t + 1;
            boolean won = claimLast(t);
            BOTTOM.setRelease(this, b + 1);
            if (!won) {
                return null;
            }
        }
        a[i] = null;
        return (T) x;
    }

    /** The owner's race with the thieves for the last element, at index {@code t}. */
    private boolean claimLast(long t) {
        if (mutation == Mutation.POP_LAST_WITHOUT_CAS) {
            TOP.setOpaque(this, t + 1);                     // BUG: no race with the thieves
            return true;
        }
        return TOP.compareAndSet(this, t, t + 1);
    }

    T stealOrNull() {
        long t = (long) TOP.getAcquire(this);
        VarHandle.fullFence();
        long b = (long) BOTTOM.getAcquire(this);
        if (t >= b) {
            return null;
        }
        T x = read(t);
        if (x == null || !TOP.compareAndSet(this, t, t + 1)) {
            return null;
        }
        clearAfterWinning(t);
        return x;
    }

    /** As {@link WorkStealingDeque#stealBatchOrNull}, with an unbounded destination. */
    T stealBatchOrNull(WorkStealingDeque<T> dest, int limit) {
        long t = (long) TOP.getAcquire(this);
        VarHandle.fullFence();
        long b = (long) BOTTOM.getAcquire(this);
        long size = b - t;
        if (size <= 0) {
            return null;
        }
        int want = (int) Math.min((size + 1) >>> 1, limit);
        if (mutation == Mutation.BATCH_SINGLE_CAS) {
            Object[] items = new Object[want];
            for (int k = 0; k < want; k++) {
                items[k] = read(t + k);
                if (items[k] == null) {
                    return null;
                }
            }
            if (!TOP.compareAndSet(this, t, t + want)) {    // BUG: skips the per-element check
                return null;
            }
            for (int k = 1; k < want; k++) {
                @SuppressWarnings("unchecked")
                T x = (T) items[k];
                dest.push(x);
            }
            @SuppressWarnings("unchecked")
            T first = (T) items[0];
            return first;
        }
        T first = read(t);
        if (first == null || !TOP.compareAndSet(this, t, t + 1)) {
            return null;
        }
        clearAfterWinning(t);
        for (int k = 1; k < want; k++) {
            long i = t + k;
            VarHandle.fullFence();
            if ((long) BOTTOM.getAcquire(this) <= i) {
                break;
            }
            T x = read(i);
            if (x == null || !TOP.compareAndSet(this, i, i + 1)) {
                break;
            }
            clearAfterWinning(i);
            dest.push(x);
        }
        return first;
    }

    private void clearAfterWinning(long index) {
        if (mutation == Mutation.THIEF_CLEARS_SLOT) {
            Object[] a = (Object[]) RING.getAcquire(this);
            SLOT.setRelease(a, (int) index & (a.length - 1), null);     // BUG: may erase a newer element
        }
    }

    @SuppressWarnings("unchecked")
    private T read(long index) {
        Object[] a = (Object[]) RING.getAcquire(this);
        return (T) SLOT.getAcquire(a, (int) index & (a.length - 1));
    }
}
