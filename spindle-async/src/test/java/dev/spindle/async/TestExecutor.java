/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A test-only, single-threaded executor that follows the contracts of {@link AsyncTask},
 * {@link Waker} and {@link Context} and nothing more: {@link #blockOn} polls on the calling
 * thread, parks while nothing is woken, and runs tasks {@link #spawn spawned} meanwhile. Not the
 * runtime: it exists so that the utilities are tested against the contracts alone.
 *
 * <p>Every wait is bounded ({@link #limitMillis}); running past it fails the test.
 */
public final class TestExecutor {

    private final ConcurrentLinkedQueue<Job<?>> runQueue = new ConcurrentLinkedQueue<>();
    /** What spawned tasks (not the blockOn task) threw. */
    public final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    private final int budget;
    private final long limitMillis;
    private volatile Thread owner;
    /** Polls made, all tasks together. */
    public final AtomicInteger polls = new AtomicInteger();

    /** Unlimited budget, 20 s limit. */
    public TestExecutor() {
        this(Integer.MAX_VALUE, 20_000);
    }

    public TestExecutor(int budget, long limitMillis) {
        this.budget = budget;
        this.limitMillis = limitMillis;
    }

    /** Unlimited budget, 10 s limit: a hang fails within 10 s (the TCP tests' executor). */
    public static TestExecutor tenSecondLimit() {
        return new TestExecutor(Integer.MAX_VALUE, 10_000);
    }

    /** Runs {@code task} to completion with a fresh executor. */
    public static <T> T run(AsyncTask<T> task) {
        return new TestExecutor().blockOn(task);
    }

    /** Queues {@code task}; it runs while some {@code blockOn} of this executor runs. */
    public void spawn(AsyncTask<?> task) {
        Job<?> j = new Job<>(task);
        j.wake();
    }

    /**
     * Polls {@code task} (and spawned tasks) on this thread until it completes; rethrows what its
     * poll throws.
     */
    public <T> T blockOn(AsyncTask<T> task) {
        owner = Thread.currentThread();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(limitMillis);
        Job<T> main = new Job<>(task);
        main.wake();
        while (true) {
            Job<?> j = runQueue.poll();
            if (j == null) {
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError("blockOn: not done within " + limitMillis + " ms");
                }
                LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(50));
                continue;
            }
            j.runOnce();
            if (j == main && main.done) {
                if (main.error != null) {
                    throw Async.unchecked(main.error);
                }
                return main.result;
            }
        }
    }

    private final class Job<T> implements Waker, Context {
        private final AsyncTask<T> task;
        private final AtomicBoolean queued = new AtomicBoolean();
        private volatile boolean done;
        private T result;
        private Throwable error;
        private int left;

        Job(AsyncTask<T> task) {
            this.task = task;
        }

        @Override
        public void wake() {
            if (!done && queued.compareAndSet(false, true)) {
                runQueue.add(this);
                Thread t = owner;
                if (t != null) {
                    LockSupport.unpark(t);
                }
            }
        }

        @Override
        public Waker waker() {
            return this;
        }

        @Override
        public boolean consumeBudget() {
            if (left == 0) {
                return false;
            }
            left--;
            return true;
        }

        void runOnce() {
            queued.set(false); // a wake during the poll queues it again
            if (done) {
                return;
            }
            left = budget;
            polls.incrementAndGet();
            try {
                Poll<T> p = task.poll(this);
                if (p.isReady()) {
                    result = p.value();
                    done = true;
                }
            } catch (Throwable t) {
                error = t;
                done = true;
                failures.add(t);
            }
        }
    }
}
