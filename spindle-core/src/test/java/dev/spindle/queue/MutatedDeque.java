package dev.spindle.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A test-only copy of the {@link WorkStealingDeque} algorithm (no padding, no growth limit
 * checks beyond what the tests need) into which one known bug can be switched on. The checker
 * tests run their scenarios against it to show that they notice when the deque is wrong.
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
    private volatile long top;
    private long bottom;
    private Object[] ring;
    private long clearedBelow;

    MutatedDeque(Mutation mutation, int initialCapacity) {
        this.mutation = mutation;
        this.ring = new Object[initialCapacity];
    }

    void push(T task) {
        long b = bottom;
        long t = (long) TOP.getAcquire(this);
        Object[] a = ring;
        if (b - t >= a.length) {
            Object[] bigger = new Object[a.length << 1];
            for (long i = t; i < b; i++) {
                bigger[(int) i & (bigger.length - 1)] = SLOT.getOpaque(a, (int) i & (a.length - 1));
            }
            RING.setRelease(this, bigger);
            clearedBelow = t;
            a = bigger;
        } else {
            long from = Math.max(clearedBelow, b - a.length);
            for (long i = from; i < t; i++) {
                SLOT.setOpaque(a, (int) i & (a.length - 1), null);
            }
            clearedBelow = Math.max(clearedBelow, t);
        }
        SLOT.setOpaque(a, (int) b & (a.length - 1), task);
        BOTTOM.setRelease(this, b + 1);
    }

    @SuppressWarnings("unchecked")
    T pop() {
        long b = bottom - 1;
        Object[] a = ring;
        BOTTOM.setOpaque(this, b);
        VarHandle.fullFence();
        long t = (long) TOP.getOpaque(this);
        if (t > b) {
            BOTTOM.setOpaque(this, b + 1);
            return null;
        }
        int i = (int) b & (a.length - 1);
        Object x = SLOT.getOpaque(a, i);
        if (t == b) {
            boolean won = mutation == Mutation.POP_LAST_WITHOUT_CAS
                    ? true                                  // BUG: no race with the thieves
                    : TOP.compareAndSet(this, t, t + 1);
            if (mutation == Mutation.POP_LAST_WITHOUT_CAS) {
                TOP.setOpaque(this, t + 1);
            }
            BOTTOM.setOpaque(this, b + 1);
            if (!won) {
                return null;
            }
        }
        SLOT.setOpaque(a, i, null);
        return (T) x;
    }

    StealResult<T> steal() {
        long t = (long) TOP.getAcquire(this);
        VarHandle.fullFence();
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

    T stealOrNull() {
        long t = (long) TOP.getAcquire(this);
        VarHandle.fullFence();
        long b = (long) BOTTOM.getAcquire(this);
        if (t >= b) {
            return null;
        }
        T x = read(t);
        return x != null && TOP.compareAndSet(this, t, t + 1) ? x : null;
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
            dest.push(x);
        }
        return first;
    }

    @SuppressWarnings("unchecked")
    private T read(long index) {
        Object[] a = (Object[]) RING.getAcquire(this);
        return (T) SLOT.getAcquire(a, (int) index & (a.length - 1));
    }
}
