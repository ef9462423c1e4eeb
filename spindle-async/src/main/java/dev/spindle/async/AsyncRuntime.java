/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import dev.spindle.SchedulerStats;
import dev.spindle.internal.IdleCoordinator;
import dev.spindle.internal.LoneTaskWatch;
import dev.spindle.internal.Parker;
import dev.spindle.internal.Strays;
import dev.spindle.internal.WatcherRole;
import dev.spindle.internal.jfr.JfrGate;
import dev.spindle.queue.Injector;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.IntPredicate;

/**
 * Runs {@link AsyncTask}s on a fixed set of worker threads.
 *
 * <pre>{@code
 * try (AsyncRuntime rt = AsyncRuntime.builder()
 *         .workers(4)
 *         .policy(AsyncPolicy.HYBRID)
 *         .name("server")
 *         .build()) {
 *     JoinHandle<String> h = rt.spawn(cx -> Poll.ready("spawned"));
 *     String s = rt.run(cx -> Poll.ready("blocked on")); // waits; callers outside only
 *     h.get();                                            // "spawned"
 * }                                                       // close(): shut down and join
 * }</pre>
 *
 * <p><b>Where tasks go.</b> {@link #spawn} from outside the runtime puts the task on a shared
 * lock-free injector and wakes one parked worker if nobody is already searching for work;
 * {@code spawn} from inside a task puts it on the current worker's local deque, where idle peers
 * can steal it. A woken task goes to the wake channel of the worker that last polled it (idle
 * peers may take it from there). Under {@link AsyncPolicy#WORK_STEALING}, a task woken or spawned
 * by a running task goes instead to its worker's LIFO slot and runs right after that task's poll. See {@link AsyncPolicy} for the order in which a worker runs
 * them, and {@code docs/ARCHITECTURE.md} ("Layer 4: async tasks") for the whole design.
 *
 * <p><b>Fairness.</b> Each poll gets a budget ({@link Builder#budget}, default 128) that
 * resources draw on through {@link Context#consumeBudget()}. A task woken during its own poll
 * (it yielded, or ran out of budget) is re-queued at a FIFO end of its worker (its yield queue,
 * which takes turns with the wake channel), behind the work already waiting there, and every 61st pick of a worker looks at the injector first; so one task
 * that is always ready cannot starve the others, even on a single worker.
 *
 * <p><b>Shutdown.</b> {@link #shutdown()} (and {@link #close()}) stops intake, lets every worker
 * finish the poll it is in, joins the worker threads, and then completes the handle of every
 * task that had not finished with a {@link CancellationException} ("runtime shut down"):
 * nothing waits forever. Those tasks are {@linkplain Cancellable cancelled} first, so a value
 * handed to a receive that will never run again stays in its channel and a permit granted to
 * such an acquire is released. Spawning afterwards throws {@link RejectedExecutionException}.
 * Worker threads are daemon threads.
 *
 * <p><b>Faults.</b> A task that throws from {@code poll} or returns {@code null} fails alone;
 * a {@link Waker} or a {@link Cancellable} that throws is reported to the thread's
 * uncaught-exception handler; the worker goes on in every case. Should a worker die all the same
 * (a defect, a virtual-machine error), the runtime shuts down and fails the unfinished handles
 * with that cause, rather than keep accepting tasks it would never run.
 */
public final class AsyncRuntime implements AutoCloseable {

    /** Numbers the runtimes built without a name. */
    private static final java.util.concurrent.atomic.AtomicInteger UNNAMED = new java.util.concurrent.atomic.AtomicInteger();

    /**
     * Configures an {@link AsyncRuntime}.
     *
     * <pre>{@code
     * AsyncRuntime rt = AsyncRuntime.builder().workers(2).budget(64).build();
     * }</pre>
     */
    public static final class Builder {
        private int workers = Runtime.getRuntime().availableProcessors();
        private AsyncPolicy policy = AsyncPolicy.WORK_STEALING;
        private int budget = 128;
        private String name;                   // null: "spindle-async-<n>"
        private List<IoDriver> io;             // null: selector and timer threads of their own
        private boolean taskStatistics;
        private boolean spawnSites;
        /** Starts each worker thread; tests pass one that fails (no native thread left). */
        private Consumer<Thread> threadStarter = Thread::start;

        private Builder() {
        }

        /** For tests: starts the worker threads with {@code starter} instead of {@link Thread#start}. */
        Builder threadStarter(Consumer<Thread> starter) {
            this.threadStarter = Objects.requireNonNull(starter, "starter");
            return this;
        }

        /**
         * Worker threads (default: available processors).
         *
         * @param workers the number of worker threads, from 1 to {@value AsyncRuntime#MAX_WORKERS}
         * @return this builder
         * @throws IllegalArgumentException unless {@code 1 <= workers <= 32767}
         */
        public Builder workers(int workers) {
            if (workers < 1 || workers > MAX_WORKERS) {
                throw new IllegalArgumentException(
                        "workers must be in [1, " + MAX_WORKERS + "], was " + workers);
            }
            this.workers = workers;
            return this;
        }

