/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle;

import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * Something that runs tasks: the one interface every Spindle scheduler implements, so that
 * code written against it (actors, async runtimes) runs on any of them.
 *
 * <p>A scheduler accepts a task through {@link #execute(Runnable)} and runs it exactly once on
 * some thread, or throws {@link java.util.concurrent.RejectedExecutionException} so the caller
 * knows it will not run. A task's failure never kills the scheduler.
 *
 * <p>{@link #execute(Runnable, Hints)} passes {@link Hints} along with a task: a priority, a
 * member index for scheduler unions and a preferred worker. Each scheduler uses the hints it
 * has a use for and ignores the others, so code that passes hints runs on every scheduler.
 *
 * <pre>{@code
 * try (WorkStealingPool pool = WorkStealingPool.builder().workers(4).build()) {
 *     Scheduler scheduler = pool;
 *     scheduler.execute(() -> System.out.println("hello from " + Thread.currentThread().getName()));
 * }   // close() runs the accepted task, then stops the workers (daemon threads by default)
 * }</pre>
 */
public interface Scheduler extends Executor {

    /**
     * Runs {@code task} once, at some point, on a thread of this scheduler.
     *
     * @throws java.util.concurrent.RejectedExecutionException if the scheduler no longer
     *     accepts tasks (for example after shutdown)
     * @throws NullPointerException if {@code task} is null
     */
    @Override
    void execute(Runnable task);

    /**
     * Runs {@code task} once, at some point, on a thread of this scheduler, taking
     * {@code hints} as advice. The default implementation checks its arguments and ignores the
     * hints; schedulers that order or place tasks override it.
     *
     * @param task the work to run
     * @param hints advice on its priority, union member and worker; {@link Hints#DEFAULT} for none
     * @throws java.util.concurrent.RejectedExecutionException if the scheduler no longer
     *     accepts tasks (for example after shutdown)
     * @throws NullPointerException if {@code task} or {@code hints} is null
     * @throws IllegalArgumentException if a scheduler cannot honour a hint it must obey, such
     *     as a scheduler index out of a union's range
     */
    default void execute(Runnable task, Hints hints) {
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(hints, "hints");
        execute(task);
    }
}
