/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import dev.spindle.Hints;
import dev.spindle.SchedulerStats;
import dev.spindle.Task;
import dev.spindle.internal.BlockingSupport;
import dev.spindle.internal.IdleControl;
import dev.spindle.internal.IdleCoordinator;
import dev.spindle.internal.MoveBracket;
import dev.spindle.internal.WatcherRole;
import dev.spindle.queue.Injector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

/**
 * A work-stealing thread pool with fork/join: a drop-in {@link java.util.concurrent.ExecutorService}
 * where {@link java.util.concurrent.ForkJoinPool} or a {@link java.util.concurrent.ThreadPoolExecutor}
 * is used today.
 *
 * <pre>{@code
 * try (WorkStealingPool pool = WorkStealingPool.builder().name("compute").build()) {
 *     long sum = pool.invoke(() -> fib(pool, 30));     // from outside: submit and wait
 *     pool.parallelFor(0, pixels.length, i -> shade(pixels, i));
 * }
 *
 * static long fib(WorkStealingPool pool, int n) {
 *     if (n < 2) return n;
 *     Task<Long> left = pool.spawn(() -> fib(pool, n - 1)); // on a worker: pushed locally
 *     return fib(pool, n - 2) + left.join();                 // helps instead of blocking
 * }
 * }</pre>
 *
 * <h2>How work moves</h2>
 *
 * <p>Each worker owns a Chase-Lev {@link dev.spindle.queue.WorkStealingDeque}. Tasks submitted by
 * a worker of this pool go to that worker's deque; tasks submitted from any other thread go to
 * a shared lock-free {@link Injector}. A runnable a worker submits while it holds no other task
 * goes to a one-task slot beside its deque, which it runs next: a chain of hand-offs (a reply,
 * the next message of an actor) then stays on one worker, each link after the first handed on
 * without waking a peer, while a task that submits one and goes on computing has an idle peer
 * woken to take it at once, as a deque push does. A worker runs its own deque newest-first, takes batches
 * from the injector (and looks there first every 61st task, so external work is never starved),
 * and when both are empty steals from a random peer's deque, oldest first: about half of it, or
 * one task when that is a fork task, so that joiners can help the thief. A worker's newest fork
 * tasks (up to eight) wait in a small <em>fork stack</em> beside the deque (its bottom entries,
 * kept out of it): the join that usually follows takes them back without the fence a pop costs,
 * and idle workers may still take them when the deque is empty, so they are never hidden. A full deque
 * moves half its tasks to the injector: a push never drops a task. Idle workers park without
 * spinning or polling; the wake-up protocol (see {@code IdleCoordinator} in the source) wakes one worker
 * when work appears, lets at most half the workers search at once, and loses no wake-up.
 *
 * <h2>Fork/join</h2>
 *
 * <p>{@link #spawn} returns a {@link Task}. {@link Task#join()} on a worker of this pool helps
 * instead of blocking: it runs the awaited task itself if it has not started and is queued on
 * this worker, or where a thief would take it next from a peer, and otherwise, until the
 * awaited task completes, runs that task's own subtasks (from its deque, or from the worker
 * running the awaited task). It runs no unrelated task on
 * top of the join, which could make the joining frame wait for one beneath it; with nothing of
 * the awaited task's to run it parks briefly, and once the wait is not short it counts as
 * blocked, so a spare worker (see <em>Blocking</em>) runs the pool's other work meanwhile. A pool
 * built with {@link Builder#maxSpareWorkers maxSpareWorkers(0)} has none: there the joiner runs
 * the awaited task wherever it is queued if it has not started, and other work waits for a free
 * worker. Recursive fork/join therefore completes on a single worker.
 *
 * <h2>Blocking</h2>
 *
 * <p>Wrap blocking calls in {@link dev.spindle.Spindle#blocking}: the pool starts a compensating
 * spare worker (at most {@link Builder#maxSpareWorkers}) for the duration. A spare that goes idle
 * once it is no longer needed exits at once; one that parks while still needed exits after
 * {@link Builder#spareKeepAlive} parked.
 *
 * <p>A wait the pool cannot see is caught as well when it could otherwise last for good: when
 * every worker has waited without a time limit for about 20 ms (a
 * {@code CompletableFuture.join}, an untimed {@code get} or {@code await}) while tasks are queued,
 * the pool starts a spare, one every 20 ms while that lasts, as a {@code ForkJoinPool} compensates
 * for a {@code CompletableFuture.join} in its tasks. So
 * {@code CompletableFuture.supplyAsync(x, pool).join()} inside a task of a one-worker pool
 * completes. Sleeps, timed waits and long computations get no spare. {@code maxSpareWorkers(0)}
 * keeps the pool at exactly its workers.
 *
 * <h2>Shutdown and failures</h2>
 *
 * <p>{@link #shutdown()} stops accepting tasks from threads outside the pool, runs everything
 * already accepted, including tasks that those tasks spawn, and then the workers exit.
 * {@link #shutdownNow()} also interrupts running tasks and returns every accepted task that had not
 * started; tasks spawned concurrently by running tasks are either returned or run by their
 * worker before it exits; a running task's newest fork tasks, which wait in its worker's fork
 * stack rather than in a queue the drain takes from, are run by that worker. A join (or
 * {@code invoke}, {@code parallelFor}) waiting for a returned task ends with a
 * {@link java.util.concurrent.CancellationException}, as a {@code ForkJoinPool}'s does; a
 * {@code get} waits until the list's holder runs or cancels it, or until interrupted. A join
 * awaiting a task that was not returned gets its outcome: a worker of the stopped pool runs
 * such a task of this pool itself if it has not started (on a peer's fork stack, say), since no
 * spare starts and no worker steals any more, and waits for one that runs elsewhere (or is queued
 * in another pool, which runs it), unless it holds
 * unstarted tasks of its own, which only it runs now: then it cancels the awaited task and
 * throws the {@code CancellationException}. After shutdown,
 * submissions from outside throw {@link RejectedExecutionException}. Every accepted task runs
 * exactly once or is returned.
 *
 * <p>An exception thrown by a task never kills its worker. Failures of tasks passed to
 * {@link #execute} go to the {@linkplain Builder#uncaughtExceptionHandler uncaught-exception
 * handler}; failures of spawned or submitted tasks complete their {@link Task} exceptionally.
 */