        /**
         * How the workers choose the next task (default {@link AsyncPolicy#WORK_STEALING}).
         *
         * @param policy the scheduling policy
         * @return this builder
         * @throws NullPointerException if {@code policy} is null
         */
        public Builder policy(AsyncPolicy policy) {
            this.policy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * The budget of each poll (default 128), see {@link Context#consumeBudget()}.
         *
         * @param budget the operations one poll may start before its resources make it yield; at
         *     least 1
         * @return this builder
         * @throws IllegalArgumentException unless {@code budget >= 1}
         */
        public Builder budget(int budget) {
            if (budget < 1) {
                throw new IllegalArgumentException("budget must be at least 1, was " + budget);
            }
            this.budget = budget;
            return this;
        }

        /**
         * Whether to keep per-task poll statistics from the start (default off); see
         * {@link AsyncRuntime#enableTaskStatistics()}, which can also turn them on later.
         *
         * @param on {@code true} to time and count every poll from the first spawn
         * @return this builder
         */
        public Builder taskStatistics(boolean on) {
            this.taskStatistics = on;
            return this;
        }

        /**
         * Whether to record where each task is spawned (default off), shown in
         * {@link AsyncRuntime#busiestTasks} and the console. It costs a stack walk per spawn,
         * several microseconds, about ten times a spawn's own cost: turn it on to find a
         * misbehaving task, not in production. Without it a task is known by its class; a
         * flight recording that enables {@code dev.spindle.LongPoll} records sites anyway.
         *
         * @param on {@code true} to walk the stack at every spawn and keep the spawning frame
         * @return this builder
         */
        public Builder spawnSites(boolean on) {
            this.spawnSites = on;
            return this;
        }

        /**
         * The runtime's name (default {@code spindle-async-<n>}, {@code n} counting the runtimes
         * built without one, so that two are told apart in metrics and the console).
         *
         * @param name the runtime's name: the worker threads are {@code <name>-worker-<i>}, and
         *     {@link AsyncRuntime#stats()} and flight-recorder events carry it
         * @return this builder
         * @throws IllegalArgumentException if {@code name} is blank
         * @throws NullPointerException if {@code name} is null
         */
        public Builder name(String name) {
            Objects.requireNonNull(name, "name");
            if (name.isBlank()) {
                throw new IllegalArgumentException("name must not be blank");
            }
            this.name = name;
            return this;
        }

        /**
         * Lets the idle workers drive {@code drivers} and the timers themselves, instead of
         * selector threads and the shared timer thread: a worker with nothing to run waits in
         * one driver's {@code select} (one worker per driver, with the next timer deadline as
         * its timeout), and the tasks its events or timers wake run on that worker, with no
         * hand-off to another thread. The other idle workers park as usual and are woken through
         * the same idle protocol; waking the one inside {@code select} wakes its selector. Busy
         * workers look at the drivers every few dozen tasks, so I/O is served while all of them
         * are busy. A worker held by one long poll (a computation, a call that blocks) looks at
         * none meanwhile: while a driver has nobody waiting in it, a worker that goes to sleep in
         * another wakes every 10 ms to look at it, so its I/O and timers are late by about that.
         * A worker already asleep in another driver when the first was left does not: then the
         * runtime's watcher's timed look covers it, and they can be late by up to about 100 ms
         * (its longest sleep). Late, never lost.
         *
         * <p>{@code drivers} are usually the reactors of a driven reactor group, which this
         * runtime then serves (it does not close them, and gives them back once it has
         * terminated, for another runtime to drive); with an empty list the workers drive
         * only the timers ({@link Async#sleep}, {@link Async#timeout}) of the tasks they run.
         * Without this option (the default) a reactor has its own selector thread and timers
         * fire on the JVM-wide timer thread.
         *
         * <pre>{@code
         * try (ReactorGroup reactors = ReactorGroup.openDriven(2);
         *         AsyncRuntime rt = AsyncRuntime.builder().workers(8).driveIo(reactors.reactors()).build();
         *         AsyncTcpListener l = AsyncTcpListener.bind(address, reactors)) {
         *     ...
         * }
         * }</pre>
         *
         * @param drivers the drivers the idle workers wait in, at most one per worker; the list is
         *     copied, and an empty one means the workers drive only the timers
         * @return this builder
         * @throws NullPointerException if {@code drivers} or one of them is null
         * @throws IllegalArgumentException if a driver is listed twice
         */
        public Builder driveIo(List<? extends IoDriver> drivers) {
            Objects.requireNonNull(drivers, "drivers");
            List<IoDriver> copy = new ArrayList<>(drivers.size());
            for (IoDriver d : drivers) {
                Objects.requireNonNull(d, "drivers must not contain null");
                for (int i = 0; i < copy.size(); i++) {
                    if (copy.get(i) == d) {
                        // named by index and class, not toString(): that is user code, and one
                        // that threw replaced this exception with its own
                        throw new IllegalArgumentException("driver listed twice, at index " + i + " and index "
                                + copy.size() + ": a " + d.getClass().getName());
                    }
                }
                copy.add(d);
            }
            this.io = copy;
            return this;
        }

        /**
         * Starts the runtime's threads.
         *
         * @return a new runtime whose worker threads are started
         * @throws IllegalArgumentException if there are more {@linkplain #driveIo I/O drivers}
         *     than workers (a driver nobody waits in would serve its connections only when a busy
         *     worker looks)
         * @throws IllegalStateException if a driver cannot be claimed (see {@link IoDriver#claim});
         *     the drivers claimed before it are given back ({@link IoDriver#unclaim})
         * @throws OutOfMemoryError if a worker thread cannot be started (no native thread left);
         *     the workers started before it have exited and the drivers are given back
         */
        public AsyncRuntime build() {
            if (io != null) {
                if (io.size() > workers) {
                    throw new IllegalArgumentException("more I/O drivers (" + io.size() + ") than workers ("
                            + workers + "): each driver needs a worker that can wait in it");
                }
                int claimed = 0;
                try {
                    for (IoDriver d : io) {
                        d.claim();
                        claimed++;
                    }
                } catch (RuntimeException | Error e) {
                    // no runtime: give back the claims made, or nothing could ever drive them.
                    // One that throws (a driver's defect) does not stop the others, nor replace
                    // the reason the build failed: it goes with it, as a suppressed exception
                    for (int i = 0; i < claimed; i++) {
                        try {
                            io.get(i).unclaim();
                        } catch (RuntimeException | Error u) {
                            e.addSuppressed(u);
                        }
                    }
                    throw e;
                }
            }
            return new AsyncRuntime(this);
        }
    }

    /** Upper bound on {@link Builder#workers}. */
    public static final int MAX_WORKERS = 32767;
    /**
     * The most cells a worker's local deque holds (it grows on demand from 64); beyond that a
     * spawn overflows to the injector. Large enough that a burst of spawns from one task stays in
     * the deque, where the worker runs it newest first: at 4,096, 6,000 of spawn_many's 10,000
     * children went through the injector, oldest first, and the parent awaiting them in order
     * was woken by each (5,836 polls of it per run on one worker, 94 ns a task against 65 with
     * one poll). Session 6 tried this size and went back because a peer then stole a long deque
     * one cell at a time; peers now steal batches ({@link AsyncWorker#STEAL_BATCH_LIMIT}).
     */
    static final int LOCAL_CAPACITY = 65_536;
    /** Upper bound on the {@code n} of {@link #busiestTasks}. */
    public static final int MAX_BUSIEST_TASKS = 1000;
    /** The most live-task entries one {@link #busiestTasks} call looks at. */
    public static final int MAX_TASKS_EXAMINED = 10_000;

    final AsyncPolicy policy;
    final int budget;
    final String name;
    final Injector<TaskCell<?>> injector = new Injector<>();
    /** Scheduled cells that a queue could not take (it could not grow); see {@link #enqueue}. */
    final StrandedCells stranded = new StrandedCells();
    final AsyncWorker[] workers;
    /** The workers as {@link LoneTaskWatch} sees its peers. */
    final LoneTaskWatch.Peers watchedPeers;
    /** The parked worker that watches the busy ones ({@code AsyncWorker.park}); one at a time. */
    final WatcherRole watcher;
    /** Parks and wakes the workers: the pools' one idle protocol, without spares. */
    final IdleCoordinator parking;
    /** The parker of a runtime whose workers drive I/O and timers; null otherwise. */
    final DrivingParker driver;
    /** That runtime's own timer ({@link Timers#schedule} picks it on its workers); else null. */
    final Timers timers;
    volatile boolean closing;
    /** Whether polls are timed into each task's {@link TaskInsight}; read before every poll. */
    volatile boolean taskStatistics;
    /** Whether each spawn records its site (a stack walk); see {@link Builder#spawnSites}. */
    final boolean spawnSites;

    /**
     * Cells spawned from outside the runtime, for shutdown; guarded by itself. Pruned by spawns
     * from outside and, since they may stop, by idle workers ({@link #pruneOutsideList}).
     */
    private final LiveTasks outsideLive = new LiveTasks();
    /** Spawns from outside accepted so far (for {@link #liveTasks()}); guarded by outsideLive. */
    private long outsideSpawned;
    /** Cells retired by shutdown rather than by a worker (for {@link #liveTasks()}). */
    private volatile long retiredAtShutdown;
    /** Workers whose loop has not exited; read by a blocked get once the runtime closes. */
    final AtomicInteger running;
    /**
     * Workers blocked in a {@code get} (of this runtime's handles, or of a promise or another
     * runtime's handle), less those running a task meanwhile; when it reaches the worker count
     * nobody but the blocked workers can run this runtime's tasks (see AsyncWorker's
     * <i>Blocking gets</i>).
     */
    final AtomicInteger blockedInGet = new AtomicInteger();
    private final Object terminationLock = new Object();
    private boolean terminated;                // guarded by terminationLock
    /**
     * The thread completing the unfinished handles ({@link #cancelRemaining}) until it has, then
     * null; guarded by terminationLock, which it does not hold while it completes them.
     */
    private Thread finisher;
    /** What ended a worker's loop, if one died; guarded by terminationLock. */
    private Throwable workerDeath;
    /**
     * Whether {@link #cancelRemaining} has taken the injector's cells; guarded by terminationLock.
     * A cell offered later is one it found elsewhere (see {@link #spawn}), and nobody will take it.
     */
    private boolean injectorCollected;
    /** For tests: run by a spawn from outside between its look at {@code closing} and its offer. */
    Runnable beforeOutsideOffer;

    private AsyncRuntime(Builder b) {
        this.policy = b.policy;
        this.budget = b.budget;
        this.name = b.name != null ? b.name : "spindle-async-" + UNNAMED.incrementAndGet();
        this.taskStatistics = b.taskStatistics;
        this.spawnSites = b.spawnSites;
        this.workers = new AsyncWorker[b.workers];
        this.watchedPeers = LoneTaskWatch.Peers.of(workers);
        // a stray interrupt must not turn a park into a spin: dropped before each sleep
        Parker threads = Parker.ofThreads(this, name, i -> workers[i].thread);
        this.driver = b.io == null ? null : new DrivingParker(this, b.workers, threads, b.io);
        this.timers = driver == null ? null : driver.timers;
        this.parking = new IdleCoordinator(b.workers, driver == null ? threads : driver, Thread::interrupted);
        this.watcher = new WatcherRole(parking, () -> closing, false);   // no sink: see WatcherRole
        this.running = new AtomicInteger(b.workers);
        for (int i = 0; i < workers.length; i++) {
            workers[i] = new AsyncWorker(this, i, LOCAL_CAPACITY);
        }
        try {
            for (AsyncWorker w : workers) {
                Thread t = new AsyncWorker.WorkerThread(w, name + "-worker-" + w.index);
                t.setDaemon(true);
                w.thread = t;
            }
            for (AsyncWorker w : workers) {
                b.threadStarter.accept(w.thread);
            }
        } catch (Throwable e) {
            // No native thread left for one of them (an OutOfMemoryError): the caller gets no
            // runtime to close, so the workers started so far would park for good, one more set
            // at each retry, and the drivers build() claimed would stay claimed.
            abortStart();
            throw e;
        }
    }

    /**
     * Undoes a construction whose worker threads could not all be made or started: the workers
     * started exit (no task can have been spawned) and are joined, and the I/O drivers that
     * {@link Builder#build} claimed are given back.
     */
    private void abortStart() {
        closing = true;
        parking.terminate();
        boolean interrupted = false;
        for (AsyncWorker w : workers) {
            Thread t = w == null ? null : w.thread;
            while (t != null) {
                try {
                    t.join();                  // at once for a thread never started
                    break;
                } catch (InterruptedException ie) {
                    interrupted = true;
                }
            }
        }
        if (driver != null) {
            driver.unclaimAll();
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * A builder with the defaults: one worker per processor, WORK_STEALING, budget 128.
     *
     * @return a new builder; builders are not thread-safe
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * How the workers choose the next task.
     *
     * @return the policy the runtime was built with
     */
    public AsyncPolicy policy() {
        return policy;
    }

    /**
     * The number of worker threads.
     *
     * @return the worker count the runtime was built with, fixed for its lifetime
     */
    public int workers() {
        return workers.length;
    }

    // ------------------------------------------------------------------ spawning

    /**
     * Starts {@code task}. May be called from any thread; from inside a task of this runtime the
     * new task goes to the current worker's local queue.
     *
     * <p>The new task is not tied to the task that spawned it: cancelling the spawning task (or
     * its finishing first) neither cancels nor awaits the new one, which runs until it completes,
     * its own handle is cancelled or the runtime shuts down. Structured concurrency is not
     * provided; a parent that must not leave children behind cancels their handles itself (or
     * awaits them through the combinators of {@link Async} other than {@link Async#all}, such as
     * {@link Async#map} or {@link Async#timeout}, which cancel a spawned task whose handle they
     * own when they give up on it or are cancelled themselves).
     *
     * @param <T> the task's result type
     * @param task the task to run; from now on only the runtime polls it
     * @return the task's handle: it completes with the task's result or failure, and cancelling
     *     it cancels the task (but not the tasks that task spawned)
     * @throws RejectedExecutionException if the runtime is shut down
     * @throws NullPointerException if {@code task} is null
     */
    public <T> JoinHandle<T> spawn(AsyncTask<T> task) {
        Objects.requireNonNull(task, "task");
        TaskInsight insight = TaskInsight.atSpawn(spawnSites);  // before the allocation: see TaskCell
        TaskCell<T> c = new TaskCell<>(this, task, insight);
        AsyncWorker w = AsyncWorker.current();
        if (w != null && w.runtime == this) {
            if (c.insight != null) {
                c.listIn(w.live);              // shown by busiestTasks while it waits to run
            }                                  // else listed at its first pending poll, if any
            if (closing) {
                c.finish();                    // withdrawn: shutdown will skip it
                throw JfrGate.rejected(name, new RejectedExecutionException("runtime " + name + " is shut down"));
            }
            w.countSpawned();
            if (!w.offerLifo(c, true)) {
                w.pushLocal(c);
            }
        } else {
            synchronized (outsideLive) {
                c.listIn(outsideLive);         // marked listed: no worker's list takes it too
                outsideSpawned++;
            }
            if (closing) {                     // read after the add: see shutdown()
                c.finish();
                synchronized (outsideLive) {
                    outsideSpawned--;          // withdrawn: never live (a rare path)
                }
                throw JfrGate.rejected(name, new RejectedExecutionException("runtime " + name + " is shut down"));
            }
            Runnable hook = beforeOutsideOffer;
            if (hook != null) {
                hook.run();
            }
            enqueue(injector, c);
            if (closing) {
                dropLateInjected();
            }
            parking.notifyWork();
        }
        return c;
    }

    /**
     * Runs {@code task} and waits for its result. For threads outside any runtime: blocking a
     * worker could deadlock it, so a worker thread gets an exception instead. If the waiting
     * thread is interrupted, the task is cancelled; if it completed before that cancel, its
     * outcome is reported all the same. Either way the thread's interrupt status stays set.
     *
     * @param <T> the task's result type
     * @param task the task to run
     * @return the task's value
     * @throws IllegalStateException if called from a worker thread of an {@code AsyncRuntime}
     * @throws RejectedExecutionException if the runtime is shut down
     * @throws CancellationException if the task was cancelled or the runtime shut down first
     * @throws CompletionException wrapping the task's exception, or the interrupt if it cancelled
     *     the task
     * @throws NullPointerException if {@code task} is null
     */
    public <T> T run(AsyncTask<T> task) {
        if (AsyncWorker.current() != null) {
            throw new IllegalStateException(
                    "run() blocks; from inside a task, spawn and poll the JoinHandle instead");
        }
        JoinHandle<T> h = spawn(task);
        try {
            return h.get();
        } catch (ExecutionException e) {
            // the message made here: the cause constructor prints the task's exception, and one
            // whose toString() threw had that thrown in place of this wrapper
            throw new CompletionException(Strays.describe(e.getCause()), e.getCause());
        } catch (InterruptedException e) {
            boolean cancelled = h.cancel(false);
            Thread.currentThread().interrupt();
            if (!cancelled && h.isDone()) {
                // the task finished before the cancel (after the wait saw the interrupt): its
                // outcome stands, as FutureTask.get reports a completed outcome over an interrupt;
                // the handle is done, so this get returns at once without looking at the interrupt
                try {
                    return h.get();
                } catch (ExecutionException failed) {
                    throw new CompletionException(Strays.describe(failed.getCause()), failed.getCause());
                } catch (InterruptedException notExpected) {
                    throw new AssertionError("get() of a done handle waited", notExpected);
                }
            }
            throw new CompletionException(e);
        }
    }

    // ------------------------------------------------------------------ scheduling internals

    /**
     * Queues a cell just moved to SCHEDULED by a wake-up: into the LIFO slot of the worker whose
     * task woke it (it runs right after that task's poll, on a warm cache, without waking
     * anyone), else to its owner's wake channel.
     */
    void deliverWake(TaskCell<?> c) {
        AsyncWorker w = AsyncWorker.current();
        if (w != null && w.runtime == this && w.offerLifo(c, false)) {
            return;
        }
        deliverToOwner(c, w);
    }

    /**
     * Sends a scheduled cell to the wake channel of the worker that polled it last, and wakes a
     * worker for it if one is needed. Under HYBRID, which has no LIFO slot, two exceptions for a
     * wake-up made on a worker thread of this runtime, both because waking a parked worker for
     * one task costs more (a futex call and a context switch, microseconds) than the waking
     * worker's taking it after its poll:
     *
     * <ul>
     *   <li>If the cell's last poller is parked, the cell goes to the waking worker's own wake
     *       channel instead (it adopts the cell; its next poll makes it the owner).</li>
     *   <li>A cell that lands in the waking worker's own wake channel while that channel was
     *       empty wakes nobody, as a cell in WORK_STEALING's LIFO slot does: the worker looks
     *       there after its poll. A second one does (a peer may take it), and if the poll
     *       blocks, the parked watcher takes the cell ({@code LoneTaskWatch}: the wake channel
     *       is work a peer may take).</li>
     * </ul>
     *
     * <p>Without them HYBRID handed every wake-up in a channel pipeline to the other worker and
     * parked it again at once: 600–1,400 parks a run of 10,000 items through 4 stages, 3–5 times
     * WORK_STEALING's time; 220–390 parks and 2–3 times faster with them. Neither rule can lose
     * a task (the cell is queued before anything is decided, and the worker it goes to is
     * running); the Promela model's inside wake-up follows them. WORK_STEALING keeps its own
     * placement (its slot already keeps a woken task on the waking worker): with the rules, its
     * spawn_many and chained_spawn measured 15–25 % slower, unexplained.
     *
     * @param current the worker running this thread ({@link AsyncWorker#current()}), or null
     */
    void deliverToOwner(TaskCell<?> c, AsyncWorker current) {
        AsyncWorker target = c.owner;
        if (current != null && current.runtime != this) {
            current = null;                    // another runtime's worker: as any outside thread
        }
        if (driver != null && current != null && current.driving) {
            target = current;                  // woken by this worker's I/O or timers: runs here
        }
        if (target == null) {                  // never polled (cancelled before its first run)
            enqueue(injector, c);
            parking.notifyWork();
            return;
        }
        boolean hybrid = policy == AsyncPolicy.HYBRID;
        if (hybrid && current != null && target != current && parking.isParked(target.index)) {
            target = current;                  // adopted: its last poller sleeps
        }
        if (target != current) {
            enqueue(target.wakeChannel, c);
            parking.notifyWork(target.index);
            return;
        }
        boolean lone = hybrid && current.wakeChannel.isEmpty();
        enqueue(current.wakeChannel, c);
        if (!lone) {
            parking.notifyWorkRacy();          // this thread will get there; a peer may take it sooner
        }
    }

    /**
     * A cell is done: no wake-up will queue it again. Counted for {@link #liveTasks()} by the
     * worker {@code by} that retires it, or, when {@code by} is null, as retired by shutdown
     * (then every worker has exited and only the shutting-down thread writes the count).
     *
     * <p>Counted before the cell is marked done, here and where a worker's poll ends a task
     * ({@code AsyncWorker.pollCell}, before the outcome that releases the handle's waiters): the
     * other way round, a task's end moved it out of the live count in two steps, and a caller
     * that had seen its handle complete, the runtime otherwise quiet, read it live. Whoever sees
     * the cell done (its handle's outcome, a volatile write after the count) sees it counted.
     */
    void retire(TaskCell<?> c, AsyncWorker by) {
        if (by != null) {
            by.countListed(c);                 // a listed cell's end, for the idle sweep
            by.countRetired();
        } else {
            retiredAtShutdown = retiredAtShutdown + 1;
        }
        c.finish();
    }

    /**
     * Retires a cell whose task will not be polled again although it neither returned ready nor
     * threw (its handle was cancelled, the runtime shut down, or its poll broke the contract),
     * after cancelling the task ({@link Async#cancel}) so that it gives back what it waits in:
     * its place in a channel's or a semaphore's wait queue, a value handed to it, a timer entry.
     * This is the mechanism the combinators use for the children they abandon, so a cancelled
     * task withdraws exactly as a timed-out one does.
     *
     * <p>Called only between polls, as {@link Cancellable} requires: by the worker that took the
     * cell's queue entry (no other thread polls it, and its last poll happened-before), or
     * by {@link #cancelRemaining} once every worker has exited. The task is cancelled before the
     * cell is marked done, so whoever sees the cell {@code DONE} sees the task withdrawn.
     *
     * @param by the worker that abandons it, or null for {@link #cancelRemaining}
     * @return what the task's {@code cancel()} threw (the caller decides where it goes), or null
     */
    Throwable abandon(TaskCell<?> c, AsyncWorker by) {
        AsyncTask<?> t = c.task;
        Throwable failure = null;
        if (t != null) {
            try {
                Async.cancel(t);
            } catch (Throwable e) {
                failure = e;
            }
        }
        retire(c, by);
        return failure;
    }

    /**
     * Reports what user code threw where nobody is waiting for it (a {@link Cancellable} or a
     * {@link Waker} breaking its contract) to the current thread's uncaught-exception handler,
     * without letting it end the thread: a worker or a closing thread goes on.
     */
    static void reportStray(Throwable t) {
        Strays.report(t);
    }

    /**
     * Offers {@code c}, just scheduled, to {@code q}: every queueing of a cell in the runtime
     * but the owner-only queues' (which never grow) goes through here. Should {@code q} not
     * grow (an {@link OutOfMemoryError} from its segment), the cell goes to {@link #stranded}
     * instead, which allocates nothing, a worker is woken for it, and the error is reported:
     * thrown, it left the cell scheduled and in no queue, its task never polled again (see
     * {@link StrandedCells}). Only the failing path does more than the offer.
     */
    void enqueue(Injector<TaskCell<?>> q, TaskCell<?> c) {
        OutOfMemoryError e = stranded.offer(q, c);
        if (e != null) {
            parking.notifyWork();
            reportStray(e);                    // the task is not lost, but the heap is full
        }
    }

    boolean hasVisibleWork() {
        if (!injector.isEmpty() || !stranded.isEmpty()) {
            return true;
        }
        for (AsyncWorker w : workers) {
            if (w.hasStealable()) {
                return true;
            }
        }
        return false;
    }

    // ------------------------------------------------------------------ shutdown

    /**
     * Shuts down: stops intake, lets each worker finish its current poll, waits for the workers
     * to exit, cancels the tasks that did not finish ({@link Cancellable}) and completes their
     * handles with a {@link CancellationException}. Idempotent. Called from inside a task of this
     * runtime, it only signals (a worker cannot wait for itself); the workers then exit after
     * their current polls, and the last one to exit completes the remaining handles. So it does
     * on any worker thread of this runtime, also one whose loop has ended (a callback of a handle
     * that the last worker completes as it exits runs there), and on the thread that is
     * completing the handles (a callback closing the runtime again). Called elsewhere while
     * another thread completes the handles, it waits until that thread has.
     *
     * <p>The handles are completed, and their tasks cancelled, with no lock held: what that runs
     * ({@link JoinHandle#toCompletableFuture} callbacks, wakers, {@link Cancellable}s) may wait
     * for a thread that asks {@link #isTerminated()}, which answers {@code false} meanwhile.
     */
    public void shutdown() {
        closing = true;
        parking.terminate();
        // By the thread, not AsyncWorker.current(), which names a worker only while its loop runs:
        // the last worker to exit completes the unfinished handles on its own thread, and what
        // that runs (a toCompletableFuture callback, a waker, a Cancellable, and afterwards the
        // thread's uncaught-exception handler) may close the runtime; taken for an outside
        // caller, it joined its own thread and waited for good, holding the termination lock
        // (CloseFromAnExitingWorkerTest).
        if (Thread.currentThread() instanceof AsyncWorker.WorkerThread t && t.worker.runtime == this) {
            // A worker cannot join itself, and two tasks closing at once must not join each
            // other: signal only. The last worker to exit completes what is left (workerExited).
            return;
        }
        boolean interrupted = false;
        for (AsyncWorker w : workers) {
            for (;;) {
                try {
                    w.thread.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        cancelRemaining();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Same as {@link #shutdown()}. */
    @Override
    public void close() {
        shutdown();
    }

    /**
     * Whether {@link #shutdown()} has been called.
     *
     * @return {@code true} once {@link #shutdown()} or {@link #close()} has been called, or a
     *     worker died
     */
    public boolean isShutdown() {
        return closing;
    }

    /**
     * Whether every worker has exited and every unfinished handle has been completed.
     *
     * @return {@code true} once shutdown is complete; {@code false} before and while it runs
     */
    public boolean isTerminated() {
        synchronized (terminationLock) {
            return terminated;
        }
    }

    /**
     * A worker's loop ended with {@code cause}: a defect of the runtime or of the VM, since a
     * task's own failures end only that task. With a worker gone its queues would never be
     * drained, so the runtime shuts down as {@link #shutdown()} does (intake stops, the other
     * workers exit after their current polls, unfinished handles fail with the cause) rather
     * than accept spawns it will never run.
     */
    void workerDied(Throwable cause) {
        synchronized (terminationLock) {
            if (workerDeath == null) {
                workerDeath = cause;
            }
        }
        closing = true;
        parking.terminate();
    }

    void workerExited() {
        if (running.decrementAndGet() == 0) {
            cancelRemaining();
        }
    }

    /**
     * A spawn from outside that saw {@code closing} unset offers its cell after that look, so
     * the shutdown may have collected the injector already: the cell, listed in the outside list
     * before {@code closing} was set, was found and failed there (see {@link #cancelRemaining}),
     * but its offer left it in the injector for good, held after termination and counted by
     * {@link #stats()} as queued. Once the injector was collected, whatever is offered to it is
     * such a cell, or one a late wake-up queued (see below): both were collected elsewhere, and
     * are dropped here.
     */
    private void dropLateInjected() {
        synchronized (terminationLock) {
            if (injectorCollected) {
                while (injector.poll() != null) {
                    // collected elsewhere: its handle is (or is being) failed by the shutdown
                }
                stranded.drain(c -> { });      // one the injector could not take: the same
            }
        }
    }

    /**
     * Completes the handles of all cells not done. Runs once every worker has exited, so no cell
     * is being polled; a wake-up racing with this may still queue a cell, but nobody will take it,
     * and it is DONE afterwards. A spawn from outside racing with shutdown either sees
     * {@code closing} and withdraws, or added its cell to the outside {@link LiveTasks} list before
     * {@code closing} was set, and then this loop (which runs after that write) sees it there
     * (and its offer to the injector, if it comes after this loop took the injector's cells, is
     * undone by {@link #dropLateInjected}).
     * A cell spawned on a worker is listed at its first pending poll (in that worker's list,
     * stable and visible now that the worker has exited); until then it was queued, and is found
     * in the worker's queues or the injector, or it was the cell a dying worker had in hand.
     *
     * <p>The cells are collected under the termination lock by one thread, the {@link #finisher},
     * and failed after it is released: failing one completes its handle, which runs user code
     * ({@link JoinHandle#toCompletableFuture} callbacks, wakers, and the task's
     * {@link Cancellable} before). Run under the lock, a callback that waited for a thread asking
     * {@link #isTerminated()} waited for good, and one that ran long held up every such caller.
     * Every handle's outcome is recorded before the waiters of any are released, so a callback
     * that joins another of these handles finds it completed rather than waiting for this
     * thread. {@code terminated} is set only once every handle is completed, so {@link #isTerminated()}
     * and a {@link #shutdown()} that returns still mean that; another thread's {@link #shutdown()}
     * waits for the finisher meanwhile (the finisher's own, from a callback, returns).
     */
    private void cancelRemaining() {
        List<TaskCell<?>> left = new ArrayList<>();
        Throwable died;
        synchronized (terminationLock) {
            if (terminated || finisher != null) {
                boolean interrupted = false;
                while (!terminated && finisher != Thread.currentThread()) {
                    try {
                        terminationLock.wait();
                    } catch (InterruptedException e) {
                        interrupted = true;    // shutdown's promise: the handles are completed on return
                    }
                }
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
                return;
            }
            finisher = Thread.currentThread();
            died = workerDeath;
        }
        // From here the finally ends the pass whatever is thrown (an OutOfMemoryError collecting
        // the cells, say): left with finisher set and terminated unset, it had every later
        // shutdown() wait for good.
        try {
            synchronized (terminationLock) {
                for (AsyncWorker w : workers) {
                    w.live.forEachNotDone(Integer.MAX_VALUE, left::add);
                    w.live.clear();                // the cells are held in left until failed (see LiveTasks.clear)
                }
                // Cells not listed: those spawned on a worker and never polled (in a queue: only
                // a pending poll lists a cell) and one a dying worker had in hand. A cell may be
                // both listed and queued: failed once, the second time it is DONE (see below).
                for (AsyncWorker w : workers) {
                    w.drainForShutdown(left::add);
                }
                for (TaskCell<?> c; (c = injector.poll()) != null; ) {
                    left.add(c);
                }
                stranded.drain(left::add);
                injectorCollected = true;
                synchronized (outsideLive) {
                    outsideLive.forEachNotDone(Integer.MAX_VALUE, left::add);
                    outsideLive.clear();
                }
            }
            // Every outcome is recorded before any waiter is released: a toCompletableFuture
            // callback runs on this thread as its handle's waiters are, and one that joined
            // another unfinished handle (a sibling) waited for this very thread to complete it
            // next, and the shutdown never ended. Now such a join finds the outcome out.
            List<TaskCell<?>> failed = new ArrayList<>(left.size());
            for (TaskCell<?> c : left) {
                if (c.state() == TaskCell.DONE) {
                    continue;                  // collected twice, or done before it was collected
                }
                try {
                    Throwable stray = abandon(c, null);
                    CancellationException e = new CancellationException("runtime " + name + " shut down"
                            + (died == null ? "" : ": a worker died of " + died));
                    if (died != null) {
                        e.initCause(died);
                    }
                    c.record(JoinHandle.FAILED, e, false);
                    failed.add(c);             // sized for every cell: adding cannot fail
                    if (stray != null) {
                        reportStray(stray);
                    }
                } catch (Throwable t) {
                    reportStray(t);            // a defect: the other handles are completed all the same
                }
            }
            for (TaskCell<?> c : failed) {
                try {
                    c.releaseWaiters();
                } catch (Throwable t) {
                    reportStray(t);            // a defect: the other handles' waiters are released all the same
                }
            }
        } finally {
            synchronized (terminationLock) {
                if (driver != null) {
                    // every worker has exited: another runtime may drive them; before terminated,
                    // so that a close() that returned (or isTerminated()) has given them back
                    driver.unclaimAll();
                }
                terminated = true;
                finisher = null;
                terminationLock.notifyAll();
            }
        }
    }

    // ------------------------------------------------------------------ statistics

    /**
     * Returns a racy snapshot of the runtime's counters (see {@link SchedulerStats}, read
     * without stopping the workers): per worker its polls, the wake-ups it took from its own
     * wake channel, its steals, its parks and the tasks in its local deque, wake channel and
     * yield queue; the injector's length as the shared queue; the workers parked and searching
     * now (so {@link SchedulerStats#activeWorkers()}). The runtime counts polls, not
     * completed tasks, and has no spare or blocked workers. Once every worker has exited (the
     * runtime terminated, or is about to), it reports no live, parked or searching worker.
     *
     * <pre>{@code
     * SchedulerStats s = rt.stats();
     * long polls = s.polls();
     * long pollsOfWorker0 = s.workers().get(0).polls();
     * }</pre>
     *
     * @return a new snapshot, named after the runtime, with one entry per worker
     */
    public SchedulerStats stats() {
        List<SchedulerStats.WorkerStats> out = new ArrayList<>(workers.length);
        for (AsyncWorker w : workers) {
            out.add(new SchedulerStats.WorkerStats(w.index, false, 0, w.polls(), w.wakeups(), w.steals(),
                    0, 0, w.parks(), w.queued(), w.unparks()));
        }
        // once every worker has exited none runs, and none is live: the worker array keeps its
        // length for good, and one that was polling when the shutdown came exits without
        // registering as parked, so it must not read as active either (no lock: a stats() call
        // must not wait for the shutdown, which may be completing the handles meanwhile)
        boolean over = running.get() == 0;
        return new SchedulerStats(name, workers.length, over ? 0 : workers.length, 0, injector.size(), out, 0, 0,
                over ? 0 : parking.parkedCount(), over ? 0 : parking.searchingCount());
    }

    /**
     * An idle worker's turn at the list of cells spawned from outside: drops the done ones (see
     * {@link LiveTasks#pruneWhenIdle} for when). Spawns from
     * outside prune it only as they add, so without this a burst spawned from outside kept its
     * results reachable until the next burst or the shutdown. The unlocked look at the length
     * is a hint; the pruning itself holds the list's lock, as every other use does.
     */
    void pruneOutsideList() {
        if (outsideLive.mayPruneWhenIdle()) {
            synchronized (outsideLive) {
                outsideLive.pruneWhenIdle();
            }
        }
    }

    /**
     * Called by a worker that has just registered as parked: if every worker is now parked and
     * some listed cell finished since the last sweep, prunes every worker's list of live tasks,
     * then the list of spawns from outside ({@link LiveTasks#pruneWhenSwept}: a list that kept
     * many cells once about half as many listed cells finished, which its growth rule alone
     * waited for a later burst of spawns to do). A worker prunes its own list as it parks, but a cell is
     * listed on the worker that first polled it pending and may finish on another, after the
     * lister's last park; without this its result stayed reachable while the runtime idled
     * ({@code LiveTasksTest}). The sweep runs under the idle protocol's lock, with every worker
     * on its parked stack: none can leave it (a wake-up, a watcher's {@code cancelPark}, a driving
     * worker's {@code wakeSelf}, {@code terminate}) without that lock, and none touches its list
     * while registered, so the lists are the sweeper's for the while; each worker's writes before
     * its registration (under the lock) are visible to the sweeper, and the sweeper's are visible
     * to a worker once it is woken (by a waker that took the lock after). The unlocked look at
     * the parked count keeps the lock off every other park; the counts of listed cells finished
     * ({@link AsyncWorker#listedRetired}) keep a runtime whose waiting tasks never finish from
     * walking their cells at every idle moment.
     */
    void sweepListsIfIdle() {
        if (parking.parkedCount() == workers.length && !closing && parking.underLock(sweepUnderLock)) {
            // after the idle lock, not under it: the outside list has a lock of its own
            long finished = listedRetiredSwept; // this sweep's count, or a later one's: either will do
            synchronized (outsideLive) {
                outsideLive.pruneWhenSwept(finished);
            }
        }
    }

    /**
     * Sum of the workers' {@code listedRetired} at the last sweep; written under the idle lock,
     * volatile for the sweeper's read after it (the outside list's turn).
     */
    private volatile long listedRetiredSwept;

    /** {@link #sweepLocked}, made once: the lock's callback. */
    private final IntPredicate sweepUnderLock = this::sweepLocked;

    /** The sweep itself, under the idle lock with {@code parked} workers on the parked stack. */
    private boolean sweepLocked(int parked) {
        if (parked != workers.length || closing) {
            return false;
        }
        long finished = 0L;
        for (AsyncWorker w : workers) {
            finished += w.listedRetired;
        }
        if (finished == listedRetiredSwept) {
            return false;
        }
        listedRetiredSwept = finished;
        for (AsyncWorker w : workers) {
            w.live.pruneWhenSwept(finished);
        }
        return true;
    }

    /** Cells in the list of spawns from outside, done ones not yet pruned included; for tests. */
    int outsideListed() {
        synchronized (outsideLive) {
            return outsideLive.length();
        }
    }

    /**
     * Cells in the workers' own lists, done ones not yet pruned included; for tests, and racy
     * (each worker writes its list without a lock): exact once the workers are parked.
     */
    int workersListed() {
        int n = 0;
        for (AsyncWorker w : workers) {
            n += w.live.length();
        }
        return n;
    }

    /**
     * Tasks spawned and not yet done (completed, failed, cancelled, or ended by shutdown),
     * pending ones included; a racy estimate while tasks run (a task spawned on one worker may be
     * finished by another, and the counts are read one after another), exact once the runtime is
     * quiet. A task whose handle has been seen complete with a value or a failure is no longer
     * counted (its worker counts it before it releases the handle), so a caller that saw every
     * task's handle complete reads zero; a task ending may leave the count a moment before its
     * handle completes. A cancelled task is counted until a worker retires it, after its handle
     * completed. Counted without shared writes on the task's path: each worker counts the spawns of
     * its own tasks and the cells it finishes; spawns from outside are counted under the lock
     * they already take.
     *
     * @return the number of tasks spawned and not yet done, never negative
     */
    public long liveTasks() {
        long n;
        synchronized (outsideLive) {
            n = outsideSpawned;
        }
        for (AsyncWorker w : workers) {
            n += w.spawned() - w.retired();
        }
        return Math.max(0, n - retiredAtShutdown);
    }

    /**
     * Turns per-task poll statistics on (nothing if they are on already); they stay on. From
     * then on every poll is timed on its worker ({@link System#nanoTime()} before and after)
     * and counted (see docs/OBSERVABILITY.md for the cost); where a task was spawned is
     * recorded only with {@link Builder#spawnSites}, or while a recording enables
     * {@code dev.spindle.LongPoll}. Tasks spawned before get their statistics from their next
     * poll on. Off (the default), a spawn and a poll pay one volatile read of the flag, and a
     * task keeps no statistics object.
     */
    public void enableTaskStatistics() {
        taskStatistics = true;
    }

    /**
     * Whether per-task poll statistics are on (see {@link #enableTaskStatistics()}).
     *
     * @return {@code true} if polls are timed and counted per task
     */
    public boolean taskStatisticsEnabled() {
        return taskStatistics;
    }

    /**
     * The live tasks with the longest single polls and the most wake-ups, at most {@code n} of
     * each, as tokio-console shows them: a task with long polls holds its worker (it blocks or
     * computes without yielding), a task woken far more often than it makes progress wastes
     * polls. Only tasks with statistics (see {@link #enableTaskStatistics()}) are listed, so
     * the lists are empty while statistics are off, whether or not tasks record their spawn
     * sites.
     *
     * <p>Taken without stopping or blocking the workers, and without locks: the live-task lists
     * are walked while their owners change them, so a task spawned or finished meanwhile may be
     * missed or listed, and its numbers may be a poll stale. At most
     * {@value #MAX_TASKS_EXAMINED} entries are looked at per call, so the cost is bounded
     * however many tasks are live.
     *
     * <pre>{@code
     * AsyncRuntime rt = AsyncRuntime.builder().taskStatistics(true).build();
     * ... // spawn tasks
     * List<TaskStats> longest = rt.busiestTasks(10).longestPolls();   // empty while no task is live
     * }</pre>
     *
     * @param n how many tasks each list holds at most
     * @return the two lists, each sorted worst first (ties by task id), and the number of entries
     *     examined
     * @throws IllegalArgumentException unless {@code 1 <= n <= }{@value #MAX_BUSIEST_TASKS}
     */
    public BusiestTasks busiestTasks(int n) {
        if (n < 1 || n > MAX_BUSIEST_TASKS) {
            throw new IllegalArgumentException(
                    "n must be in [1, " + MAX_BUSIEST_TASKS + "], was " + n);
        }
        // a task may have an insight without statistics (spawnSites, or a recording that enables
        // dev.spindle.LongPoll), with no poll counted: listing it showed zeros as if measured
        boolean on = taskStatistics;
        List<TaskStats> all = new ArrayList<>();
        Consumer<TaskCell<?>> read = c -> {
            TaskStats t = on ? TaskInsight.statsOf(c) : null;
            if (t != null) {
                all.add(t);
            }
        };
        int examined = 0;
        for (AsyncWorker w : workers) {
            examined += w.live.forEachNotDone(MAX_TASKS_EXAMINED - examined, read);
        }
        examined += outsideLive.forEachNotDone(MAX_TASKS_EXAMINED - examined, read);
        Comparator<TaskStats> byId = Comparator.comparingLong(TaskStats::id);
        List<TaskStats> longest = all.stream()
                .sorted(Comparator.comparingLong(TaskStats::longestPollNanos).reversed().thenComparing(byId))
                .limit(n).toList();
        List<TaskStats> woken = all.stream()
                .sorted(Comparator.comparingLong(TaskStats::wakes).reversed().thenComparing(byId))
                .limit(n).toList();
        return new BusiestTasks(longest, woken, examined);
    }

    @Override
    public String toString() {
        return "AsyncRuntime[" + name + ", " + policy + ", workers=" + workers.length
                + (closing ? ", shut down" : "") + "]";
    }
}
