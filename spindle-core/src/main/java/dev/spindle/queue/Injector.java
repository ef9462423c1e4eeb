/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A lock-free, unbounded, multi-producer multi-consumer FIFO queue: the entry point for work
 * submitted from outside a pool. Any thread may call any method.
 *
 * <pre>{@code
 * Injector<Runnable> injector = new Injector<>();
 * injector.offer(task);                         // any thread
 * Runnable next = injector.poll();              // any thread; null when empty
 * WorkStealingDeque<Runnable> local = ...;      // owned by the calling thread
 * Runnable first = injector.pollBatch(local, 32); // first to run now, up to 31 more into local
 * Runnable mine = injector.pollShare(local, 4);  // a fair share for one of 4 consumers
 * }</pre>
 *
 * <h2>Implementation overview</h2>
 *
 * <p>The queue is a linked list of fixed-size segments, each an array of slots with two
 * counters, {@code enq} and {@code deq} (after the fetch-and-add array queue of Correia and
 * Ramalhete). A producer claims a slot index with a fetch-and-add on the tail segment's
 * {@code enq} and installs its element with a CAS from {@code null}. A consumer claims an index
 * with a fetch-and-add on the head segment's {@code deq} and swaps the slot to a
 * {@code TAKEN} marker. Because both sides claim indices in order, elements leave in the order
 * their CASes succeeded.
 *
 * <p><b>The race for a slot.</b> A consumer can claim an index whose producer has claimed it but
 * not yet written it. The consumer's swap then finds {@code null} and leaves {@code TAKEN}
 * behind; the producer's CAS from {@code null} fails and it claims a fresh index. The slot is
 * wasted, but nothing is lost or taken twice: a slot's value changes exactly once from
 * {@code null}, either to an element (which only the one consumer holding that index can take)
 * or to {@code TAKEN}.
 *
 * <p><b>Segments.</b> A producer that claims an index past the end appends a new segment with
 * its element already in slot 0, by CAS on {@code next}, and helps swing {@code tail}.
 * Consumers that run past the end swing {@code head} to {@code next}. Old segments become
 * garbage, and since consumed slots hold the marker, not the element, finished tasks are never
 * kept reachable. Producers allocate one segment per {@value #SEGMENT_SIZE} elements, never a
 * node per element.
 *
 * <p><b>Ordering.</b> Every access that matters is a volatile read, CAS, fetch-and-add or
 * swap, so a successful {@link #offer} happens-before the {@link #poll} that returns its
 * element, and {@link #isEmpty()} after a completed {@code offer} reports the element unless a
 * consumer has already claimed it. The pools rely on that last fact to avoid lost wake-ups.
 *
 * <p>Progress is lock-free: a CAS or claim fails only because another thread's operation went
 * through.
 *
 * @param <T> the element type
 */
public final class Injector<T> extends InjectorFields {

    /** Slots per segment. */
    static final int SEGMENT_SIZE = 1024;

    private static final Object TAKEN = new Object();

    private static final VarHandle HEAD;
    private static final VarHandle TAIL;
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Object[].class);

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            HEAD = l.findVarHandle(InjectorHead.class, "head", Segment.class);
            TAIL = l.findVarHandle(InjectorTail.class, "tail", Segment.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Creates an empty injector. */
    public Injector() {
        Segment s = new Segment(0);
        head = s;
        tail = s;
    }

    /**
     * Appends {@code element}. Never fails and never blocks (the queue is unbounded).
     *
     * @param element the element to append
     * @throws NullPointerException if {@code element} is null
     */
    public void offer(T element) {
        Objects.requireNonNull(element, "element");
        for (;;) {
            Segment s = tail;
            int i = s.claimEnq();
            if (i < SEGMENT_SIZE) {
                if (SLOT.compareAndSet(s.slots, i, null, element)) {
                    return;
                }
                continue;                      // a consumer marked the slot taken; claim another
            }
            if (s != tail) {
                continue;
            }
            Segment next = s.next;
            if (next == null) {
                Segment fresh = newSegment(s.base + SEGMENT_SIZE, element);
                if (s.casNext(fresh)) {
                    TAIL.compareAndSet(this, s, fresh);
                    return;
                }
            } else {
                TAIL.compareAndSet(this, s, next);
            }
        }
    }

    /**
     * Appends {@code elements[0..n)} in order, claiming their slots with one fetch-and-add per
     * segment touched rather than one per element.
     *
     * <p>A failure to allocate a segment ({@link OutOfMemoryError}) leaves some of the first
     * elements appended and the rest not, without saying how many: a caller that must keep
     * the rest uses {@link #tryOfferAll}.
     *
     * @param elements holds the elements to append, each of type {@code T}, from index 0
     * @param n how many to append, from 0 to {@code elements.length}
     * @throws IllegalArgumentException if {@code n} is negative or above {@code elements.length}
     *     (none is added then)
     * @throws NullPointerException if {@code elements} or any of the first {@code n} is null
     *     (none is added then)
     */
    public void offerAll(Object[] elements, int n) {
        checkBatch(elements, n);
        appendAll(elements, n, true);
    }

    /**
     * As {@link #offerAll}, but where the heap has no room for a new segment it stops instead
     * of throwing: the elements before the one that needed the segment are appended, in
     * order, and that one and the rest are not. For a caller that took the elements from
     * somewhere and must put back what did not go in (a worker moving half of its full deque
     * here), which {@code offerAll}'s {@link OutOfMemoryError} does not allow.
     *
     * @param elements holds the elements to append, each of type {@code T}, from index 0
     * @param n how many to append, from 0 to {@code elements.length}
     * @return how many were appended, {@code elements[0..k)}: {@code n} unless a segment could
     *     not be allocated
     * @throws IllegalArgumentException if {@code n} is negative or above {@code elements.length}
     *     (none is added then)
     * @throws NullPointerException if {@code elements} or any of the first {@code n} is null
     *     (none is added then)
     */
    public int tryOfferAll(Object[] elements, int n) {
        checkBatch(elements, n);
        return appendAll(elements, n, false);
    }

    private static void checkBatch(Object[] elements, int n) {
        Objects.requireNonNull(elements, "elements");
        if (n < 0 || n > elements.length) {
            throw new IllegalArgumentException("n must be in [0, " + elements.length + "], was " + n);
        }
        for (int k = 0; k < n; k++) {
            Objects.requireNonNull(elements[k], "element");
        }
    }

    /**
     * Appends {@code elements[0..n)}; returns {@code n}, or, where a segment cannot be allocated
     * and {@code rethrow} is false, how many went in first. {@link #offer} is failure-atomic
     * there: its element is in the queue only if its segment was made.
     *
     * <p>A claim takes at most a segment's worth of slots, whatever is left of the batch. The
     * counter of a segment already full goes on taking the claims of the producers that find it
     * so until the tail moves on, and took each one's whole batch: a few large batches (or many
     * producers on it) wrapped the int negative, and a producer then claimed indices below zero
     * (the slot array's index out of bounds, the batch part in and part not) or went on claiming
     * there without ever appending. Bounded so, a segment's counter stays below
     * {@code SEGMENT_SIZE} per producer claiming at once, past its own slots.
     */
    @SuppressWarnings("unchecked")
    private int appendAll(Object[] elements, int n, boolean rethrow) {
        int k = 0;
        while (k < n) {
            Segment s = tail;
            int want = Math.min(n - k, SEGMENT_SIZE);
            int i = s.claimEnq(want);
            int end = Math.min(i + want, SEGMENT_SIZE);
            for (; i < end; i++) {
                if (SLOT.compareAndSet(s.slots, i, null, elements[k])) {
                    k++;                       // else a consumer marked it taken: next slot
                }
            }
            if (k < n && end >= SEGMENT_SIZE) {
                try {
                    offer((T) elements[k]);    // appends or finds the next segment
                } catch (OutOfMemoryError e) {
                    if (rethrow) {
                        throw e;
                    }
                    return k;                  // elements[k..n) are not in the queue
                }
                k++;
            }
        }
        return n;
    }

    /**
     * Run, if set, just before a producer allocates a segment: a seam for tests, which throw
     * from it what a full heap throws there. Read once per segment, never on an offer that
     * finds a slot.
     */
    static volatile Runnable beforeNewSegment;

    /** A segment holding {@code first} in slot 0, for {@link #offer} to publish. */
    private static Segment newSegment(long base, Object first) {
        Runnable hook = beforeNewSegment;
        if (hook != null) {
            hook.run();
        }
        return new Segment(base, first);
    }

    /**
     * Removes and returns the oldest element.
     *
     * @return the oldest element, or {@code null} if the queue is empty
     */
    @SuppressWarnings("unchecked")
    public T poll() {
        for (;;) {
            Segment s = head;
            int d = s.deq;
            if (d >= SEGMENT_SIZE) {
                if (!advanceHead(s)) {
                    return null;
                }
                continue;
            }
            if (d >= s.enq) {
                return null;                   // no producer has claimed index d yet
            }
            int i = s.claimDeq(1);
            if (i >= SEGMENT_SIZE) {
                continue;
            }
            Object x = SLOT.getAndSet(s.slots, i, TAKEN);
            if (x != null) {
                return (T) x;
            }
            // the producer of index i had not written yet; it will retry elsewhere
        }
    }

    /**
     * Removes up to {@code max} of the oldest elements: returns the oldest and pushes the rest,
     * oldest first, into {@code dest}, which the calling thread must own. Takes no more than
     * {@code dest} has room for. Claims the whole batch with one fetch-and-add.
     *
     * @param dest the calling thread's own deque, which receives all but the oldest taken
     * @param max the most elements to take, at least 1
     * @return the oldest element taken, or {@code null} if the queue was empty
     * @throws IllegalArgumentException if {@code max < 1}
     */
    public T pollBatch(WorkStealingDeque<T> dest, int max) {
        checkMax(max);
        Objects.requireNonNull(dest, "dest");
        int want = Math.min(max, 1 + dest.remainingCapacity());
        if (want > 1 && !isEmpty()) {
            // before anything is claimed: an offer that grew dest and failed (an OutOfMemoryError)
            // lost the element in hand, the first, and every later one claimed (see makeRoom)
            dest.makeRoom(want - 1);
        }
        return claimBatch(dest, want);
    }

    /**
     * As {@link #pollBatch(WorkStealingDeque, int)}, into an {@link OwnerFifo} the calling thread
     * owns: the rest of the batch is appended to it, oldest first.
     *
     * @param dest the calling thread's own queue, which receives all but the oldest taken
     * @param max the most elements to take, at least 1
     * @return the oldest element taken, or {@code null} if the queue was empty
     * @throws IllegalArgumentException if {@code max < 1}
     */
    public T pollBatch(OwnerFifo<T> dest, int max) {
        checkMax(max);
        Objects.requireNonNull(dest, "dest");
        return claimBatch(dest, Math.min(max, 1 + dest.remainingCapacity()));
    }

    private static void checkMax(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("max must be at least 1, was " + max);
        }
    }

    /**
     * Claims up to {@code want} of the oldest elements with one fetch-and-add; returns the
     * oldest and offers the rest to {@code dest} (a {@link WorkStealingDeque} or an
     * {@link OwnerFifo} with room for {@code want - 1}).
     */
    @SuppressWarnings("unchecked")
    private T claimBatch(Object dest, int want) {
        for (;;) {
            Segment s = head;
            int d = s.deq;
            if (d >= SEGMENT_SIZE) {
                if (!advanceHead(s)) {
                    return null;
                }
                continue;
            }
            int available = Math.min(s.enq, SEGMENT_SIZE) - d;
            if (available <= 0) {
                return null;
            }
            int n = Math.min(available, want);
            int from = s.claimDeq(n);
            int to = Math.min(from + n, SEGMENT_SIZE);
            T first = null;
            for (int i = from; i < to; i++) {
                Object x = SLOT.getAndSet(s.slots, i, TAKEN);
                if (x == null) {
                    continue;
                }
                if (first == null) {
                    first = (T) x;
                } else if (!(dest instanceof WorkStealingDeque<?> deque
                        ? ((WorkStealingDeque<T>) deque).offer((T) x)
                        : ((OwnerFifo<T>) dest).offer((T) x))) {
                    offer((T) x);              // cannot happen (want bounds it); never drop
                }
            }
            if (first != null) {
                return first;
            }
        }
    }

    /**
     * Takes a fair share of what is queued for one of {@code consumers} threads that drain this
     * queue: {@code ceil(size / consumers)} elements, at most half of {@code dest}'s capacity
     * and at least one. The oldest is returned and the rest pushed into {@code dest}, as
     * {@link #pollBatch} does.
     *
     * <p>Why a share and not one element: elements queued together by one producer were
     * usually allocated together, and a consumer that takes a run of them keeps the objects it
     * then writes on every run of a task (its state word, the task's own fields) off the cache
     * lines of the objects its peers write. Taken one at a time by alternating consumers,
     * neighbours land on different threads and every write to one invalidates the other's line
     * (yield_many on 2 workers of the async runtime: 68 ns per yield, against 29 ns for the same
     * tasks spread in runs). Why no more than the share: a consumer holding more than its share
     * keeps tasks from idle peers, which matters when the task it runs first blocks.
     *
     * @param dest the calling thread's own deque, which receives all but the oldest taken
     * @param consumers how many threads share this queue's work, at least 1
     * @return the oldest element taken, or {@code null} if the queue was empty
     * @throws IllegalArgumentException if {@code consumers < 1}
     */
    public T pollShare(WorkStealingDeque<T> dest, int consumers) {
        Objects.requireNonNull(dest, "dest");
        long share = share(consumers, dest.maxCapacity() / 2);
        return share == 0 ? null : pollBatch(dest, (int) share);
    }

    /**
     * As {@link #pollShare(WorkStealingDeque, int)}, into an {@link OwnerFifo} the calling thread
     * owns (at most half of its capacity).
     *
     * @param dest the calling thread's own queue, which receives all but the oldest taken
     * @param consumers how many threads share this queue's work, at least 1
     * @return the oldest element taken, or {@code null} if the queue was empty
     * @throws IllegalArgumentException if {@code consumers < 1}
     */
    public T pollShare(OwnerFifo<T> dest, int consumers) {
        Objects.requireNonNull(dest, "dest");
        long share = share(consumers, dest.capacity() / 2);
        return share == 0 ? null : pollBatch(dest, (int) share);
    }

    /** {@code ceil(size / consumers)}, between 1 and {@code cap}; 0 if the queue looks empty. */
    private long share(int consumers, int cap) {
        if (consumers < 1) {
            throw new IllegalArgumentException("consumers must be at least 1, was " + consumers);
        }
        long queued = size();
        if (queued <= 0) {
            return 0;
        }
        return Math.max(1, Math.min((queued + consumers - 1) / consumers, cap));
    }

    /**
     * Removes every element present, oldest first, passing each to {@code sink}.
     *
     * @param sink receives each element removed, on the calling thread
     * @return the number of elements removed
     */
    public int drain(Consumer<? super T> sink) {
        Objects.requireNonNull(sink, "sink");
        int n = 0;
        for (T x; (x = poll()) != null; n++) {
            sink.accept(x);
        }
        return n;
    }

    private boolean advanceHead(Segment s) {
        Segment next = s.next;
        if (next == null) {
            return false;
        }
        HEAD.compareAndSet(this, s, next);
        return true;
    }

    /**
     * Returns whether the queue looked empty: {@code false} whenever an {@link #offer} has
     * completed and no consumer has yet claimed its element.
     *
     * @return whether no element was found
     */
    public boolean isEmpty() {
        Segment s = head;
        for (;;) {
            int d = s.deq;
            if (d < SEGMENT_SIZE) {
                return d >= s.enq;
            }
            s = s.next;
            if (s == null) {
                return true;
            }
        }
    }

    /** {@return an estimate of the number of elements; exact when no operation is in flight} */
    public long size() {
        Segment h = head;
        Segment t = tail;
        long enqueued = t.base + Math.min(t.enq, SEGMENT_SIZE);
        long dequeued = h.base + Math.min(h.deq, SEGMENT_SIZE);
        return Math.max(0, enqueued - dequeued);
    }

    @Override
    public String toString() {
        return "Injector[size~" + size() + "]";
    }

    /** A fixed block of slots with its own claim counters. */
    static final class Segment extends SegmentFields {
        private static final VarHandle ENQ;
        private static final VarHandle DEQ;
        private static final VarHandle NEXT;

        static {
            try {
                MethodHandles.Lookup l = MethodHandles.lookup();
                ENQ = l.findVarHandle(SegmentEnq.class, "enq", int.class);
                DEQ = l.findVarHandle(SegmentDeq.class, "deq", int.class);
                NEXT = l.findVarHandle(SegmentDeq.class, "next", Segment.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        final long base;
        final Object[] slots = new Object[SEGMENT_SIZE];

        Segment(long base) {
            this.base = base;
        }

        /** A segment whose slot 0 already holds {@code first}; published by {@link #casNext}. */
        Segment(long base, Object first) {
            this.base = base;
            slots[0] = first;
            enq = 1;
        }

        int claimEnq() {
            return (int) ENQ.getAndAdd(this, 1);
        }

        int claimEnq(int n) {
            return (int) ENQ.getAndAdd(this, n);
        }

        int claimDeq(int n) {
            return (int) DEQ.getAndAdd(this, n);
        }

        boolean casNext(Segment fresh) {
            return NEXT.compareAndSet(this, null, fresh);
        }
    }
}

/* Padding: head (consumers) and tail (producers) on separate cache lines. */
abstract class InjectorPad0 {
    byte p000, p001, p002, p003, p004, p005, p006, p007, p010, p011, p012, p013, p014, p015, p016, p017;
    byte p020, p021, p022, p023, p024, p025, p026, p027, p030, p031, p032, p033, p034, p035, p036, p037;
    byte p040, p041, p042, p043, p044, p045, p046, p047, p050, p051, p052, p053, p054, p055, p056, p057;
    byte p060, p061, p062, p063, p064, p065, p066, p067, p070, p071, p072, p073, p074, p075, p076, p077;
}

abstract class InjectorHead extends InjectorPad0 {
    volatile Injector.Segment head;
}

abstract class InjectorPad1 extends InjectorHead {
    byte p100, p101, p102, p103, p104, p105, p106, p107, p110, p111, p112, p113, p114, p115, p116, p117;
    byte p120, p121, p122, p123, p124, p125, p126, p127, p130, p131, p132, p133, p134, p135, p136, p137;
    byte p140, p141, p142, p143, p144, p145, p146, p147, p150, p151, p152, p153, p154, p155, p156, p157;
    byte p160, p161, p162, p163, p164, p165, p166, p167, p170, p171, p172, p173, p174, p175, p176, p177;
}

abstract class InjectorTail extends InjectorPad1 {
    volatile Injector.Segment tail;
}

abstract class InjectorFields extends InjectorTail {
    byte p200, p201, p202, p203, p204, p205, p206, p207, p210, p211, p212, p213, p214, p215, p216, p217;
    byte p220, p221, p222, p223, p224, p225, p226, p227, p230, p231, p232, p233, p234, p235, p236, p237;
    byte p240, p241, p242, p243, p244, p245, p246, p247, p250, p251, p252, p253, p254, p255, p256, p257;
    byte p260, p261, p262, p263, p264, p265, p266, p267, p270, p271, p272, p273, p274, p275, p276, p277;
}

/* Segment counters: enq (producers) and deq (consumers) on separate cache lines. */
abstract class SegmentPad0 {
    byte p000, p001, p002, p003, p004, p005, p006, p007, p010, p011, p012, p013, p014, p015, p016, p017;
    byte p020, p021, p022, p023, p024, p025, p026, p027, p030, p031, p032, p033, p034, p035, p036, p037;
    byte p040, p041, p042, p043, p044, p045, p046, p047, p050, p051, p052, p053, p054, p055, p056, p057;
    byte p060, p061, p062, p063, p064, p065, p066, p067, p070, p071, p072, p073, p074, p075, p076, p077;
}

abstract class SegmentEnq extends SegmentPad0 {
    volatile int enq;
}

abstract class SegmentPad1 extends SegmentEnq {
    byte p100, p101, p102, p103, p104, p105, p106, p107, p110, p111, p112, p113, p114, p115, p116, p117;
    byte p120, p121, p122, p123, p124, p125, p126, p127, p130, p131, p132, p133, p134, p135, p136, p137;
    byte p140, p141, p142, p143, p144, p145, p146, p147, p150, p151, p152, p153, p154, p155, p156, p157;
    byte p160, p161, p162, p163, p164, p165, p166, p167, p170, p171, p172, p173, p174, p175, p176, p177;
}

abstract class SegmentDeq extends SegmentPad1 {
    volatile int deq;
    volatile Injector.Segment next;
}

abstract class SegmentFields extends SegmentDeq {
    byte p200, p201, p202, p203, p204, p205, p206, p207, p210, p211, p212, p213, p214, p215, p216, p217;
}