public final class WorkStealingPool extends PoolCore {

    private static final AtomicInteger POOL_SEQ = new AtomicInteger();

    /** What the workers share: queues, worker slots, the idle protocol, the spares. */
    final Shared shared;
    final Injector<Runnable> injector;
    final Worker[] workers;
    final IdleCoordinator idle;
    /** The parked worker that watches the others; while it is held a slot fill wakes nobody. */
    private final WatcherRole watcher;
    final int parallelism;

    private WorkStealingPool(Builder b) {
        super(b, "spindle", POOL_SEQ);
        this.parallelism = b.workers;
        this.shared = new Shared(this, parallelism, b.maxSpareWorkers, b.stealAttempts,
                saturatedNanos(b.spareKeepAlive), b.localQueueCapacity);
        this.injector = shared.injector;
        this.workers = shared.workers;
        this.idle = shared.idle;
        this.watcher = shared.watcher;
        for (int i = 0; i < parallelism; i++) {
            workers[i] = new Worker(this, i, false, b.localQueueCapacity);
        }
        startWorkers(workers, parallelism);
        try {
            shared.starvation.register();      // no watch thread to be had: the build fails
        } catch (RuntimeException | Error e) {
            shutdownNow();
            throw e;
        }
    }

    @Override
    void terminated() {
        shared.starvation.poolTerminated();
    }

    /** {@code d} in nanoseconds, {@link Long#MAX_VALUE} (about 292 years) where it does not fit. */
    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    /** {@return a builder with the defaults described on each of its methods} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return a new, started pool with one worker per available processor and default settings} */
    public static WorkStealingPool create() {
        return builder().build();
    }

    // ------------------------------------------------------------------ submission

    /**
     * Runs {@code task} once on a worker. From a worker of this pool the task goes to that
     * worker's deque; from any other thread, to the shared injector. Exceptions it throws go to
     * the uncaught-exception handler. A {@link ComputeTask} not started yet is spawned, as by
     * {@link #spawn(ComputeTask)}; a task that {@link #shutdownNow()} of a pool returned runs here
     * (refused, it stays as it was returned).
     *
     * @throws RejectedExecutionException if the pool is shut down (for callers outside it) or
     *     stopped
     * @throws NullPointerException if {@code task} is null
     */
    @Override
    public void execute(Runnable task) {
        Objects.requireNonNull(task, "task");
        if (task instanceof ForkTask<?> f) {
            executeForkTask(f, null);
        } else {
            schedule(task);                    // direct: see pushLocal on the inlining depth
        }
    }

    /**
     * As {@link #execute(Runnable)}, except that a {@linkplain Hints#yielding() yielding} task
     * submitted by a worker of this pool goes to the shared injector instead of that worker's
     * deque, where it would be the next task popped: it waits behind the worker's other tasks
     * (and is taken by an idle peer meanwhile); a {@link ComputeTask} too, which is spawned
     * there. Other hints are ignored.
     *
     * @throws RejectedExecutionException if the pool is shut down (for callers outside it) or
     *     stopped
     * @throws NullPointerException if {@code task} or {@code hints} is null
     */
    @Override
    public void execute(Runnable task, Hints hints) {
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(hints, "hints");
        Worker yieldingFrom = hints.yielding() ? currentWorker() : null;
        if (task instanceof ForkTask<?> f) {
            executeForkTask(f, yieldingFrom);
        } else if (yieldingFrom == null) {
            schedule(task);                    // direct: see pushLocal on the inlining depth
        } else {
            queue(task, yieldingFrom);
        }
    }

