/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle;

import dev.spindle.internal.BlockingSupport;
import java.util.Objects;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;

/**
 * Entry points shared by all Spindle schedulers.
 *
 * <h2>Blocking sections</h2>
 *
 * <p>A task that blocks its thread (a socket read, a lock, a {@code Future.get} on a foreign
 * executor) takes a worker away from the pool. Wrap the blocking call in
 * {@link #blocking(Section)} so the pool can keep the other tasks running: a
 * {@code WorkStealingPool} adds a compensating worker for the duration, up to its configured
 * bound of spare workers; the pools with a fixed number of threads ({@code WorkSharingPool},
 * {@code PriorityPool}, {@code PinnedPool}) add none, but a work-sharing worker first hands the
 * task waiting in its slot to the shared queue, where another worker takes it:
 *
 * <pre>{@code
 * Task<Integer> length = pool.spawn(() -> {
 *     String line = Spindle.blocking(() -> reader.readLine());   // may block for long
 *     return process(line);
 * });
 * }</pre>
 *
 * <p>A section's checked exception reaches the caller unchanged: above, an {@code IOException}
 * from {@code readLine} fails the task (a {@code Callable} may throw); inside a
 * {@code Runnable}, which may not, catch it around the section. A section with no result may
 * throw too ({@code Spindle.blocking(() -> latch.await())}).
 *
 * <p>Outside a Spindle worker the section simply runs. On a {@link ForkJoinPool} worker it runs
 * through {@link ForkJoinPool#managedBlock}, so code written this way behaves well on either (a
 * pool that refuses to compensate, as a stopping one does on newer JDKs, has it run without).
 *
 * <p>The two overloads take a section with a result ({@link Section}) and one without
 * ({@link VoidSection}), both free to throw a checked exception; Java picks the one with a
 * result for a lambda or method reference that fits both. A method reference to an overloaded
 * method ({@code latch::await}) fits neither exactly and is ambiguous: write a lambda.
 */
public final class Spindle {

    private Spindle() {
    }

    /**
     * A piece of code that may block.
     *
     * @param <T> its result
     * @param <X> the exception it may throw
     */
    @FunctionalInterface
    public interface Section<T, X extends Exception> {
        /**
         * Runs the code.
         *
         * @return its result
         * @throws X what the code throws
         */
        T run() throws X;
    }

    /**
     * Runs {@code section}, telling the current scheduler that the thread may block meanwhile.
     * Nested calls compensate once.
     *
     * @param <T> the section's result type
     * @param <X> the checked exception the section may throw
     * @param section the code that may block, run once on the calling thread
     * @return what {@code section} returned
     * @throws X whatever {@code section} throws
     * @throws NullPointerException if {@code section} is null
     */
    public static <T, X extends Exception> T blocking(Section<T, X> section) throws X {
        Objects.requireNonNull(section, "section");
        BlockingSupport worker = BlockingSupport.current();
        if (worker != null) {
            worker.beginBlocking();
            try {
                return section.run();
            } finally {
                worker.endBlocking();
            }
        }
        if (Thread.currentThread() instanceof ForkJoinWorkerThread) {
            return ForkJoinBlocker.run(section);
        }
        return section.run();
    }

    /**
     * A piece of code that may block and has no result.
     *
     * @param <X> the exception it may throw
     */
    @FunctionalInterface
    public interface VoidSection<X extends Exception> {
        /**
         * Runs the code.
         *
         * @throws X what the code throws
         */
        void run() throws X;
    }

    /**
     * Runs {@code section} as {@link #blocking(Section)} does, for code with no result.
     *
     * <p>This overload used to take a {@link Runnable}, which cannot throw a checked exception,
     * so {@code Spindle.blocking(() -> Thread.sleep(10))} did not compile. Lambdas and method
     * references compile as before; an argument declared as a {@code Runnable r} is now written
     * {@code r::run}.
     *
     * @param <X> the checked exception the section may throw
     * @param section the code that may block, run once on the calling thread
     * @throws X whatever {@code section} throws
     * @throws NullPointerException if {@code section} is null
     */
    public static <X extends Exception> void blocking(VoidSection<X> section) throws X {
        Objects.requireNonNull(section, "section");
        blocking(() -> {
            section.run();
            return null;
        });
    }

    /** Adapts a section to {@link ForkJoinPool.ManagedBlocker}. */
    private static final class ForkJoinBlocker<T, X extends Exception> implements ForkJoinPool.ManagedBlocker {
        private final Section<T, X> section;
        private T result;
        private Exception failure;
        private boolean done;

        private ForkJoinBlocker(Section<T, X> section) {
            this.section = section;
        }

        @SuppressWarnings("unchecked")
        static <T, X extends Exception> T run(Section<T, X> section) throws X {
            ForkJoinBlocker<T, X> b = new ForkJoinBlocker<>(section);
            try {
                ForkJoinPool.managedBlock(b);
            } catch (InterruptedException e) {
                // block() throws no InterruptedException, so the pool refused to call it: newer
                // JDKs' pools (25; not 17's) throw this, without blocking, once they are stopping
                // (shutdownNow). The section still runs, once, here, uncompensated, as on a
                // thread of no pool: throwing instead skipped it. The interrupt status is left as
                // it is: the refusal consumed none, and shutdownNow interrupts the workers anyway.
                if (!b.done) {
                    b.block();
                }
            }
            if (b.failure != null) {
                if (b.failure instanceof RuntimeException re) {
                    throw re;
                }
                throw (X) b.failure;
            }
            return b.result;
        }

        @Override
        public boolean block() {
            try {
                result = section.run();
            } catch (Exception e) {
                failure = e;
            }
            done = true;
            return true;
        }

        @Override
        public boolean isReleasable() {
            return done;
        }
    }
}
