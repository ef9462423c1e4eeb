/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import dev.spindle.internal.BlockingSupport;
import dev.spindle.queue.WorkStealingDeque;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One worker of a {@link WorkStealingPool}: its deque, its counters, and the loop its thread
 * runs.
 *
 * <h2>The loop</h2>
 *
 * <ol>
 *   <li>Every {@value #GLOBAL_INTERVAL}th turn, take from the injector first, so a stream of
 *       local work cannot starve external submissions.</li>
 *   <li>Pop the local deque (newest first: the task's data is likely still in cache).</li>
 *   <li>Take a batch from the injector: one task to run and a fair share moved into the deque,
 *       where peers can steal it.</li>
 *   <li>Search: if fewer than half the workers are searching, steal about half a random
 *       victim's deque (one task if the oldest is a fork task; see {@link #stealOnce}), up to
 *       {@code stealAttempts} victims, checking the injector between rounds.</li>
 *   <li>Park, following the protocol in {@link Idle}.</li>
 * </ol>
 *
 * <p>The counters are written only by this worker (opaque stores) and read by
 * {@link WorkStealingPool#stats()} with opaque loads: cheap, and exact once the pool is quiet.
 */
final class Worker extends WorkerPadAfter implements Runnable, BlockingSupport {

    /** Turns between forced looks at the injector (as Go and Tokio do; a prime). */
    static final int GLOBAL_INTERVAL = 61;
    /** Most tasks moved by one steal. */
    static final int STEAL_BATCH_LIMIT = 32;
    /** How long a joiner with nothing it may run waits before a spare runs other work. */
    static final long COMPENSATE_AFTER_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    /** How long a parking worker waits before taking a lone task a busy peer has not reached. */
    static final long STUCK_TASK_NANOS = TimeUnit.MICROSECONDS.toNanos(500);

    private static final VarHandle EXECUTED;
    private static final VarHandle STEALS;
    private static final VarHandle PARKS;
    private static final VarHandle OVERFLOWED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            EXECUTED = l.findVarHandle(WorkerHotFields.class, "executed", long.class);
            STEALS = l.findVarHandle(WorkerHotFields.class, "steals", long.class);
            PARKS = l.findVarHandle(WorkerHotFields.class, "parks", long.class);
            OVERFLOWED = l.findVarHandle(WorkerHotFields.class, "overflowed", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final WorkStealingPool pool;
    final int index;
    final boolean spare;
    final WorkStealingDeque<Runnable> deque;

    /** The thread running this worker; set before it starts. */
    volatile Thread thread;
    /** Set by whoever pops this worker off the parked stack. */
    volatile boolean notified;
    /** Whether this worker's thread is alive (a spare slot may be empty). */
    volatile boolean active;

    /**
     * Leaves the searching count; as the last searcher, wakes another if work is visible. This
     * worker's own deque counts in full: whatever is left there waits behind the task this
     * worker is about to run.
     */
    private void stopSearching() {
        if (!searching) {
            return;
        }
        searching = false;
        if (pool.idle.stopSearching() && (!deque.isEmpty() || pool.hasVisibleWork())) {
            pool.idle.notifyWork();
        }
    }



    // owner-only state

    Worker(WorkStealingPool pool, int index, boolean spare, int queueCapacity) {
        this.tick = GLOBAL_INTERVAL;
        this.pool = pool;
        this.index = index;
        this.spare = spare;
        this.deque = new WorkStealingDeque<>(Math.min(64, queueCapacity), queueCapacity);
    }

    // ------------------------------------------------------------------ loop

    @Override
    public void run() {
        BlockingSupport.bindCurrent(this);
        try {
            loop();
        } finally {
            BlockingSupport.bindCurrent(null);
            pool.workerExited(this);
        }
    }

    private void loop() {
        for (;;) {
            if (pool.isStopping()) {
                drainOwnAfterStop();
                return;
            }
            Runnable task = nextLocalOrGlobal();
            if (task != null) {
                stopSearching();
            } else {
                task = search();
            }
            if (task != null) {
                runTopLevel(task);
                continue;
            }
            if (!park()) {
                if (pool.isStopping()) {
                    drainOwnAfterStop();
                }
                return;
            }
        }
    }

    /**
     * After {@code shutdownNow} has drained the queues, a task that was already running may
     * still push: to this deque, or, when the deque is full, to the injector. External intake is
     * closed by then, so only running workers can add anything, and each of them comes here
     * before it exits: such late tasks run rather than vanish.
     */
    private void drainOwnAfterStop() {
        for (;;) {
            Runnable t = deque.pop();
            if (t == null) {
                t = pool.injector.poll();
            }
            if (t == null) {
                return;
            }
            runTopLevel(t);
        }
    }

    private Runnable nextLocalOrGlobal() {
        if (--tick <= 0) {
            tick = GLOBAL_INTERVAL;
            Runnable t = takeFromInjector();
            if (t != null) {
                return t;
            }
        }
        Runnable t = deque.pop();
        return t != null ? t : takeFromInjector();
    }

    private Runnable takeFromInjector() {
        var injector = pool.injector;
        if (injector.isEmpty()) {
            return null;
        }
        // A fair share, rounded up: ceil(queued / workers). Taking more (say queued / workers
        // + 1) lets one worker hold tasks that idle peers could run, which matters when the task
        // it runs first blocks.
        long queued = injector.size();
        int live = Math.max(1, pool.liveWorkers());
        int share = (int) Math.min((queued + live - 1) / live, deque.maxCapacity() / 2);
        Runnable t = injector.pollBatch(deque, Math.max(1, share));
        if (t != null && !deque.isEmpty()) {
            pool.idle.notifyWorkRacy();        // let a peer steal the rest of the batch
        }
        return t;
    }

    private Runnable search() {
        if (!searching) {
            searching = pool.idle.tryStartSearching(pool.liveWorkers());
            if (!searching) {
                return null;
            }
        }
        Runnable t = stealOnce(pool.stealAttempts);
        if (t == null) {
            t = takeFromInjector();
        }
        if (t != null) {
            stopSearching();
        }
        return t;
    }

    /**
     * Probes up to {@code attempts} random victims, taking about half of the first non-empty
     * deque into this worker's own, or just its oldest task if that is a fork task.
     *
     * <p>Why one fork task: a worker that joins a task this one stole helps by taking the
     * stolen task's subtasks from the top of this deque ({@link #takeDescendant}). They are at
     * the top only if nothing else was stolen with the task: this deque is empty when a steal
     * starts, so afterwards it holds the stolen task and what it spawns. Steal-half would put the
     * stolen task's siblings on top, which the joiner may not run; it would wait instead, and
     * the pool would need spare threads to keep its cores busy. Runnables, which nobody joins,
     * keep the cheaper distribution of steal-half.
     */
    Runnable stealOnce(int attempts) {
        Worker[] ws = pool.workers;
        int n = pool.slotsInUse();
        if (n <= 1) {
            return null;
        }
        ThreadLocalRandom rnd = ThreadLocalRandom.current();
        for (int a = 0; a < attempts; a++) {
            Worker v = ws[rnd.nextInt(n)];
            if (v == null || v == this) {
                continue;
            }
            int limit = v.deque.peekTop() instanceof ForkTask<?> ? 1 : STEAL_BATCH_LIMIT;
            Runnable t = v.deque.stealBatchOrNull(deque, limit);
            if (t != null) {
                STEALS.setOpaque(this, steals + 1 + deque.size());
                if (!deque.isEmpty()) {
                    pool.idle.notifyWorkRacy();
                }
                return t;
            }
            if (a % 8 == 7 && !pool.injector.isEmpty()) {
                return null;                   // let the caller take from the injector
            }
        }
        return null;
    }

    /**
     * Runs a task from a nested frame (inside a join).
     *
     * <p><b>Recorded ancestry.</b> {@link #current} need not be the task whose code runs in the
     * innermost frame: it is a <em>recorded</em> frame, an ancestor of that task or the task
     * itself, and spawned tasks take it as their {@code parent}. So every recorded parent is a
     * true ancestor, and {@code ForkTask.descendsFrom} never claims a task that is not a real
     * descendant, which is what keeps helping joins free of deadlock. A child of the recorded
     * frame ({@code parent == current}: the common inline join of a task this frame spawned)
     * therefore runs without being recorded; its own children are recorded as children of the
     * same ancestor. That saves two reference stores into this long-lived object per inline
     * join, each a full fence in G1's write barrier. The price is precision: a joiner waiting
     * for such an unrecorded child itself (rare: usually only its spawner joins it, and runs it
     * here) does not recognise that child's subtasks as ones it may help with, and waits.
     * Any other task, for instance one run inline because a joiner found it unstarted in a
     * peer's deque, is recorded for its run and the outer frame's record restored after.
     */
    void runTask(Runnable task) {
        if (task instanceof ForkTask<?> f && f.parent == current) {
            if (f.tryRun()) {
                afterTask();
            }
            return;
        }
        ForkTask<?> outer = current;
        try {
            runTopLevel(task);
        } finally {
            current = outer;
        }
    }

    /**
     * Runs a task from the loop. {@link #current} is set for the task but not restored after
     * it: nothing reads it between top-level tasks, and every write of a reference into this
     * long-lived object costs a GC write barrier on the hottest path.
     */
    private void runTopLevel(Runnable task) {
        try {
            if (task instanceof ForkTask<?> f) {
                current = f;
                if (!f.tryRun()) {
                    return;                    // already run by a joiner, or cancelled
                }
            } else {
                if (current != null) {
                    current = null;
                }
                task.run();
            }
        } catch (Throwable ex) {
            pool.reportFailure(thread, ex);
        }
        afterTask();
    }

    private void afterTask() {
        EXECUTED.setOpaque(this, executed + 1);
        if (Thread.interrupted() && pool.isStopping()) {
            Thread.currentThread().interrupt(); // keep shutdownNow's interrupt visible
        }
    }

    /**
     * Parks until woken with work to look for.
     *
     * @return {@code false} if the worker should exit instead
     */
    private boolean park() {
        Idle idle = pool.idle;
        for (;;) {
            if (spare && pool.hasExcessWorkers()) {
                stopSearching();               // hands the search to a parked peer if work remains
                if (pool.tryRetire()) {
                    return false;
                }
            }
            boolean nobodySearching = idle.prepareToPark(this, searching);
            searching = false;
            Worker watched = null;
            long watchedExecuted = 0;
            if (nobodySearching) {
                if (pool.hasVisibleWork()) {
                    idle.notifyWork();         // may wake this very worker
                } else if ((watched = pool.workerHoldingOneTask(this)) != null) {
                    watchedExecuted = watched.executed();
                }
            }
            if (pool.isShutdown()) {
                pool.tryTerminate();
            }
            PARKS.setOpaque(this, parks + 1);
            boolean timedOut = false;
            while (!notified) {
                if (pool.isStopping() || idle.isTerminated()) {
                    return false;
                }
                if (watched != null) {
                    // A busy worker holds one task it will pop next. Normally it does so at
                    // once; but if its current task blocks or runs long, that task would wait.
                    // Look again shortly: if it has not finished a task since, go and take it.
                    LockSupport.parkNanos(pool, STUCK_TASK_NANOS);
                    if (notified) {
                        break;
                    }
                    if (watched.executed() == watchedExecuted && !watched.deque.isEmpty()) {
                        if (idle.cancelPark(this)) {
                            return true;       // neither parked nor searching: go steal it
                        }
                        break;                 // woken meanwhile
                    }
                    watched = pool.workerHoldingOneTask(this);
                    watchedExecuted = watched == null ? 0 : watched.executed();
                    continue;
                }
                if (spare) {
                    LockSupport.parkNanos(pool, pool.keepAliveNanos);
                    if (!notified && pool.hasExcessWorkers() && idle.cancelPark(this)) {
                        timedOut = true;
                        break;
                    }
                } else {
                    LockSupport.park(pool);
                }
            }
            if (timedOut) {
                continue;                      // neither parked nor searching: retire or park again
            }
            if (pool.isStopping() || idle.isTerminated()) {
                return false;
            }
            searching = true;                  // the waker counted this worker as searching
            return true;
        }
    }

    /**
     * The deque is full: move its older half to the injector with one CAS on the deque and one
     * claim on the injector, then push. Nothing is dropped.
     */
    void overflow(Runnable task) {
        int half = Math.max(1, deque.size() / 2);
        Object[] buf = overflowBuffer;
        if (buf == null || buf.length < half) {
            buf = overflowBuffer = new Object[half];
        }
        int moved = deque.takeOldest(buf, half);
        pool.injector.offerAll(buf, moved);
        java.util.Arrays.fill(buf, 0, moved, null);
        OVERFLOWED.setOpaque(this, overflowed + moved);
        if (!deque.offer(task)) {
            pool.injector.offer(task);
        }
        pool.idle.notifyWork();
    }

    // ------------------------------------------------------------------ joining

    /**
     * Helps until {@code task} completes, parking briefly only when there is nothing it may run.
     *
     * <ol>
     *   <li>If the task is at the bottom of this deque, pop and run it (the fork/join fast
     *       path).</li>
     *   <li>If it has not started, wherever it is queued, run it here: its state CAS makes the
     *       queued entry a no-op later. An awaited task that nobody runs is run by its waiter.</li>
     *   <li>Otherwise it runs on another worker. Run only its <em>descendants</em>: from the
     *       bottom of this deque, or from the top of a peer's deque (typically the thief's,
     *       which holds the awaited task's subtasks).</li>
     *   <li>With nothing it may run, park briefly and look again; once the wait exceeds
     *       {@link #COMPENSATE_AFTER_NANOS}, count as blocked, so a spare worker runs the rest
     *       of the pool's work meanwhile (as in a {@link dev.spindle.Spindle#blocking} section).</li>
     * </ol>
     *
     * <p>Why only descendants: a frame stacked on top of a join must not wait, directly or not,
     * for a frame beneath it, or neither can finish. Tasks that join each other's results
     * (not only their own subtasks) can set up exactly that if a joiner runs an arbitrary task.
     * A descendant of the awaited task cannot depend on the joining frame: the awaited task does
     * not, and the joiner's frame completes only after the awaited task does.
     */
    void helpJoin(ForkTask<?> task) {
        if (deque.peekBottom() == task) {
            Runnable t = deque.pop();
            if (t != null) {
                runTask(t);                    // t == task: only thieves could have moved it
            }
        }
        if (task.isNew()) {
            runTask(task);
        }
        ForkTask.WaitNode node = null;
        long backoff = 1_000L;
        long waited = 0L;
        boolean compensating = false;
        try {
            while (!task.isDone()) {
                Runnable t = takeDescendant(task);
                if (t != null) {
                    runTask(t);
                    backoff = 1_000L;
                    continue;
                }
                if (pool.isStopping()) {
                    throw new java.util.concurrent.CancellationException(
                            "pool stopped before the awaited task completed");
                }
                if (!compensating && waited >= COMPENSATE_AFTER_NANOS) {
                    // Nothing this frame may run, and the wait is not short: count this worker
                    // as blocked so a spare (started, or woken) runs the other work meanwhile,
                    // on its own stack.
                    compensating = true;
                    beginBlocking();
                }
                if (node == null) {
                    node = task.addWaiter();
                }
                task.parkBriefly(backoff);
                waited += backoff;
                backoff = Math.min(backoff << 1, TimeUnit.MILLISECONDS.toNanos(1));
            }
        } finally {
            if (node != null) {
                node.thread = null;
            }
            if (compensating) {
                endBlocking();
            }
        }
    }

    /** Takes a queued descendant of {@code target} from this deque's bottom or a peer's top. */
    private Runnable takeDescendant(ForkTask<?> target) {
        for (Runnable b; (b = deque.peekBottom()) != null; ) {
            if (b instanceof ForkTask<?> f && !f.isNew()) {
                deque.pop();                   // a finished entry (run inline earlier): discard
                continue;
            }
            if (ForkTask.descendsFrom(b, target)) {
                return deque.pop();            // b, unless a thief took it (then null)
            }
            break;
        }
        Worker[] ws = pool.workers;
        int n = pool.slotsInUse();
        int start = ThreadLocalRandom.current().nextInt(n);
        for (int k = 0; k < n; k++) {
            Worker v = ws[(start + k) % n];
            if (v == null || v == this) {
                continue;
            }
            Runnable top = v.deque.peekTop();
            if (top == null || !(top instanceof ForkTask<?> f)) {
                continue;
            }
            if (!f.isNew() || ForkTask.descendsFrom(top, target)) {
                Runnable s = v.deque.stealOrNull();
                if (s == null) {
                    continue;
                }
                STEALS.setOpaque(this, steals + 1);
                if (s instanceof ForkTask<?> sf && !sf.isNew()) {
                    continue;                  // a finished entry: discard
                }
                if (ForkTask.descendsFrom(s, target)) {
                    return s;
                }
                // lost a race and took an unrelated task: keep it queued here, never drop it
                if (!deque.offer(s)) {
                    overflow(s);
                }
            }
        }
        return null;
    }

    // ------------------------------------------------------------------ blocking sections

    @Override
    public void beginBlocking() {
        if (blockingDepth++ == 0) {
            pool.beginBlocking();
            // This worker stops taking tasks for a while. If work is waiting, someone must look
            // for it: the spare just started does, but a spare already parked (which made
            // starting a new one unnecessary) has to be woken.
            if (!deque.isEmpty() || pool.hasVisibleWork()) {
                pool.idle.notifyWork();
            }
        }
    }

    @Override
    public void endBlocking() {
        if (--blockingDepth == 0) {
            pool.endBlocking();
        }
    }

    // ------------------------------------------------------------------ stats

    long executed() {
        return (long) EXECUTED.getOpaque(this);
    }

    long steals() {
        return (long) STEALS.getOpaque(this);
    }

    long parks() {
        return (long) PARKS.getOpaque(this);
    }

    long overflowed() {
        return (long) OVERFLOWED.getOpaque(this);
    }
}

/*
 * Padding: the fields the owner writes on every task live on cache lines of their own, so that
 * workers (whose objects are often allocated next to each other) do not slow each other down by
 * false sharing. Superclass fields are laid out first, so the hierarchy fixes the order.
 */
abstract class WorkerPadBefore {
    byte p000, p001, p002, p003, p004, p005, p006, p007, p010, p011, p012, p013, p014, p015, p016, p017;
    byte p020, p021, p022, p023, p024, p025, p026, p027, p030, p031, p032, p033, p034, p035, p036, p037;
    byte p040, p041, p042, p043, p044, p045, p046, p047, p050, p051, p052, p053, p054, p055, p056, p057;
    byte p060, p061, p062, p063, p064, p065, p066, p067, p070, p071, p072, p073, p074, p075, p076, p077;
    byte p100, p101, p102, p103, p104, p105, p106, p107, p110, p111, p112, p113, p114, p115, p116, p117;
    byte p120, p121, p122, p123, p124, p125, p126, p127, p130, p131, p132, p133, p134, p135, p136, p137;
    byte p140, p141, p142, p143, p144, p145, p146, p147, p150, p151, p152, p153, p154, p155, p156, p157;
    byte p160, p161, p162, p163, p164, p165, p166, p167, p170, p171, p172, p173, p174, p175, p176, p177;
}

/** The owner-only state of a {@link Worker}, written on every task. */
abstract class WorkerHotFields extends WorkerPadBefore {
    /** The fork task this worker is running in its innermost frame. */
    ForkTask<?> current;
    /** Reused by {@code Worker.overflow}. */
    Object[] overflowBuffer;
    boolean searching;
    /** Turns left until the next forced look at the injector (a countdown: no division). */
    int tick;
    int blockingDepth;
    long executed;
    long steals;
    long parks;
    long overflowed;
}

abstract class WorkerPadAfter extends WorkerHotFields {
    byte q000, q001, q002, q003, q004, q005, q006, q007, q010, q011, q012, q013, q014, q015, q016, q017;
    byte q020, q021, q022, q023, q024, q025, q026, q027, q030, q031, q032, q033, q034, q035, q036, q037;
    byte q040, q041, q042, q043, q044, q045, q046, q047, q050, q051, q052, q053, q054, q055, q056, q057;
    byte q060, q061, q062, q063, q064, q065, q066, q067, q070, q071, q072, q073, q074, q075, q076, q077;
    byte q100, q101, q102, q103, q104, q105, q106, q107, q110, q111, q112, q113, q114, q115, q116, q117;
    byte q120, q121, q122, q123, q124, q125, q126, q127, q130, q131, q132, q133, q134, q135, q136, q137;
    byte q140, q141, q142, q143, q144, q145, q146, q147, q150, q151, q152, q153, q154, q155, q156, q157;
    byte q160, q161, q162, q163, q164, q165, q166, q167, q170, q171, q172, q173, q174, q175, q176, q177;
}