    /**
     * Both {@code execute}s of a task of this package, which needs more than queueing
     * ({@link ForkTask#prepareToQueue}): a {@link ComputeTask} not started yet is bound as
     * {@link #spawn(ComputeTask)} binds it, and a task that {@code shutdownNow} of a pool handed
     * back is made {@code NEW} again, since this pool's workers run only {@code NEW} tasks
     * (queued as it was, every worker skipped it, and its future never completed). Undone if the
     * pool refuses the task, or cannot queue it (see {@link #offerPrepared}).
     *
     * @param yieldingFrom the worker of this pool that submits the task as yielding, or
     *     {@code null}: see {@link #queue}
     */
    private void executeForkTask(ForkTask<?> f, Worker yieldingFrom) {
        Worker w = yieldingFrom != null ? yieldingFrom : currentWorker();
        int prepared = ForkTask.prepareToQueue(f, w != null ? w.current : null);   // as spawn binds
        if (w == null) {
            submitExternalPrepared(f, prepared);
            return;
        }
        try {
            if (yieldingFrom == null) {
                // refused before the push only: an Error from pushFork comes after it (a spill
                // of an older task), when f is queued and must stay as it is
                w.pushFork(f);
                return;
            }
            rejectIfStopped();
        } catch (RejectedExecutionException e) {
            ForkTask.undoPrepareToQueue(f, prepared);
            throw e;
        }
        offerPrepared(f, prepared);            // drained by shutdownNow, or by drainOwnAfterStop
        idle.notifyWork();
    }

    /** As {@link #submitExternal}, for a task {@link ForkTask#prepareToQueue} prepared: undone if refused or not queued. */
    private void submitExternalPrepared(ForkTask<?> f, int prepared) {
        try {
            beginExternalSubmit();
        } catch (RejectedExecutionException e) {
            ForkTask.undoPrepareToQueue(f, prepared);
            throw e;
        }
        try {
            offerPrepared(f, prepared);
            idle.notifyWorkFromOutside();      // the worker parked longest: see there why
        } finally {
            endExternalSubmit();
        }
    }

    /**
     * Offers a task {@link ForkTask#prepareToQueue} prepared to the injector. If the offer throws
     * (an {@link OutOfMemoryError} for a segment), the task is in no queue and is left as it was,
     * as a {@link java.util.concurrent.ForkJoinPool} leaves a task whose fork or execute failed
     * (neither changes the task's state), and the error goes to the submitter: left bound, the
     * task's {@code join} waited for good, and a second submission was refused as a second start.
     * Only around the offer: once the task is queued a worker may take it, and it must stay as it is.
     */
    private void offerPrepared(ForkTask<?> f, int prepared) {
        try {
            ForkTask.beforeOffer(prepared);
            injector.offer(f);
        } catch (Throwable e) {
            ForkTask.undoPrepareToQueue(f, prepared);
            throw e;
        }
    }

    /** Queues {@code task}: to the injector if {@code yieldingFrom}, a worker of this pool, yields it. */
    private void queue(Runnable task, Worker yieldingFrom) {
        if (yieldingFrom == null) {
            schedule(task);
            return;
        }
        rejectIfStopped();
        injector.offer(task);                  // drained by shutdownNow, or by drainOwnAfterStop
        idle.notifyWork();
    }

    /**
     * Starts {@code computation} asynchronously and returns its {@link Task}. From a worker of
     * this pool it is pushed to that worker's deque, which is what makes recursive fork/join
     * cheap.
     *
     * @param <T> the computation's result type
     * @param computation the work; run once, on a worker of this pool
     * @return the task, to join or cancel
     * @throws RejectedExecutionException if the pool is shut down (for callers outside it) or
     *     stopped
     * @throws NullPointerException if {@code computation} is null
     */
    public <T> Task<T> spawn(Callable<? extends T> computation) {
        Objects.requireNonNull(computation, "computation");
        Worker w = currentWorker();
        ForkTask<T> t = new ForkTask<>(computation, w != null ? w.current : null);
        if (w != null) {
            w.pushFork(t);                     // direct: see "the JIT's inlining depth" in Worker
        } else {
            submitExternal(t);
        }
        return t;
    }

    /**
     * Starts a {@link ComputeTask} in this pool, as {@link ComputeTask#fork()} does on a worker;
     * from other threads it goes to the shared injector.
     *
     * @param <T> the task's result type
     * @param task a task not started before
     * @return {@code task}
     * @throws IllegalStateException if the task was started before
     * @throws java.util.concurrent.CancellationException if the task was cancelled before it
     *     was started
     * @throws RejectedExecutionException if the pool is shut down (for callers outside it) or
     *     stopped
     * @throws NullPointerException if {@code task} is null
     */
    public <T> Task<T> spawn(ComputeTask<T> task) {
        Objects.requireNonNull(task, "task");
        Worker w = currentWorker();
        task.bind(w != null ? w.current : null);
        if (w == null) {
            submitExternalPrepared(task, ForkTask.BOUND);   // unbound if refused or not queued
            return task;
        }
        try {
            w.pushFork(task);                  // refused before the push only: see executeForkTask
        } catch (RejectedExecutionException e) {
            task.unbind();                     // refused before it was queued: see ForkTask.unbind
            throw e;
        }
        return task;
    }

