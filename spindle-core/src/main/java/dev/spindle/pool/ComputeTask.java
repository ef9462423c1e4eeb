/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import java.util.concurrent.CompletionException;

/**
 * A fork/join computation written as a subclass, for code that comes from
 * {@link java.util.concurrent.RecursiveTask}, or for the hottest recursive loops: a subclass is
 * one object per task, where {@link WorkStealingPool#spawn(java.util.concurrent.Callable)} also
 * allocates the lambda it is given.
 *
 * <pre>{@code
 * final class Fib extends ComputeTask<Long> {
 *     private final int n;
 *     Fib(int n) { this.n = n; }
 *
 *     @Override
 *     protected Long compute() {
 *         if (n < 2) return (long) n;
 *         Fib left = new Fib(n - 1);
 *         left.fork();                             // pushed to this worker's deque
 *         long right = new Fib(n - 2).compute();   // the other half, right here
 *         return left.join() + right;              // run inline if nobody stole it
 *     }
 * }
 *
 * try (WorkStealingPool pool = WorkStealingPool.create()) {
 *     long f = pool.invoke(new Fib(30));           // 832040
 * }
 * }</pre>
 *
 * <p>A task runs at most once. It is started by {@link #fork()} on a worker thread of a
 * {@link WorkStealingPool}, by {@link WorkStealingPool#spawn(ComputeTask)} or
 * {@link WorkStealingPool#invoke(ComputeTask)} from any thread, or by {@link #invoke()}, which
 * runs it in the calling thread. Each of these may be used once per task; a second throws
 * {@link IllegalStateException}. On a task {@linkplain #cancel cancelled} before any of them
 * started it, each throws {@link java.util.concurrent.CancellationException}, as its
 * {@link #join()} does: the cancellation is its outcome. Given to {@code execute} or
 * {@code submit} of a Spindle pool, which then runs it, a task not started yet is started as
 * {@code spawn} starts it; a {@link WorkSharingPool}, {@link PriorityPool} or {@link PinnedPool}
 * runs it on one of its own workers only, so a {@code join()} from elsewhere waits for that
 * worker rather than running it on the joining thread.
 * {@link #join()} and {@link #get()} behave as for any {@link dev.spindle.Task}; on a task
 * that was never started they throw
 * {@link IllegalStateException} instead of waiting forever.
 *
 * @param <T> the result type
 */
public abstract class ComputeTask<T> extends ForkTask<T> {

    /** Creates a task that has not started; {@link #fork()} or a pool starts it. */
    protected ComputeTask() {
    }

    /**
     * The computation. It runs once, on the thread that runs the task; what it throws completes
     * the task exceptionally.
     */
    @Override
    protected abstract T compute() throws Exception;

    /**
     * Starts this task asynchronously in the pool of the calling worker thread: it is pushed to
     * that worker's deque, where a later {@link #join()} usually finds it and runs it inline.
     *
     * @return this task
     * @throws IllegalStateException if the caller is not a worker thread of a
     *     {@link WorkStealingPool} (use {@link WorkStealingPool#spawn(ComputeTask)} there), or
     *     if the task was started before
     * @throws java.util.concurrent.CancellationException if the task was cancelled before it
     *     was started
     * @throws java.util.concurrent.RejectedExecutionException if the pool is stopped
     */
    public final ComputeTask<T> fork() {
        Worker w = PoolCore.workerOfCurrentThread() instanceof Worker k ? k : null;
        if (w == null) {
            throw new IllegalStateException("fork() must be called on a worker thread of a WorkStealingPool;"
                    + " from other threads use pool.spawn(task) or pool.invoke(task)");
        }
        bind(w.current);                       // direct: see "the JIT's inlining depth" in Worker
        w.pushFork(this);                      // a refusal unbinds it first (Worker.refuseFork)
        return this;
    }

    /**
     * Runs this task in the calling thread and returns its result, as a direct call of
     * {@link #compute()} would, but completing the task so that joiners see the outcome.
     *
     * @return what {@link #compute()} returned
     * @throws CompletionException wrapping what {@link #compute()} threw (a
     *     {@code CompletionException} it threw itself as it is: see {@link dev.spindle.Task#join()})
     * @throws IllegalStateException if the task was started before
     * @throws java.util.concurrent.CancellationException if the task was cancelled (before it
     *     was started, or by another thread while it ran here)
     */
    public final T invoke() {
        // bind first: a task that was forked or spawned is still NEW while it waits in a queue,
        // and tryRun alone then ran it here, so a second start succeeded or threw depending on
        // whether a worker had got to it yet
        bind(null);
        if (!tryRun() && !super.isCancelled()) {
            // bound here, so only a cancel from another thread between bind and run, or a racing
            // second start, can have claimed it; the first is its outcome, which join() reports
            // (an IllegalStateException said "already was [started]" of a task that never was)
            throw new IllegalStateException("a task can be started once; " + this + " already was");
        }
        return join();
    }
}
