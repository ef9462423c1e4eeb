/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import java.util.Objects;
import java.util.concurrent.ThreadFactory;

/**
 * The settings shared by the builders of every pool ({@link WorkStealingPool},
 * {@link WorkSharingPool}, {@link PriorityPool} and {@link PinnedPool}). Every setter checks its
 * argument and throws {@link IllegalArgumentException} (or {@link NullPointerException}) naming
 * the parameter. {@code build()} throws {@link IllegalStateException} if the thread factory
 * fails; no thread of the pool is left running then.
 *
 * @param <B> the concrete builder, returned by every setter for chaining
 */
abstract class PoolBuilder<B extends PoolBuilder<B>> {

    int workers = Runtime.getRuntime().availableProcessors();
    String name;
    ThreadFactory threadFactory;
    Thread.UncaughtExceptionHandler handler;
    boolean daemon = true;

    PoolBuilder() {
    }

    @SuppressWarnings("unchecked")
    private B self() {
        return (B) this;
    }

    /**
     * Number of worker threads; default: {@link Runtime#availableProcessors()}.
     *
     * @param workers the number of threads, 1 to 32,767
     * @return this builder
     * @throws IllegalArgumentException if out of range
     */
    public B workers(int workers) {
        if (workers < 1 || workers > 0x7fff) {
            throw new IllegalArgumentException("workers must be in [1, 32767], was " + workers);
        }
        this.workers = workers;
        return self();
    }

    /**
     * Pool name; worker threads are named {@code <name>-worker-<i>}. Default {@code <kind>-<n>}.
     *
     * @param name the name, not blank
     * @return this builder
     * @throws IllegalArgumentException if {@code name} is blank
     * @throws NullPointerException if {@code name} is null
     */
    public B name(String name) {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("name must not be blank");
        }
        this.name = name;
        return self();
    }

    /**
     * Factory for worker threads. The pool names each thread it returns. Default: threads of
     * the pool's own class, daemon or not as {@link #daemon(boolean)} says, each with the
     * context class loader and the priority of the thread that built the pool and no inherited
     * {@link InheritableThreadLocal} values, whichever thread creates it (spare workers are
     * created while the pool runs). A factory of one's own is called from such threads too, and
     * sets these itself.
     *
     * @param factory makes each worker thread (not started)
     * @return this builder
     * @throws NullPointerException if {@code factory} is null
     */
    public B threadFactory(ThreadFactory factory) {
        this.threadFactory = Objects.requireNonNull(factory, "threadFactory");
        return self();
    }

    /**
     * Receives exceptions thrown by tasks passed to {@code execute}. Default: the worker
     * thread's own handler, which prints the stack trace.
     *
     * @param handler called on the worker thread with the exception
     * @return this builder
     * @throws NullPointerException if {@code handler} is null
     */
    public B uncaughtExceptionHandler(Thread.UncaughtExceptionHandler handler) {
        this.handler = Objects.requireNonNull(handler, "uncaughtExceptionHandler");
        return self();
    }

    /**
     * Whether the default factory's threads are daemon threads (they do not keep the JVM
     * alive); default {@code true}.
     *
     * @param daemon whether the default factory makes daemon threads
     * @return this builder
     */
    public B daemon(boolean daemon) {
        this.daemon = daemon;
        return self();
    }
}