    /**
     * Runs a {@link ComputeTask} in the pool and waits for its result; from a worker of this
     * pool it runs the task inline.
     *
     * @param <T> the task's result type
     * @param task a task not started before
     * @return what the task's {@code compute()} returned
     * @throws CompletionException wrapping what the computation threw (a
     *     {@code CompletionException} it threw itself as it is: see {@link Task#join()})
     * @throws IllegalStateException if the task was started before
     * @throws java.util.concurrent.CancellationException if the task was cancelled
     * @throws RejectedExecutionException if the pool does not accept the task
     * @throws NullPointerException if {@code task} is null
     */
    public <T> T invoke(ComputeTask<T> task) {
        return spawn(task).join();
    }

    /**
     * Runs {@code computation} in the pool and waits for its result. Meant for callers outside
     * the pool; from a worker it spawns and joins, helping meanwhile.
     *
     * @param <T> the computation's result type
     * @param computation the work; run once, on a worker of this pool
     * @return what the computation returned
     * @throws CompletionException wrapping what the computation threw (a
     *     {@code CompletionException} it threw itself as it is: see {@link Task#join()})
     * @throws java.util.concurrent.CancellationException if {@link #shutdownNow()} returned the
     *     task before it started
     * @throws RejectedExecutionException if the pool does not accept the task
     * @throws NullPointerException if {@code computation} is null
     */
    public <T> T invoke(Callable<? extends T> computation) {
        Task<T> t = spawn(computation);
        return t.join();
    }

    /**
     * Runs {@code body} for every index in {@code [from, to)} in parallel and returns when all
     * have run. Ranges are split adaptively: a worker splits off half its remaining range only
     * while its deque is nearly empty, that is, while other workers are taking its work, so a
     * loop costs few tasks when the pool is busy and spreads fast when it is idle.
     *
     * <p>If bodies throw, the loop still waits for every range already started, then rethrows
     * the first failure with the others {@linkplain Throwable#addSuppressed suppressed}, each as
     * a body threw it (a {@link CompletionException} a body threw too, not unwrapped), from a
     * worker or from outside alike; a checked exception arrives wrapped in a
     * {@link CompletionException}.
     *
     * @param from the first index, inclusive
     * @param to the end, exclusive; {@code from == to} runs nothing
     * @param body called once with each index, on the pool's workers (and the caller, if it is one)
     * @throws IllegalArgumentException if {@code from > to}
     * @throws NullPointerException if {@code body} is null
     */
    public void parallelFor(int from, int to, IntConsumer body) {
        Objects.requireNonNull(body, "body");
        if (from > to) {
            throw new IllegalArgumentException("from (" + from + ") must not exceed to (" + to + ")");
        }
        if (from == to) {
            return;
        }
        ParallelFor loop = new ParallelFor(this, body, from, to);
        if (currentWorker() != null) {
            loop.run(from, to);
            return;
        }
        // The root returns its failure rather than throwing it, so a CompletionException a body
        // threw is rethrown as it is, not taken for the join's wrapper and unwrapped (which lost
        // it and every failure suppressed in it); see ParallelFor.
        ParallelFor.rethrow(spawn(() -> loop.runCatching(from, to)).join());
    }

    /**
     * A {@link ForkTask} of {@code callable}. Refuses {@code null} as {@link java.util.concurrent.FutureTask}
     * does: {@code invokeAll} relies on it to throw for a null element, as its contract says,
     * rather than return a future that fails when run.
     */
    @Override
    protected <T> RunnableFuture<T> newTaskFor(Callable<T> callable) {
        return new ForkTask<>(Objects.requireNonNull(callable, "task"), currentTask());
    }

    @Override
    protected <T> RunnableFuture<T> newTaskFor(Runnable runnable, T value) {
        if (runnable instanceof ForkTask<?> f) {
            ForkTask.OwnedRun owned = new ForkTask.OwnedRun(f);   // see there
            return new ForkTask.Submitted<>(() -> {
                owned.run();
                return value;
            }, currentTask(), owned);
        }
        return new ForkTask<>(() -> {
            runnable.run();
            return value;
        }, currentTask());
    }

