/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.internal.observe;

import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Reads of sources that may never answer, each on a daemon reader thread and waited for a
 * bounded time, at most one in flight per source. Shared by the console's sampler and the
 * Micrometer binders; not public API.
 *
 * <h2>Why</h2>
 *
 * <p>The console's sampler and a metrics registry's scrape read many sources one after another
 * on one thread: a scheduler's stats through the application's supplier, a cluster's
 * {@code stats()}. A cluster answers {@code stats()} on its scheduler thread, and the caller
 * waits for that without heeding interrupts; a supplier may be stuck in any call. A source whose
 * read never returned held the reading thread for good: every other source went unshown or
 * unreported with it, and each later sample or scrape stuck one more thread. No interrupt frees
 * such a thread; only not reading on it does.
 *
 * <h2>How</h2>
 *
 * <p>Each source has a {@link Slot}. {@link #read(Slot, Callable)} hands the read to a reader
 * thread and waits for it until the read's deadline, the wait given to the constructor after the
 * read started. A call that finds the slot's read still running waits for that one, up to its
 * deadline, rather than start another; once the deadline has passed it answers
 * {@linkplain Outcome#stuck() stuck} at once, without blocking, for as long as that read runs.
 * The first call after the read has returned starts a fresh one: what the stuck read returned is
 * old by then and is dropped, handed to no one. A read that returned in time is not reused
 * either: each later call starts its own, so each sees the source as it is then. Only a call that
 * waited for a read and got its outcome by the deadline sees it; an outcome that comes later is
 * never seen, even by a call that looks just after it came. (The console wants that: a late
 * sample is old. A caller that wants the latest value whatever its age, as a metrics gauge does,
 * has the read itself keep what it returns: see the Micrometer binder's {@code ClusterMetrics}.)
 *
 * <p>Whatever a read threw (an {@code Error}, a checked exception no signature declares) is its
 * outcome, handed to the caller as a value: it never escapes the reader thread (a pool thread's
 * uncaught exception is lost), and the read's future never completes exceptionally, since
 * {@code get()} would build an {@link ExecutionException} from the throwable's
 * {@code toString()}, which may throw too.
 *
 * <h2>Invariants</h2>
 *
 * <ul>
 *   <li>At most one read of a slot is in flight (started and not returned): a slot's read is
 *       replaced, under the slot's lock, only once it is done.</li>
 *   <li>A call blocks at most until the deadline of the read it finds or starts; once that has
 *       passed, every call answers without blocking until the read returns. A stuck source costs
 *       its callers one wait per stuck episode, not one per call.</li>
 *   <li>Exactly one call per stuck episode is told the read is {@linkplain Outcome#newlyStuck()
 *       newly stuck}, and the call that starts the next read is told the source
 *       {@linkplain Outcome#answersAgain() answers again}: enough to log each end of an episode
 *       once.</li>
 *   <li>An interrupted call leaves its read in flight with its deadline: a later call neither
 *       starts a second read beside it nor waits past that deadline.</li>
 * </ul>
 *
 * <h2>Threads held</h2>
 *
 * <p>Reader threads are daemon threads, so that a stuck read does not keep the JVM from exiting,
 * named {@code <prefix>-1}, {@code <prefix>-2} and so on, from a cached pool: a read takes an
 * idle thread or starts one, and an idle thread ends after 60 s. So this object holds at most one
 * thread per slot whose read is in flight, plus idle ones (a caller that reads its sources one
 * after another keeps one idle): a stuck source holds one thread, however often it is read.
 * {@link #shutdownNow()} refuses new reads and interrupts the reader threads; a read that
 * ignores interrupts keeps its thread until it returns, and {@link #threads()} names them for its
 * owner to wait for, or to say it left them running.
 */
public final class BoundedReads {

    private final long waitNanos;
    private final ExecutorService readers;
    /** The reader threads not yet seen ended, for {@link #threads()}; a pool replaces few. */
    private final Set<Thread> started = ConcurrentHashMap.newKeySet();

    /**
     * @param threadPrefix the reader threads' name prefix
     * @param waitNanos the longest a read is waited for, from its start; positive
     * @throws NullPointerException if {@code threadPrefix} is null
     * @throws IllegalArgumentException if {@code waitNanos} is not positive
     */
    public BoundedReads(String threadPrefix, long waitNanos) {
        Objects.requireNonNull(threadPrefix, "threadPrefix");
        if (waitNanos <= 0) {
            throw new IllegalArgumentException("waitNanos must be positive: " + waitNanos);
        }
        this.waitNanos = waitNanos;
        AtomicInteger n = new AtomicInteger();
        this.readers = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, threadPrefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            started.removeIf(old -> old.getState() == Thread.State.TERMINATED);
            started.add(t);
            return t;
        });
    }

    /**
     * Reads {@code slot}'s source on a reader thread: the outcome of the read in flight if it
     * comes by that read's deadline, else the outcome of a read started now if that comes by its
     * deadline, else {@linkplain Outcome#stuck() stuck}. See the class comment.
     *
     * @param slot the source's slot: one read of it in flight at a time
     * @param read the read, called on a reader thread if a read is started; what it returns or
     *     throws is the outcome
     * @return the outcome; never null
     * @throws InterruptedException if the calling thread is interrupted while it waits; the read
     *     stays in flight
     * @throws RejectedExecutionException if a read must be started after {@link #shutdownNow()}
     *     (or no thread could be had)
     */
    public <T> Outcome<T> read(Slot<T> slot, Callable<? extends T> read) throws InterruptedException {
        Objects.requireNonNull(read, "read");
        Flight<T> flight;
        boolean again = false;
        synchronized (slot) {
            flight = slot.flight;
            if (flight == null || flight.outcome.isDone()) {
                again = flight != null && flight.givenUp;
                Flight<T> next = new Flight<>(System.nanoTime());
                readers.execute(() -> next.run(read));  // throws before the slot is changed
                slot.flight = flight = next;
            }
        }
        long left = flight.started + waitNanos - System.nanoTime();
        Outcome<T> outcome;
        try {
            outcome = left > 0 ? flight.outcome.get(left, TimeUnit.NANOSECONDS) : null;
        } catch (TimeoutException stuck) {
            outcome = null;
        } catch (ExecutionException cannotBe) {
            outcome = Outcome.threw(cannotBe.getCause());  // never completed exceptionally
        }
        if (outcome == null) {
            boolean first;
            synchronized (slot) {
                first = !flight.givenUp;
                flight.givenUp = true;
            }
            outcome = new Outcome<>(null, null, true, System.nanoTime() - flight.started, first, false);
        }
        return again ? outcome.answeringAgain() : outcome;
    }

    /**
     * Refuses every later read that would start one ({@link RejectedExecutionException}) and
     * interrupts the reader threads; a read that ignores interrupts runs on, its thread in
     * {@link #threads()} until it returns.
     */
    public void shutdownNow() {
        readers.shutdownNow();
    }

    /** {@return the reader threads alive now, for the owner to wait for once it has shut this down} */
    public List<Thread> threads() {
        return started.stream().filter(Thread::isAlive).toList();
    }

    /**
     * One source's reads: the read in flight, or the last one. One per source, used with one
     * {@link BoundedReads}; its lock is held only briefly, never while a read is waited for.
     *
     * @param <T> what a read returns
     */
    public static final class Slot<T> {
        /** The read in flight or the last one; null before the first. Guarded by this. */
        private Flight<T> flight;

        /** An empty slot: its first read starts one. */
        public Slot() {
        }
    }

    /** One read: when it started, and its outcome once it has returned. */
    private static final class Flight<T> {
        final long started;
        /** Completed with the read's outcome, never exceptionally. */
        final CompletableFuture<Outcome<T>> outcome = new CompletableFuture<>();
        /** Whether a call has answered "stuck" for this read; guarded by the slot. */
        boolean givenUp;

        Flight(long started) {
            this.started = started;
        }

        void run(Callable<? extends T> read) {
            Outcome<T> o;
            try {
                o = Outcome.returned(read.call());
            } catch (Throwable e) {
                o = Outcome.threw(e);
            }
            outcome.complete(o);
        }
    }

    /**
     * What a call of {@link BoundedReads#read} found: the read's value, what it threw, or that it
     * is stuck (it has not returned by its deadline).
     *
     * @param <T> what a read returns
     */
    public static final class Outcome<T> {
        private final T value;
        private final Throwable thrown;
        private final boolean stuck;
        private final long stuckNanos;
        private final boolean newlyStuck;
        private final boolean answersAgain;

        private Outcome(T value, Throwable thrown, boolean stuck, long stuckNanos, boolean newlyStuck,
                boolean answersAgain) {
            this.value = value;
            this.thrown = thrown;
            this.stuck = stuck;
            this.stuckNanos = stuckNanos;
            this.newlyStuck = newlyStuck;
            this.answersAgain = answersAgain;
        }

        static <T> Outcome<T> returned(T value) {
            return new Outcome<>(value, null, false, 0, false, false);
        }

        static <T> Outcome<T> threw(Throwable thrown) {
            return new Outcome<>(null, thrown, false, 0, false, false);
        }

        private Outcome<T> answeringAgain() {
            return new Outcome<>(value, thrown, stuck, stuckNanos, newlyStuck, true);
        }

        /** {@return whether the read has not returned by its deadline (it may still)} */
        public boolean stuck() {
            return stuck;
        }

        /** {@return what the read returned; null if it threw, or is stuck} */
        public T value() {
            return value;
        }

        /** {@return what the read threw; null if it returned, or is stuck} */
        public Throwable thrown() {
            return thrown;
        }

        /** {@return how long the stuck read has run, in nanoseconds; 0 unless stuck} */
        public long stuckNanos() {
            return stuckNanos;
        }

        /** {@return whether this call is the first told that its read is stuck: once per episode} */
        public boolean newlyStuck() {
            return newlyStuck;
        }

        /**
         * {@return whether the read before this one was stuck and has returned since: this call
         * started the first read after it, whatever that read's outcome}
         */
        public boolean answersAgain() {
            return answersAgain;
        }
    }
}
