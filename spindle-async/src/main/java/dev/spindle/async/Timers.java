/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The timer behind {@link Async#sleep} and {@link Async#timeout}.
 *
 * <p><b>Overview.</b> Deadlines ({@link System#nanoTime} values) live in a binary min-heap
 * ordered by (deadline, sequence number), so entries fire in deadline order and FIFO among equal
 * deadlines. Each entry knows its heap index, so {@link Entry#cancel()} removes it in O(log n)
 * instead of leaving garbage behind (a server that puts a 30 s timeout on every request and
 * mostly finishes early cancels almost all of them). Due entries are taken out under the lock
 * ({@link #fireDue}) and their wakers fired after it is released, so a waker that schedules
 * another timer cannot deadlock; an entry leaves the heap exactly once (by firing or by
 * cancelling, both under the lock, or at once if the schedule that added it throws), so it
 * fires at most once, and a cancelled one never.
 *
 * <p><b>Who fires them.</b> Two kinds of instance share this one heap:
 * <ul>
 *   <li>the JVM-wide {@link #SHARED} timer, with one lazily started daemon thread
 *       ({@code spindle-async-timer}) that waits on a condition with the time to the earliest
 *       deadline (untimed when the heap is empty); a schedule that becomes the new earliest
 *       deadline signals it. No polling and no busy waiting.</li>
 *   <li>a runtime's own timer when its idle workers drive I/O and timers
 *       ({@link AsyncRuntime.Builder#driveIo}): no thread; the worker that drives fires the due
 *       entries when it returns from its wait, and sleeps no longer than {@link #nanosToNext};
 *       a schedule that becomes the new earliest deadline runs {@code earlier}, which wakes that
 *       worker so it sleeps again with the shorter timeout ({@link DrivingParker}).</li>
 * </ul>
 * {@link #schedule} picks the current worker's runtime's timer if it has one, else the shared
 * one: the wake-up then comes from the thread that already runs the tasks.
 *
 * <p><b>A round that fails.</b> Both fire through {@link #fireDueOrBackOff}, which catches an
 * {@link Error} out of the round itself (a waker's is caught in {@link #fire}), reports it and
 * holds the due entries back for a pause that grows while rounds keep failing: {@link #anyDue},
 * {@link #nanosToNext} and the timer thread's wait all count it. A worker that drives the timers
 * once let such an error out of its park, and a worker that dies shuts its runtime down: every
 * task of a driven runtime failed because one round of firing found no memory left.
 */
final class Timers {

    /** The JVM-wide timer with a thread of its own. */
    static final Timers SHARED = new Timers(null);

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /** Null for the shared timer (it signals its thread); else run when the earliest deadline moves up. */
    private final Runnable earlier;
    private static final int INITIAL_CAPACITY = 64;
    private Entry[] heap = new Entry[INITIAL_CAPACITY];
    private int size;
    private long nextSeq;
    private Thread thread;
    /** The earliest deadline, or unset when {@link #count} is 0: read without the lock by {@link #anyDue}. */
    private volatile long first;
    private volatile int count;
    /**
     * The pause after the last round of firing, in milliseconds, if that round failed; 0 after
     * a round that completed (see {@link #fireDueOrBackOff}). Written by whoever fires: the
     * timer thread, or the worker holding the timer slot of a driving runtime, one at a time.
     */
    private volatile long backoffMillis;
    /** When that pause ends ({@link System#nanoTime}); meaningful while {@link #backoffMillis} is not 0. */
    private volatile long pausedUntil;

    /** Makes (not starts) the shared timer's thread; tests pass one whose start fails. */
    private final Function<Runnable, Thread> threads;
    /**
     * Run under the lock as {@link #fireDue} takes each due entry, before it is taken; does
     * nothing but for tests, which make it throw as the growth of the list of due entries would
     * when no memory is left. A test may replace it on a driving runtime's timer before it
     * spawns the task that schedules an entry (that spawn orders the write before the firing's
     * read).
     */
    Runnable taking;

    Timers(Runnable earlier) {
        this(earlier, Timers::timerThread);
    }

    Timers(Runnable earlier, Function<Runnable, Thread> threads) {
        this(earlier, threads, () -> { });
    }

    Timers(Runnable earlier, Function<Runnable, Thread> threads, Runnable taking) {
        this.earlier = earlier;
        this.threads = threads;
        this.taking = taking;
    }

    /**
     * The shared timer's thread, made by whichever task schedules the first timer. It lives as
     * long as the JVM, firing every later task's wakers, so it takes nothing of that task's
     * thread: no inherited InheritableThreadLocal values (a request's context, seen by every
     * later waker), the system class loader rather than the caller's (a web application's was
     * pinned for good), and normal priority rather than the caller's. The loader is the one the
     * common pool's workers have, not null: the wakers fired here are user code when a caller
     * polls a task itself, and getContextClassLoader().getResource(..) threw a
     * NullPointerException in them.
     */
    private static Thread timerThread(Runnable loop) {
        Thread t = new Thread(null, loop, "spindle-async-timer", 0, false);
        t.setDaemon(true);
        t.setContextClassLoader(ClassLoader.getSystemClassLoader());
        t.setPriority(Thread.NORM_PRIORITY);
        return t;
    }

    /** A scheduled wake-up. */
    static final class Entry {
        final long deadline;
        final long seq;
        private final Timers owner;
        private volatile Waker waker;
        private volatile boolean fired;
        int index = -1; // heap slot; -1 when not in the heap. Guarded by owner.lock.

        Entry(Timers owner, long deadline, long seq, Waker waker) {
            this.owner = owner;
            this.deadline = deadline;
            this.seq = seq;
            this.waker = waker;
        }

        /** Whether the deadline passed and the waker was (or is being) fired. */
        boolean fired() {
            return fired;
        }

        /** Replaces the waker to fire (a task may be polled with a new waker). */
        void setWaker(Waker w) {
            this.waker = w;
        }

        /** Removes the entry if it has not fired yet; idempotent. */
        void cancel() {
            owner.lock.lock();
            try {
                if (index >= 0) {
                    owner.removeAt(index);
                    owner.published();
                }
            } finally {
                owner.lock.unlock();
            }
            waker = null;
        }

        boolean before(Entry o) {
            return deadline != o.deadline ? deadline - o.deadline < 0 : seq < o.seq;
        }
    }

    /**
     * Schedules {@code waker} to be woken once {@link System#nanoTime()} reaches
     * {@code deadlineNanos}, on the current worker's runtime's timer if it drives its own, else
     * on the shared one.
     */
    static Entry schedule(long deadlineNanos, Waker waker) {
        AsyncWorker w = AsyncWorker.current();
        Timers t = w != null && w.runtime.timers != null ? w.runtime.timers : SHARED;
        return t.add(deadlineNanos, waker);
    }

    /** Number of entries waiting on the shared timer (for tests). */
    static int pending() {
        return SHARED.size();
    }

    /**
     * The furthest ahead an entry's deadline is kept, about 73 years. Deadlines are ordered by
     * their difference ({@link Entry#before}), which overflows between a deadline almost 2^63 ns
     * ahead ({@code sleepUntil(Long.MAX_VALUE)}, or once {@code sleep(Duration.ofNanos(Long.MAX_VALUE))},
     * before {@code Async} clamped a duration to this limit as well) and one already due; the far one
     * then sorted first and hid the due one for as long as it stayed in the heap. An entry
     * clamped here fires early only after 73 years; the task's own deadline is not changed.
     */
    static final long MAX_AHEAD_NANOS = Long.MAX_VALUE / 4;

    Entry add(long deadlineNanos, Waker waker) {
        long now = System.nanoTime();
        if (deadlineNanos - now > MAX_AHEAD_NANOS) {
            deadlineNanos = now + MAX_AHEAD_NANOS;
        }
        boolean becameFirst;
        lock.lock();
        try {
            Entry e = new Entry(this, deadlineNanos, nextSeq++, waker);
            if (size == heap.length) {
                heap = Arrays.copyOf(heap, size * 2);
            }
            heap[size] = e;
            e.index = size;
            size++;
            siftUp(e.index);
            published();
            becameFirst = e.index == 0;
            if (earlier == null) {
                if (thread == null) {
                    // Recorded once started: a start that fails (no native thread left for the
                    // moment) throws to this caller and leaves the next add to try again. Set
                    // before the start, the field said a thread ran, and no timer of the JVM
                    // ever fired again.
                    Thread t;
                    try {
                        t = threads.apply(this::run);  // making the thread may fail too (no memory)
                        t.start();
                    } catch (Throwable failed) {
                        // The caller gets no entry to cancel, so none may stay: left in the heap,
                        // it held its waker (the failed task) until its deadline, one more at
                        // each schedule while threads stayed short.
                        removeAt(e.index);
                        published();
                        throw failed;
                    }
                    thread = t;
                } else if (becameFirst) {
                    changed.signal();
                }
            }
            if (earlier != null && becameFirst) {
                // after the unlock below would do as well; here a driver that reads the heap
                // next is sure to see the entry, whichever of the two goes first
                earlier.run();
            }
            return e;
        } finally {
            lock.unlock();
        }
    }

    /** Number of entries waiting. */
    int size() {
        lock.lock();
        try {
            return size;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Nanoseconds until the earliest deadline (0 if one is due), or -1 if nothing is scheduled;
     * no less than what is left of the pause after a failed round.
     */
    long nanosToNext() {
        if (count == 0) {
            return -1;
        }
        long now = System.nanoTime();
        return Math.max(Math.max(0, first - now), pauseLeft(now));
    }

    /**
     * Whether an entry is due and no pause after a failed round holds it back, without the lock
     * (a racy hint for a busy worker's periodic check).
     */
    boolean anyDue() {
        if (count == 0) {
            return false;
        }
        long now = System.nanoTime();
        return first - now <= 0 && pauseLeft(now) == 0;
    }

    /** Nanoseconds left of the pause after a failed round of firing; 0 if none. */
    private long pauseLeft(long now) {
        return backoffMillis == 0 ? 0 : Math.max(0, pausedUntil - now);
    }

    /**
     * Takes out the entries due now and fires their wakers, after the lock, on this thread. An
     * entry goes into the list of due ones before it leaves the heap, and whatever the list holds
     * is fired even if an {@link Error} (the list's growth finding no memory left) ends the
     * taking: that error then reaches the caller, and the entries not taken stay in the heap for
     * the next call. Before, an entry taken out of the heap and marked fired but not yet listed
     * was never woken. Those that fire the timer call {@link #fireDueOrBackOff}.
     */
    void fireDue() {
        List<Entry> due = null;
        try {
            lock.lock();
            try {
                long now = System.nanoTime();
                while (size > 0 && heap[0].deadline - now <= 0) {
                    Entry e = heap[0];
                    taking.run();
                    if (due == null) {
                        due = new ArrayList<>();
                    }
                    due.add(e);
                    e.fired = true;
                    removeAt(0);
                }
            } finally {
                published();
                lock.unlock();
            }
        } finally {
            if (due != null) {
                fire(due);
            }
        }
    }

    private static void fire(List<Entry> due) {
        for (Entry e : due) {
            Waker w = e.waker;
            if (w != null) {
                try {
                    w.wake();
                } catch (Throwable t) {
                    // A waker must not throw. One that does is reported, as a failed pool task
                    // is, to the firing thread's uncaught-exception handler, which the thread
                    // survives even if the handler throws too: the timer thread, or the worker
                    // that drives the timers, goes on firing the other entries.
                    AsyncRuntime.reportStray(t);
                }
            }
        }
    }

    /**
     * One round of firing for whoever fires this timer (the shared timer's thread, or the worker
     * that drives a runtime's timers); never throws. Neither may end: the shared timer's thread
     * lives as long as the JVM, and every sleep and timeout of the JVM that runs on no driving
     * runtime waits on it; a driving worker that dies shuts its runtime down. So an
     * {@link Error} out of the round ({@link #fireDue}'s own, an {@link OutOfMemoryError} say: a
     * waker's is caught in {@link #fire}) is reported to the firing thread's uncaught-exception
     * handler, and the firing goes on; the entries that round did not take are still in the
     * heap, and a later round fires them. Before, the error ended the timer thread, and since it
     * stayed recorded, no timer of the JVM fired again; on a driving worker it shut the runtime
     * down. An error that recurs (memory stays exhausted) must not make the firing thread spin
     * at full speed, reporting it each time: after each failed round the due entries are held
     * back ({@link #anyDue}, {@link #nanosToNext} and the timer thread's wait count the pause),
     * 1 ms after the first and twice as long after each next, up to {@link #MAX_BACKOFF_MILLIS};
     * a round that completes ends it. Timers then fire late by at most that pause, and only while
     * rounds keep failing; a driving worker meanwhile goes on running tasks and I/O.
     */
    void fireDueOrBackOff() {
        try {
            fireDue();
            if (backoffMillis != 0) {
                backoffMillis = 0;
            }
        } catch (Throwable t) {
            failedRound(t);
        }
    }

    /** Reports what ended a round of firing and lengthens the pause before the next. Never throws. */
    private void failedRound(Throwable t) {
        AsyncRuntime.reportStray(t);           // never throws
        long pause = Math.min(MAX_BACKOFF_MILLIS, Math.max(1, 2 * backoffMillis));
        pausedUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(pause);
        backoffMillis = pause;                 // after pausedUntil: a reader that sees it sees that
    }

    /**
     * The shared timer's thread: rounds of {@link #awaitDueAndFire} for as long as the JVM runs.
     * A round's firing never throws ({@link #fireDueOrBackOff}); anything else out of a round
     * is handled as a failed firing, so nothing here ends the thread.
     */
    private void run() {
        while (true) {
            try {
                awaitDueAndFire();
            } catch (Throwable t) {
                failedRound(t);
            }
        }
    }

    /** The longest the due entries are held back after a failed round (see {@link #fireDueOrBackOff}). */
    static final long MAX_BACKOFF_MILLIS = 100;

    /**
     * One round of the shared timer's thread: waits for the earliest deadline (and for the end
     * of the pause after a failed round), then fires.
     */
    private void awaitDueAndFire() {
        lock.lock();
        try {
            while (true) {
                if (size == 0) {
                    changed.awaitUninterruptibly();
                    continue;
                }
                long now = System.nanoTime();
                long wait = Math.max(heap[0].deadline - now, pauseLeft(now));
                if (wait <= 0) {
                    break;
                }
                try {
                    changed.awaitNanos(wait);
                } catch (InterruptedException ignored) {
                    // the timer thread is not interruptible in any meaningful way
                }
            }
        } finally {
            lock.unlock();
        }
        fireDueOrBackOff();
    }

    /** Publishes the earliest deadline for the lock-free readers. Lock held. */
    private void published() {
        if (size > 0) {
            first = heap[0].deadline;
        }
        count = size;
    }

    private void removeAt(int i) {
        Entry removed = heap[i];
        removed.index = -1;
        size--;
        if (i == size) {
            heap[size] = null;
        } else {
            Entry last = heap[size];
            heap[size] = null;
            heap[i] = last;
            last.index = i;
            siftDown(i);
            if (last.index == i) {
                siftUp(i);
            }
        }
        shrinkIfSparse();
    }

    /**
     * Halves the heap's array once it is three-quarters empty, so a burst of timers (a million
     * requests each with a timeout) does not keep its array for the life of the timer, which
     * for {@link #SHARED} is the JVM's. Growing at full and shrinking at a quarter leaves a
     * factor of two between the two thresholds: a size that moves around one of them copies the
     * array at most once per as many operations as the array has slots.
     *
     * <p>Giving the array back can wait, a removal cannot fail: an {@link OutOfMemoryError} from
     * the copy keeps the array as it is (a later removal tries again). It went out of
     * {@link Entry#cancel()}, which a cancel must not throw: a timeout whose task had just
     * completed threw it in place of the outcome (an acquire's permit taken for a task that
     * failed, never to be released), and a cancelled timeout threw before withdrawing its task.
     */
    private void shrinkIfSparse() {
        if (heap.length > INITIAL_CAPACITY && size < heap.length / 4) {
            try {
                Consumer<Timers> hook = beforeShrink;
                if (hook != null) {
                    hook.accept(this);
                }
                heap = Arrays.copyOf(heap, heap.length / 2);
            } catch (OutOfMemoryError keepTheLargerArray) {
                // nothing lost: the entries are where they were, in the array they were in
            }
        }
    }

    /**
     * Run, if set, with this timer as {@link #shrinkIfSparse} is about to copy the array: a seam
     * for tests, which throw from it the {@link OutOfMemoryError} a full heap throws at that
     * copy. Read only when the array is to be halved, never by an add or a removal that keeps it.
     */
    static volatile Consumer<Timers> beforeShrink;

    /** Slots in the heap's array (for tests). */
    int capacity() {
        lock.lock();
        try {
            return heap.length;
        } finally {
            lock.unlock();
        }
    }

    private void siftUp(int i) {
        Entry e = heap[i];
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            Entry p = heap[parent];
            if (!e.before(p)) {
                break;
            }
            heap[i] = p;
            p.index = i;
            i = parent;
        }
        heap[i] = e;
        e.index = i;
    }

    private void siftDown(int i) {
        Entry e = heap[i];
        while (true) {
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && heap[child + 1].before(heap[child])) {
                child++;
            }
            if (!heap[child].before(e)) {
                break;
            }
            heap[i] = heap[child];
            heap[i].index = i;
            i = child;
        }
        heap[i] = e;
        e.index = i;
    }
}