    /**
     * As {@link AbstractExecutorService#invokeAny(Collection)}. Called from a worker of a Spindle
     * pool, it waits as a {@link dev.spindle.Spindle#blocking blocking section}, so that the pool
     * compensates: the tasks are queued on the calling worker, and the wait (a blocking queue's,
     * not a join) would otherwise hold the only thread that could run them. Called from a worker
     * of this pool when it has no spare workers ({@link Builder#maxSpareWorkers} 0), nothing
     * would compensate, so the worker runs the tasks no other worker has taken itself, one at a
     * time in order, until one succeeds, and waits only for those running elsewhere. If the
     * worker is interrupted, or the pool stops ({@link #shutdownNow()}), before a task has
     * succeeded, it throws {@link InterruptedException} before it would run the next one, as
     * the interrupt would end a wait.
     */
    @Override
    public <T> T invokeAny(Collection<? extends Callable<T>> tasks)
            throws InterruptedException, ExecutionException {
        Worker w = currentWorker();
        if (w != null && !shared.spares.mayCompensate()) {
            try {
                return invokeAnyHere(w, tasks, false, 0L);
            } catch (TimeoutException impossible) {
                throw new AssertionError("an untimed invokeAny timed out", impossible);
            }
        }
        return super.invokeAny(tasks);        // waits as a blocking section: see CompensatingExecutorService
    }

    /**
     * As {@link #invokeAny(Collection)}, with a timeout. A task that the calling worker runs
     * itself (see there) runs to its end even if that is past the timeout, which is then
     * reported. The first task starts even with no time left (a timeout of 0 or less), as
     * {@link AbstractExecutorService}'s first task does.
     */
    @Override
    public <T> T invokeAny(Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit)
            throws InterruptedException, ExecutionException, TimeoutException {
        Objects.requireNonNull(unit, "unit");
        Worker w = currentWorker();
        if (w != null && !shared.spares.mayCompensate()) {
            return invokeAnyHere(w, tasks, true, unit.toNanos(timeout));
        }
        return super.invokeAny(tasks, timeout, unit);
    }

    /**
     * As {@link AbstractExecutorService#invokeAll(Collection)}: the tasks' {@code get} helps on a
     * worker of this pool and lets another Spindle pool compensate its worker, so the wait needs
     * no blocking section of its own.
     */
    @Override
    public <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks) throws InterruptedException {
        return invokeAllUncompensated(tasks);
    }

    /** As {@link #invokeAll(Collection)}, with a timeout. */
    @Override
    public <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit)
            throws InterruptedException {
        Objects.requireNonNull(unit, "unit");
        return invokeAllUncompensated(tasks, timeout, unit);
    }

    /**
     * invokeAny on worker {@code w} of this pool, which has no spare workers: forks every task,
     * then, while none has completed, runs the oldest one nobody has started here (a thief may
     * take any of the others meanwhile) and, once every task has started, waits for those running
     * elsewhere, which complete without this worker. The first success is returned; the other
     * tasks are cancelled with interrupt, as {@link AbstractExecutorService} does.
     */
    private <T> T invokeAnyHere(Worker w, Collection<? extends Callable<T>> tasks, boolean timed, long nanos)
            throws InterruptedException, ExecutionException, TimeoutException {
        // a negative timeout counts as 0 (see Worker#helpGet): Long.MIN_VALUE ran the tasks
        long deadline = timed ? System.nanoTime() + Math.max(0L, nanos) : 0L;
        // checked before the first fork: a thief could run a task forked ahead of a null element
        checkTasks(tasks, true);
        int n = tasks.size();
        java.util.concurrent.LinkedBlockingQueue<ForkTask<T>> done = new java.util.concurrent.LinkedBlockingQueue<>();
        List<ForkTask<T>> forked = new ArrayList<>(n);
        try {
            for (Callable<T> c : tasks) {
                ForkTask<T> t = new ForkTask<>(Objects.requireNonNull(c, "a task of invokeAny is null"), w.current);
                t.toCompletableFuture().whenComplete((v, e) -> done.add(t));
                forked.add(t);
                w.pushFork(t);
            }
            n = forked.size();                 // as iterated: a collection changed meanwhile may differ from its size()
            if (n == 0) {
                // not empty when checked, yet it iterated nothing (emptied meanwhile by another
                // thread): the loop below would have no failure to report and threw null, an NPE
                throw new IllegalArgumentException("tasks must not be empty: invokeAny needs at least one task"
                        + " (the collection iterated none)");
            }
            ExecutionException failure = null;
            int next = 0;
            for (int failed = 0; failed < n; ) {
                ForkTask<T> f = done.poll();
                if (f == null) {
                    if (Thread.interrupted()) {
                        // the caller's interrupt (pending at the call, or sent while a task ran
                        // here): it ends the wait this loop stands for, rather than reaching the
                        // next task, which would report it as its own failure
                        throw new InterruptedException();
                    }
                    if (isStopping()) {
                        // shutdownNow may have drained unstarted tasks and returned them as never
                        // started: they must not run here, nor be waited for (its interrupt may
                        // have been consumed by a task). End as a get() ends then (ForkTask.get).
                        throw new InterruptedException("pool " + name + " stopped before a task of invokeAny completed");
                    }
                    while (next < n && !forked.get(next).isNew()) {
                        next++;
                    }
                    // next > 0: some task has started, here or on a thief. Until then the time
                    // is not looked at, as the JDK's invokeAny starts its first task before it
                    // looks at the clock: a timeout of 0 or less threw without trying any
                    if (timed && next > 0 && deadline - System.nanoTime() <= 0L) {
                        throw new TimeoutException();
                    }
                    if (next < n) {
                        w.runTask(forked.get(next++));
                        continue;
                    }
                    f = timed ? done.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS) : done.take();
                    if (f == null) {
                        throw new TimeoutException();
                    }
                }
                try {
                    return f.get();            // complete: returns at once
                } catch (ExecutionException e) {
                    failure = e;
                } catch (java.util.concurrent.CancellationException e) {
                    failure = new ExecutionException(e);   // shutdownNow drained it, or a user cancelled it
                }
                failed++;
            }
            throw failure;
        } finally {
            for (ForkTask<T> t : forked) {
                t.cancel(true);
            }
        }
    }

    private ForkTask<?> currentTask() {
        Worker w = currentWorker();
        return w != null ? w.current : null;
    }

    /**
     * As {@link AbstractExecutorService#submit(Callable)}, returning a {@link Task}.
     *
     * @throws NullPointerException if {@code task} is null
     * @throws RejectedExecutionException if the pool does not accept the task
     */
    @Override
    public <T> Task<T> submit(Callable<T> task) {
        return (Task<T>) super.submit(task);
    }

    /**
     * As {@link AbstractExecutorService#submit(Runnable, Object)}, returning a {@link Task}.
     *
     * @throws NullPointerException if {@code task} is null
     * @throws RejectedExecutionException if the pool does not accept the task
     */
    @Override
    public <T> Task<T> submit(Runnable task, T result) {
        return (Task<T>) super.submit(task, result);
    }

    /**
     * As {@link AbstractExecutorService#submit(Runnable)}, returning a {@link Task}.
     *
     * @throws NullPointerException if {@code task} is null
     * @throws RejectedExecutionException if the pool does not accept the task
     */
    @Override
    @SuppressWarnings("unchecked")
    public Task<?> submit(Runnable task) {
        return (Task<Object>) super.submit(task);
    }

    void schedule(Runnable task) {
        Worker w = currentWorker();
        if (w != null) {
            pushLocal(w, task);
        } else {
            submitExternal(task);
        }
    }

    private void pushLocal(Worker w, Runnable task) {
        if (task instanceof ForkTask<?> f) {
            w.pushFork(f);                     // the fork stack; see Worker
            return;
        }
        rejectIfStopped();
        if (w.forkStackInUse()) {
            w.flushForkStack();                // keeps one LIFO order: the runnable is newer
        }
        if (w.lifo.isEmpty() && w.deque.isEmpty()) {
            w.lifo.put(task);                  // the LIFO slot, see Worker: a plain fill, as only
            if (w.runsSlotTask && watcher.isHeld()) {   // this worker fills it; and no wake-up
                return;                        // for a chain's next link while a parked peer
            }                                  // watches (Worker, "the LIFO slot")
        } else if (!w.deque.offer(task)) {     // Direct, not through a helper: this path sits
            w.overflow(task);                  // deep in callers' frames, near C2's inlining
        }                                      // limit
        idle.notifyWorkRacy();
    }

    private void submitExternal(Runnable task) {
        beginExternalSubmit();
        try {
            injector.offer(task);
            idle.notifyWorkFromOutside();      // the worker parked longest: see there why
        } finally {
            endExternalSubmit();
        }
    }

    /** The worker the calling thread runs, if it is one of this pool's; else {@code null}. */
    Worker currentWorker() {
        return (Worker) currentWorkerOfThisPool();
    }

    // ------------------------------------------------------------------ joining

    /**
     * Waits for {@code task} from a thread that is not a worker of a {@code WorkStealingPool}
     * (those help instead: see {@link ForkTask#join}): a worker of another Spindle pool lets
     * that pool compensate, and any other thread parks.
     */
    static void awaitOutside(ForkTask<?> task) {
        BlockingSupport foreign = BlockingSupport.current();
        if (foreign != null) {                 // a worker of another pool: let it compensate
            foreign.beginBlocking();
            try {
                awaitUninterruptibly(task);
            } finally {
                foreign.endBlocking();
            }
            return;
        }
        awaitUninterruptibly(task);
    }

    /**
     * Waits for {@code task} as {@link java.util.concurrent.Future#get} does, interruptibly and,
     * with {@code timed}, for at most {@code nanos}: a worker of a {@code WorkStealingPool} helps
     * in its pool ({@link Worker#helpGet}), a worker of another Spindle pool lets that pool
     * compensate (as {@link #awaitOutside} does for a join), any other thread parks.
     *
     * @return whether the task completed ({@code false}: timed out)
     */
    static boolean awaitForGet(ForkTask<?> task, boolean timed, long nanos) throws InterruptedException {
        if (PoolCore.workerOfCurrentThread() instanceof Worker w) {
            return w.helpGet(task, timed, nanos);
        }
        BlockingSupport foreign = BlockingSupport.current();
        if (foreign == null) {
            return task.awaitBlocking(timed, nanos, false);
        }
        foreign.beginBlocking();
        try {
            return task.awaitBlocking(timed, nanos, false);
        } finally {
            foreign.endBlocking();
        }
    }

    /**
     * Waits for {@code task}, holding interrupts until it returns; ends with a
     * {@link java.util.concurrent.CancellationException} if {@code shutdownNow} hands the task
     * back (see {@link ForkTask#awaitBlocking}).
     */
    private static void awaitUninterruptibly(ForkTask<?> task) {
        boolean interrupted = false;
        try {
            while (!task.isDone()) {
                try {
                    task.awaitBlocking(false, 0L, true);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    // ------------------------------------------------------------------ lifecycle hooks

    @Override
    void workerExited(BaseWorker w) {
        if (((Worker) w).spare) {
            tryTerminate();                    // the pool may have been waiting on this spare
        }
    }

    // ------------------------------------------------------------------ lifecycle

    @Override
    int liveWorkers() {
        return shared.spares.live();
    }

    @Override
    boolean hasAnyTask() {
        return shared.hasAnyTask();
    }

    @Override
    IdleControl idleControl() {
        return idle;
    }

    @Override
    BaseWorker[] workerSlots() {
        return workers;
    }

    /**
     * Takes every queued task for {@code shutdownNow}. Tasks in the list that are {@link Task}s
     * stay incomplete until run or cancelled by the caller.
     */
    @Override
    void drainQueued(List<Runnable> notStarted) {
        injector.drain(r -> addIfNotStarted(notStarted, r));
        Worker[] ws = workers;
        for (int i = 0, n = shared.slotsInUse(); i < n; i++) {
            Worker w = ws[i];
            if (w == null) {
                continue;
            }
            Runnable slotted = w.lifo.steal();
            if (slotted != null) {
                addIfNotStarted(notStarted, slotted);
            }
            for (;;) {
                var r = w.deque.steal();
                if (r.isSuccess()) {
                    w.countDrained();          // taken from the top, but by no thief (stats)
                    addIfNotStarted(notStarted, r.value());
                } else if (r.isEmpty()) {
                    break;
                }
            }
        }
    }

    /**
     * Skips queue entries of tasks a joiner already ran inline, or that were cancelled. A fork
     * task is claimed as it is added ({@link ForkTask#tryHandBack}): a joiner may run the task it
     * awaits by reference while it is still queued, and must not run one that is in the list.
     */
    private static void addIfNotStarted(List<Runnable> out, Runnable r) {
        if (ForkTask.handBackIfFork(r)) {
            out.add(r);
        }
    }

    // ------------------------------------------------------------------ failures and stats

    /**
     * Returns a racy snapshot of the pool's counters (see {@link SchedulerStats}): every worker
     * slot ever started, spares included, with its completed tasks, steals in both directions,
     * runner helps, overflows, parks and deque length; the injector's length as the shared queue.
     * A spare that is retiring as the snapshot is taken counts as parked in it (it has left the
     * parked stack or the search and not yet the live workers), so a pool with no task reports no
     * active worker while a spare retires; a snapshot that raced a retirement through all its
     * attempts may report fewer active workers than there were, never more.
     */
    @Override
    public SchedulerStats stats() {
        // A retiring spare leaves the parked stack (or the search), then the live count: read
        // between the two it was live and neither parked nor searching, an active worker in a
        // pool with no task. Read through the retirements' bracket (Spares.retirements): a
        // snapshot that raced one is taken again, and the spares the last one raced count as
        // parked. The getter never waits for a retiring spare.
        Figures f = shared.spares.retirements.read(new MoveBracket.Snapshot<>() {
            @Override
            public Figures read() {
                return readFigures();
            }

            @Override
            public Figures withMovers(Figures figures, long movers) {
                return figures.withParked((int) Math.min(Integer.MAX_VALUE, figures.parked + movers));
            }
        });
        return snapshot(parallelism, f.live, f.blocked, f.queued, f.workers, f.parked, f.searching);
    }

    /** What one walk of {@link #stats()} reads. */
    private record Figures(List<SchedulerStats.WorkerStats> workers, int live, int blocked, long queued,
            int parked, int searching) {

        Figures withParked(int p) {
            return new Figures(workers, live, blocked, queued, p, searching);
        }
    }

    private Figures readFigures() {
        Spares spares = shared.spares;
        List<SchedulerStats.WorkerStats> list = new ArrayList<>();
        Worker[] ws = workers;
        for (int i = 0, n = shared.slotsInUse(); i < n; i++) {
            Worker w = ws[i];
            if (w == null) {
                continue;
            }
            long overflowed = w.overflowed();
            // the deque counts every task other threads took from its top (the overflow's
            // takeOldest is the owner's and not among them); shutdownNow's drain took some
            long stolenFrom = Math.max(0, w.deque.stolenCount() - w.drained());
            list.add(new SchedulerStats.WorkerStats(i, w.spare, w.executed(), 0, 0, w.steals(),
                    stolenFrom, overflowed, w.parks(), w.localSize(), w.unparks(), w.runnerHelps()));
        }
        return new Figures(list, spares.live(), spares.blocked(), injector.size(), idle.parkedCount(),
                idle.searchingCount());
    }

    /** {@return the target number of running workers (spares come on top while others block)} */
    public int parallelism() {
        return parallelism;
    }

    /**
     * Live workers as {@link #stats()} reports them: none once the pool has terminated. The spare
     * manager's count never drops below the core workers by itself, so a terminated pool read
     * {@code live=} its parallelism here while its stats said 0.
     */
    @Override
    String describe() {
        int live = isTerminated() ? 0 : shared.spares.live();
        return "parallelism=" + parallelism + ", live=" + live + ", injector~" + injector.size();
    }

    // ------------------------------------------------------------------ builder

    /**
     * Configures a {@link WorkStealingPool}. Every setter checks its argument and throws
     * {@link IllegalArgumentException} naming the parameter when it is out of range.
     */
    public static final class Builder extends PoolBuilder<Builder> {
        private static final int MAX_STEAL_ATTEMPTS = 1 << 16;

        private int localQueueCapacity = 256;
        private int stealAttempts = 32;
        private int maxSpareWorkers = 256;
        private Duration spareKeepAlive = Duration.ofSeconds(60);

        private Builder() {
        }

        /**
         * Tasks each worker's deque holds before it moves half to the shared injector, 2 to
         * 2^24, rounded up to a power of two; default 256.
         *
         * @param capacity the deque's capacity in tasks, 2 to 2^24
         * @return this builder
         * @throws IllegalArgumentException if {@code capacity} is out of range
         */
        public Builder localQueueCapacity(int capacity) {
            if (capacity < 2 || capacity > (1 << 24)) {
                throw new IllegalArgumentException(
                        "localQueueCapacity must be in [2, 16777216], was " + capacity);
            }
            this.localQueueCapacity = capacity;
            return this;
        }

        /**
         * Random victims an idle worker probes before it parks; default 32, at most 65,536.
         *
         * <p>Why a bound: a searching worker makes all its probes before it looks at the shared
         * queue or at a shutdown again, at some nanoseconds each. With {@code Integer.MAX_VALUE}
         * one search took tens of seconds, and a pool shut down meanwhile did not terminate
         * until it ended. 65,536 probes take about a millisecond, and are far more than a
         * search among the most workers a pool can have needs.
         *
         * @param attempts the number of probes, 1 to 65,536
         * @return this builder
         * @throws IllegalArgumentException if {@code attempts} is out of range
         */
        public Builder stealAttempts(int attempts) {
            if (attempts < 1 || attempts > MAX_STEAL_ATTEMPTS) {
                throw new IllegalArgumentException(
                        "stealAttempts must be in [1, " + MAX_STEAL_ATTEMPTS + "], was " + attempts);
            }
            this.stealAttempts = attempts;
            return this;
        }

        /**
         * Most compensating workers started for tasks inside
         * {@link dev.spindle.Spindle#blocking blocking sections}, or while every worker waits
         * without a time limit with tasks queued (see the class overview), 0 to 32,767; default
         * 256. At the bound, blocking sections run without compensation; 0 keeps the pool at
         * exactly its workers.
         *
         * @param max the most spare workers alive at once, 0 (no compensation) to 32,767
         * @return this builder
         * @throws IllegalArgumentException if {@code max} is out of range
         */
        public Builder maxSpareWorkers(int max) {
            if (max < 0 || max > 0x7fff) {
                throw new IllegalArgumentException("maxSpareWorkers must be in [0, 32767], was " + max);
            }
            this.maxSpareWorkers = max;
            return this;
        }

        /**
         * How long a spare worker that parks while still needed (its blocked worker has not come
         * back yet) stays parked before it exits; default 60 s. A spare that goes idle once the
         * pool has more unblocked workers than its parallelism exits at once, without waiting.
         *
         * @param keepAlive the idle time before a spare exits, positive
         * @return this builder
         * @throws IllegalArgumentException if {@code keepAlive} is zero or negative
         * @throws NullPointerException if {@code keepAlive} is null
         */
        public Builder spareKeepAlive(Duration keepAlive) {
            Objects.requireNonNull(keepAlive, "spareKeepAlive");
            if (keepAlive.isNegative() || keepAlive.isZero()) {
                throw new IllegalArgumentException("spareKeepAlive must be positive, was " + keepAlive);
            }
            this.spareKeepAlive = keepAlive;
            return this;
        }

        /** {@return a new pool, its workers started} */
        public WorkStealingPool build() {
            return new WorkStealingPool(this);
        }
    }
}
