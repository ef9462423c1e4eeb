/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import dev.spindle.internal.jfr.JfrGate;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * The central scheduler: task and worker state, placement, transitions, retries, recovery and
 * the stealing rounds.
 *
 * <h2>Implementation overview</h2>
 *
 * <p>All state lives on one thread, the scheduler thread, which runs events from a queue: client
 * calls, worker messages and the periodic balance round. Nothing here is shared, so no locks are
 * needed and every transition sees a consistent picture.
 *
 * <p>A task goes WAITING until its dependencies are in memory, then it is placed on the live,
 * allowed worker with the earliest expected start: per-thread occupancy plus the time to bring it
 * the dependencies it lacks. The worker runs it and answers finished or erred. Each assignment
 * gets a fresh attempt number, and any reply naming another attempt, or coming from a worker no
 * longer responsible, is ignored; so a result is accepted once per assignment and a late reply
 * can never move a task backwards.
 *
 * <p>Failures: an erring task is placed again until it has failed {@code retries + 1} times, then
 * it errs with its own exception and so do its dependents. Each failure first tells its worker to
 * drop the key: between JVMs a worker may hold a result that was reported as a failure (it could
 * not travel, or the coordinator refused its class), a copy nothing else would release. A task
 * whose attempt ended because an input could not be fetched from another worker still alive, or
 * could not be read from its own worker's copy, is placed again the same number of times, counted
 * apart ({@link TaskState#fetchFailures}), then errs with an {@link IllegalStateException} naming
 * the input, the workers and the count: such a holder may never serve that worker (the two cannot
 * reach each other, or the value cannot travel from there), or never read its own copy back (a
 * spill disk that fails every read), and each report gives its copy up and has the input computed
 * again, on that very holder if only it may run it (or it is the only worker); unbounded, the
 * input ran for good and the task never ended.
 * A lost worker's assigned tasks go back to WAITING (a task that more of its workers were lost under than
 * {@code allowedWorkerLosses} errs instead, with a {@link WorkerLostException}: it may be what
 * ends them; retired workers do not count, nor one its assignment never reached, see
 * {@link #send}), results whose last copy it held become LOST, and
 * every waiting task recomputes the lost inputs it needs by walking the graph back to results
 * still held.
 *
 * <p>Freeing memory (Dask's reference counting): a result is needed while its client future is
 * held ({@code wanted}) or some dependent is WAITING or PROCESSING. When neither holds any more
 * it is RELEASED and every holder is told to drop it. The checks run where the answer can
 * change: a task reaching MEMORY (itself, and each of its dependencies, which may have lost
 * their last pending dependent), a task erring (its dependencies) and a client release. A
 * released result that a task needs again (a later submission by key, or a worker lost
 * mid-graph) is recomputed like a LOST one. Client futures are released by
 * {@link ClusterFuture#release()} or, once unreachable, by a {@link java.lang.ref.Cleaner}.
 * A released task still runs (a client may submit for a side effect and drop the future, which
 * the cleaner then releases). A task whose future the client cancelled
 * ({@link ClusterFuture#cancel}) before it was sent to any worker (WAITING for its inputs, or for
 * a worker to join), and that no pending task needs, is forgotten at once, as Dask forgets a
 * released one ({@link #mayCancel}): it goes RELEASED without running, leaves the wait, and its
 * inputs are checked in turn (released on their workers if nothing else needs them, or forgotten
 * if they were cancelled and have not started either); so is one that comes back from its worker
 * (lost, stolen, withdrawn, to be retried) once it is cancelled, or whose last pending dependent
 * goes. A cancelled task sent to a worker that no pending task needs is asked back from it
 * ({@link #takeBack}) by the steal protocol's request, as a stalled worker's task is withdrawn:
 * the worker gives it up only if it has not started it, and a task given up is forgotten as above
 * (a late report of its attempt names one no longer current and is ignored); one that started
 * runs to its end there, and its result is released then. The forgotten tasks are counted
 * ({@link ClusterStats#tasksCancelled}).
 *
 * <p>Copies reported missing ({@link Message.DataMissing}): a holder that finds its own copy gone
 * (a spilled value unreadable, as its task reads it or as it serves a fetch) says so, and that copy
 * is no longer counted (a task whose attempt ended so counts it against its retries, see
 * "Failures"). A task's worker that could not fetch an input from any holder names the last
 * it tried, and that holder's copy is no longer counted either (it may be unreachable, or hold a
 * copy it cannot serve; the task's retries bound how often, see "Failures"); but that report is
 * about the copy the task's assignment named, and the worker's and the holder's frames come in any
 * order: the holder may have lost that copy and stored a newer one since (the key computed again
 * there, or fetched there again), counted before
 * the report lands. Each holder's copy is counted with the last attempt number given when it was
 * counted ({@link TaskState#countedAt}); an assignment's holders are read as its number is given,
 * so a copy counted at or after that number is not one it named, and the report leaves it alone.
 * Safe under any reordering, and whatever list the failed fetch used (the worker fetches a key
 * once, and a task joins a fetch that an order taken before it started, whose list may be older,
 * or, frames reordered, newer): the copy left counted is one its holder reported (or computed)
 * after the assignment was made, and a holder reports every copy of its own that it loses itself,
 * in a report this never skips; so the count errs only for as long as that report travels, as it
 * may anyway. A report older than the count is then only a hint (the holder was slow to answer,
 * or not reached), and a newer one still uncounts the copy. A holder's report of its own copy
 * carries no such number (attempt 0 as it served a fetch, or its own task's, which may have
 * fetched that very copy after its assignment), so a copy stored there after the loss and counted
 * before the report lands is dropped with it (and fetched or computed again when needed).
 *
 * <p>Stealing: each round builds a {@link BalanceSnapshot} (tasks of a kind never measured and
 * without a hint count in occupancy but are not offered for stealing; no task is described at
 * all unless some worker is idle and another has tasks to give), asks the pure {@link Balancer} for
 * moves, and sends a steal request with a unique id per move. The task stays assigned to the
 * victim until the victim confirms it released the task before starting it; only then is it
 * assigned to the thief. A reply whose id is no longer pending is stale and ignored.
 *
 * <p>Membership (Dask's late join and {@code retire_workers}): a worker can join at any time, as
 * a new id or as a fresh incarnation of an id whose worker is gone, with a fresh record; the
 * balance round brings it work. Retiring a worker makes it inactive at once, so it is never
 * chosen for a task, a steal or a copy again; its queued tasks are moved by the steal protocol
 * (so a task that has started stays and finishes there, and none runs twice; a task no other
 * worker may run stays too, and a task that no active worker may run, its retry or a task of a
 * worker lost meanwhile, goes to a retiring one rather than failing); every value in memory that no active worker
 * holds is copied to the active worker holding the fewest bytes
 * ({@link Message.Replicate}, answered by {@link Message.DataAdded}). After every event the
 * scheduler checks each retiring worker: once it processes nothing and every value it holds has
 * an active holder, it is removed, so no result is lost. Copies are asked again if their target
 * dies or reports that it could not make the copy ({@link Message.ReplicaFailed}); a value whose
 * copy failed {@link #MAX_REPLICA_FAILURES} times is given up, the worker retires without it and
 * the value is computed again when needed, as if the worker had been lost; a retiring worker that
 * dies is handled as lost.
 *
 * <p>Waiting for a worker (Dask's {@code no-worker} state): a task ready to run that no live worker
 * may run (its strict restrictions name only workers that are gone, or none is alive at all) is
 * not failed at once but kept WAITING in {@link #awaitingWorker} for up to
 * {@link CoordinatorSettings#noWorkerTimeout()}; every {@link #join} places those tasks again,
 * oldest first, and the loop wakes at the earliest end of a wait to fail the tasks whose wait is
 * over, then checks retirements and stalls as after an event (the failures release inputs). The
 * set is cleaned lazily: a task that left the wait another way (it failed with an input, its
 * record was replaced or forgotten, an input was lost) is dropped when it is next looked at; one
 * whose input was lost waits afresh once the input is back, whether or not it was looked at
 * meanwhile ({@link TaskState#awaitingWorkerInputLost}). Placement ({@link #place}) is the only
 * way in, so every path that places a task (a first placement, a retry, a lost worker's task, a
 * stolen or withdrawn one) waits the same way.
 *
 * <p>Stalls on memory: a worker paused over its memory limit with only values that cannot spill
 * (or that its disk refused) and no task running says so ({@link Message.MemoryStall}), naming
 * the releases it had handled; it is stalled as of the last release sent to it, no task is placed
 * on it while a worker that is not stalled may run the task, and balance rounds leave it out.
 * After every event the tasks queued on stalled workers are taken back from them by the steal
 * protocol (a withdrawal), so that one a worker started after all, its disk having taken a
 * spill, stays there and finishes: a task that a worker not stalled may run moves there at once;
 * the others only once nothing but the client, a membership change or a disk could make progress
 * (no worker that is not stalled has a task, no steal or move is in flight, no task waiting on a
 * stalled worker for one that ended is about to resume, no task waiting for a worker to join needs
 * a value a stalled worker holds), since until then a task ending elsewhere (or failed at the end of
 * its wait for a worker) may release values on their workers. A withdrawn task that still has no worker but stalled
 * ones, with nothing making progress, fails without retries with an exception that names those
 * workers and their bytes (see {@link #stalls}); else it is placed again.
 *
 * <p>A send that throws (a {@link Transport} is not to, but the application's may): the transition
 * that sent goes on to its end as if the message went, and once the event is done the worker is
 * handled as lost and cut off, since a message it missed cannot be made up for (see {@link #send});
 * a flush that throws does the same to every worker sent a message since the last flush (see
 * {@link #flush}), but not to a fresh incarnation of its id that was sent nothing. A task whose
 * assignment never went out (its send threw, or it was placed there later in the event, when
 * nothing more is sent to the worker) is placed again without counting that loss against
 * {@code allowedWorkerLosses}: it cannot be what ended the worker.
 * An exception escaping an event otherwise is a bug; it is printed and the loop goes on with the
 * next event (each worker message is an event of its own).
 */
final class GraphScheduler implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(GraphScheduler.class.getName());

    /**
     * A steal in flight; {@code thief} is {@link #RETIRE} when it moves a task off a retiring
     * worker, {@link #CANCEL} when it asks a cancelled task back ({@link #takeBack}), and then its
     * id is negative, so that a late reply is known for one without its record.
     */
    private record PendingSteal(TaskState task, int victim, int thief, int level, long attempt) {
    }

    /**
     * A task being taken back from a stalled worker (see {@link #stalls}); {@code moving} when a
     * worker that is not stalled could take it as it was asked.
     */
    private record Withdrawal(TaskState task, boolean moving) {
    }

    /**
     * Copies of one value a retiring worker asks for before it gives the copy up and retires
     * without it ({@link Message.ReplicaFailed}): a value that cannot travel would otherwise
     * keep the worker retiring for good.
     */
    static final int MAX_REPLICA_FAILURES = 3;

    /** Worker ids are indexes below this bound, so that a joining id cannot make the scheduler grow without end. */
    static final int MAX_WORKERS = 4096;

    /** The thief of a move off a retiring worker: the task is placed anew once released. */
    private static final int RETIRE = -1;

    /**
     * The thief of a cancelled task asked back from its worker ({@link #takeBack}): once released
     * it is forgotten, or placed anew if a pending task came to need it meanwhile.
     */
    private static final int CANCEL = -2;

    /** The most workers stalled on memory that a task's exception names; the others are counted. */
    private static final int STALLED_NAMED = 8;

    private static final int STEAL_LOG_CAPACITY = 10_000;
    /** The most events handled between two {@link Transport#flush}es. */
    static final int FLUSH_EVERY = 64;
    /** Task runs kept for monitoring ({@link #taskEvents()}): enough for a timeline of the last moments. */
    static final int TASK_LOG_CAPACITY = 1_000;

    private final CoordinatorSettings config;
    private final BalanceParams params;
    private final Transport transport;
    private final List<WorkerState> workers = new ArrayList<>();
    /** The record of each key; changed through {@link #track} and {@link #untrack} only, which keep {@link #stateCounts}. */
    private final Map<String, TaskState> tasks = new HashMap<>();
    /** Of {@link #tasks}: the records in MEMORY and ERRED, for the stats. */
    private final StateCounts stateCounts = new StateCounts();
    private final Map<Long, PendingSteal> inFlight = new LinkedHashMap<>();
    /** Withdrawals from stalled workers in flight, by their (negative) steal ids; see {@link #stalls}. */
    private final Map<Long, Withdrawal> withdrawals = new HashMap<>();
    /** Of {@link #withdrawals}, those moving their task to a worker that is not stalled. */
    private int movingWithdrawals;
    /**
     * What {@link #stalls} decided on: the live workers not stalled and whether anything could make
     * progress, and whether a task was queued or left on a stalled worker since; it looks at the
     * queues of stalled workers again only when one of these changed.
     */
    private BitSet stallsFree = new BitSet();
    private boolean stallsProgress;
    private boolean stallsDirty;
    /**
     * Tasks ready to run that no live worker may run, waiting for one to join, in the order they
     * began to wait (see "Waiting for a worker" above); may hold tasks that left the wait since.
     */
    private final Set<TaskState> awaitingWorker = new java.util.LinkedHashSet<>();
    /**
     * No wait of {@link #awaitingWorker} ends before this ({@link System#nanoTime}); a wait may end
     * later (its task placed meanwhile), which costs one look at the set for nothing.
     */
    private long awaitingExpiry;
    /** Whether any worker ever reported a stall: until then {@link #stalls} has nothing to look at. */
    private boolean stallsSeen;
    /** The last reason logged for failing tasks that cannot start on memory, so that one episode logs once. */
    private String lastStallWarning;
    private final DurationEstimates durations;
    private final LinkedBlockingQueue<Runnable> events = new LinkedBlockingQueue<>();
    /** Workers a send to threw during the current event (see {@link #send}): lost once it is done. */
    private final BitSet unreachable = new BitSet();
    /**
     * Workers sent a message since the last {@link Transport#flush} that returned (see {@link #flush}),
     * as incarnations: an id that rejoins ({@link #join}) was sent nothing as its new incarnation.
     */
    private final BitSet unflushed = new BitSet();
    private final ExecutorService notifier;
    private final RecentLog<StealEvent> stealLog = new RecentLog<>(STEAL_LOG_CAPACITY);
    private final RecentLog<TaskEvent> taskLog = new RecentLog<>(TASK_LOG_CAPACITY);
    private long taskEvents;
    private final Thread thread;
    private volatile boolean closed;
    /** Set by the first {@link #close()}; the others wait for {@link #closeDone}. */
    private final AtomicBoolean closing = new AtomicBoolean();
    private final CompletableFuture<Void> closeDone = new CompletableFuture<>();
    /** The notifier's thread, which completes the client's futures (and runs their callbacks). */
    private final NotifierThread notifierThread = new NotifierThread();
    /** The number of worker ids known (gone ones included), for the client's argument checks. */
    private volatile int workerCount;
    /** When the next periodic round is due; brought forward when a task kind is first measured. */
    private long nextBalance;
    private long attemptSeq;
    /** The last record number given ({@link TaskState#record}); 0 names none. */
    private long recordSeq;
    private long orderSeq;
    private long stealSeq;
    private long stealsRequested;
    private long stealsConfirmed;
    private long stealsRejected;
    private long stealsStale;
    private long tasksReleased;
    /** Tasks forgotten without a result because the client cancelled them ({@link #mayCancel}). */
    private long tasksCancelled;
    /** Results accepted from worker records since replaced by a rejoin under the same id. */
    private long executedByReplaced;
    /** The bytes the workers reported moving between them ({@link Message.DataAdded#bytes()}). */
    private long bytesReported;
    /** For tests ({@link #checkCountsForTests}): check the running counts after every event; false in production. */
    private boolean checkCountsEachEvent;
    /** The first mismatch that check found; read by {@link #checkCountsForTests}. */
    private AssertionError countsFailure;

    GraphScheduler(CoordinatorSettings config, Transport transport) {
        this.config = config;
        this.params = config.balanceParams();
        this.transport = transport;
        this.durations = new DurationEstimates(config.defaultDurationNanos() / 1e9, this::processedSomewhere);
        for (int i = 0; i < config.workers(); i++) {
            workers.add(new WorkerState(i, config.threadsPerWorker()));
        }
        this.workerCount = workers.size();
        this.notifier = Executors.newSingleThreadExecutor(r -> notifierThread.thread = daemon(r, "cluster-notifier"));
        this.thread = daemon(this::loop, "cluster-scheduler");
        thread.start();
    }

    /**
     * A thread of the scheduler (its loop, the notifier). Neither inherits the building thread's
     * {@link InheritableThreadLocal} values, as spindle-core's workers do not: the notifier runs
     * every client's future callbacks, which saw the builder's (a request's context, where the
     * cluster was built in one). The context class loader and priority stay the builder's: the
     * loop is made by it, and the notifier by the loop.
     */
    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(null, r, name, 0, false);
        t.setDaemon(true);
        return t;
    }

    // ---- the event loop ------------------------------------------------------------------

    private void loop() {
        int sinceFlush = 0;
        boolean periodic = config.stealing() && config.balanceIntervalNanos() > 0;
        nextBalance = System.nanoTime() + config.balanceIntervalNanos();
        while (!closed) {
            try {
                boolean awaiting = !awaitingWorker.isEmpty();
                Runnable event;
                if (periodic || awaiting) {
                    long now = System.nanoTime();
                    long wake = periodic ? nextBalance - now : Long.MAX_VALUE;
                    if (awaiting) {
                        wake = Math.min(wake, awaitingExpiry - now);
                    }
                    event = events.poll(Math.max(0, wake), TimeUnit.NANOSECONDS);
                } else {
                    event = events.take();
                }
                if (event != null) {
                    event.run();
                }
                if (periodic && System.nanoTime() - nextBalance >= 0) {
                    balanceRound();
                    nextBalance = System.nanoTime() + config.balanceIntervalNanos();
                }
                if (!awaitingWorker.isEmpty() && System.nanoTime() - awaitingExpiry >= 0) {
                    expireAwaiting();
                    // as after an event: the tasks failed released their inputs, which may be all
                    // that a retirement or a stalled worker waited for, and no event may come
                    retirements();
                    stalls();
                }
                cutOffUnreachable();
                if (checkCountsEachEvent && countsFailure == null) {
                    try {
                        checkCounts();        // tests only (checkCountsForTests): off in production
                    } catch (AssertionError e) {
                        countsFailure = e;
                    }
                }
            } catch (InterruptedException e) {
                if (closed) {
                    return;
                }
            } catch (RuntimeException | Error e) {
                // a bug in a transition must not stop the scheduler; make it visible
                e.printStackTrace();
                try {
                    cutOffUnreachable();      // a worker a send to failed before the throw is lost all the same
                } catch (RuntimeException | Error again) {
                    again.printStackTrace();
                }
            }
            // the messages of a burst of events leave together, when the events run dry, and at
            // least every FLUSH_EVERY events under a steady stream
            if (events.isEmpty() || ++sinceFlush >= FLUSH_EVERY) {
                sinceFlush = 0;
                flush();
            }
        }
    }

    /**
     * Sends {@code message} to worker {@code worker}. A {@link Transport} is not to throw here, but
     * one may (an implementation of the application's, a link that broke): escaping, the exception
     * stopped the transition half way, with a task assigned to a worker never told, or neither
     * failed nor placed again, and its caller waiting for good. So a send that throws leaves the
     * transition to end as if the message went, and marks the worker {@link #unreachable}: a lost
     * message cannot be made up for (a lost release holds back every later task there, see
     * {@link Message.Compute#releases}), so once the current event is done the worker is handled as
     * lost ({@link #cutOffUnreachable}) and nothing more is sent to it meanwhile. An {@link Error}
     * too, as in {@link #flush}: a batching transport may send a full batch as the message is
     * queued, and one that ran out of memory sealing it has lost the batch all the same.
     */
    private void send(int worker, Message.ToWorker message) {
        if (unreachable.get(worker)) {
            return;                           // lost after this event: its tasks are placed again then
        }
        try {
            transport.toWorker(worker, message);
            unflushed.set(worker);
        } catch (RuntimeException | Error e) {
            unreachable.set(worker);
            LOG.log(System.Logger.Level.WARNING,
                    "the transport threw sending " + message.getClass().getSimpleName() + " to worker " + worker
                            + "; the worker is handled as lost", e);
        }
    }

    /**
     * Flushes the transport ({@link Transport#flush}). A flush that throws (a transport is not to,
     * but the application's may) may have dropped any message held since the last flush that
     * returned, and which ones is not known: when it was only printed, a task whose assignment it
     * dropped never ran nor reported, and its caller waited for good, as after a send that threw.
     * So each worker sent a message since is handled as lost and cut off, as after a send that
     * throws ({@link #send}, {@link #cutOffUnreachable}), but not a fresh incarnation of its id that
     * joined since and was sent nothing: what it missed went to its predecessor, whose loss was
     * handled already (recorded by id alone, the new process was taken for lost and cut off). That
     * loss places their tasks elsewhere, which sends more, and those are flushed in turn. It ends: a
     * worker is cut off once, and once none was sent to, a flush that throws again is only logged.
     */
    private void flush() {
        while (!closed) {
            try {
                transport.flush();
                unflushed.clear();
                return;
            } catch (RuntimeException | Error e) {
                LOG.log(System.Logger.Level.WARNING,
                        "the transport threw flushing" + (unflushed.isEmpty() ? "" : "; workers " + unflushed
                                + ", sent messages since the last flush, are handled as lost"), e);
                if (unflushed.isEmpty()) {
                    return;
                }
                unreachable.or(unflushed);
                unflushed.clear();
                try {
                    cutOffUnreachable();
                } catch (RuntimeException | Error again) {
                    again.printStackTrace();  // a bug, as in the loop
                    return;
                }
            }
        }
    }

    /**
     * Handles each worker a send to threw ({@link #send}) as lost, as a {@link Message.WorkerLost}
     * would: its tasks are placed again or fail (they count it among their lost workers), its
     * values are computed again where needed; and asks the transport to cut it off, so that its
     * process does not go on with a stream it missed messages of (the transport's own report of
     * the loss then finds it gone). Run after every event, on the scheduler thread. A cut-off that
     * throws is logged, an {@link Error} too, as in {@link #send}: escaping, it ended this loop with
     * the loss half handled (the retirements and stalls it may have changed not looked at, another
     * unreachable worker left to whoever called next) and, from {@link #flush}, the flush loop with
     * it, so the tasks just placed again stayed in the transport unflushed until some other event.
     */
    private void cutOffUnreachable() {
        while (!unreachable.isEmpty() && !closed) {
            int id = unreachable.nextSetBit(0);
            unreachable.clear(id);
            boolean alive = workers.get(id).alive;
            onWorkerLost(id);                 // places its tasks elsewhere: a send there may mark another
            if (alive) {
                try {
                    transport.workerLost(id);
                } catch (RuntimeException | Error e) {
                    LOG.log(System.Logger.Level.WARNING, "the transport threw cutting off worker " + id, e);
                }
            }
            if (unreachable.isEmpty() && !closed) {
                retirements();                // as after any loss (see handle); they may send, and mark another
                stalls();
            }
        }
        unreachable.clear();                  // closed meanwhile: nothing is left to hand over
    }

    /**
     * Runs {@code action} on the scheduler thread and waits for its result or exception. The wait
     * is not interruptible: once posted the event runs anyway (a submission takes its keys, and its
     * results would be kept with no future to release them), so the caller gets its outcome, with
     * its interrupt status kept. It is short, and ends with {@link RejectedExecutionException} if
     * the scheduler closes first. On the scheduler thread itself (a {@link Transport} callback such
     * as {@code toWorker} or {@code retired}) it throws {@link IllegalStateException}: the event
     * would run only after the current one returned, so the wait would never end and the scheduler
     * would stop for good.
     */
    <T> T call(Supplier<T> action) {
        if (Thread.currentThread() == thread) {
            throw new IllegalStateException("cannot call the cluster from its scheduler thread (a transport "
                    + "callback): the call would wait for the thread it blocks; hand it to another thread");
        }
        CompletableFuture<T> result = new CompletableFuture<>();
        post(() -> {
            try {
                result.complete(action.get());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return result.get(50, TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    if (closed && !result.isDone()) {
                        // queued behind close: its event was dropped
                        throw new RejectedExecutionException("the cluster is closed");
                    }
                } catch (InterruptedException e) {
                    interrupted = true;       // kept for the caller; the event's outcome is still to come
                }
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(e.getCause());
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void post(Runnable event) {
        rejectIfClosed();
        events.add(event);
    }

    /** Throws {@link RejectedExecutionException} once the scheduler is closed: for checks made before a call. */
    void rejectIfClosed() {
        if (closed) {
            throw new RejectedExecutionException("the cluster is closed");
        }
    }

    /** The events queued and not yet taken by the scheduler thread; for tests that hold a burst together. */
    int queuedEvents() {
        return events.size();
    }

    /**
     * Entry point for the transport: worker messages are queued for the scheduler thread; once the
     * scheduler is closed they are dropped (nothing is left to act on them).
     */
    void receive(Message.ToScheduler m) {
        if (closed) {
            return;
        }
        events.add(() -> handle(m));
    }

    private void handle(Message.ToScheduler m) {
        if (m instanceof Message.TaskFinished f) {
            onFinished(f);
        } else if (m instanceof Message.TaskRunning r) {
            onRunning(r);
        } else if (m instanceof Message.TaskErred e) {
            onErred(e);
        } else if (m instanceof Message.StealResponse r) {
            onStealResponse(r);
        } else if (m instanceof Message.DataMissing d) {
            onDataMissing(d);
        } else if (m instanceof Message.DataAdded a) {
            onDataAdded(a);
        } else if (m instanceof Message.ReplicaFailed f) {
            onReplicaFailed(f);
        } else if (m instanceof Message.MemoryReport r) {
            WorkerState w = r.worker() >= 0 && r.worker() < workers.size() ? workers.get(r.worker()) : null;
            if (w != null && w.alive) {
                w.memory = r;
            }
        } else if (m instanceof Message.MemoryStall s) {
            WorkerState w = s.worker() >= 0 && s.worker() < workers.size() ? workers.get(s.worker()) : null;
            // an older report than the one taken, delivered late, would stand for good (see report())
            if (w != null && w.alive && (w.stall == null || s.report() >= w.stall.report())) {
                w.stall = s;
                if (s.stalled() && !stallsSeen) {
                    stallsSeen = true;
                    stallsDirty = true;       // what stalls() last saw is not known: it looks
                }
            }
        } else if (m instanceof Message.WorkerLost l) {
            onWorkerLost(l.worker());
        }
        retirements();
        stalls();                             // last: a retirement may place tasks on stalled workers
    }

    /**
     * Whether this scheduler sends through {@code t}: a worker reporting through the same object is
     * one of this cluster's (see ClusterWorker#isOf); any thread.
     */
    boolean sendsThrough(Transport t) {
        return transport == t;
    }

    // ---- client calls (run on the scheduler thread via call) -----------------------------

    /**
     * Adds tasks given in dependency order (each spec's dependencies are earlier in the list or
     * already known). Validates everything before changing anything.
     */
    List<CompletableFuture<Object>> submit(List<TaskSpec<?>> specs) {
        Message.Compute submitter = ClusterWorker.runningTask(this);   // read on the caller's thread; ours only
        return call(() -> {
            long submitterLine = submitter == null ? 0 : lineOf(submitter);
            Map<String, TaskSpec<?>> batch = new HashMap<>();
            for (TaskSpec<?> s : specs) {
                TaskState earlier = tasks.get(s.key());
                if ((earlier != null && !resubmittable(earlier, submitter)) || batch.putIfAbsent(s.key(), s) != null) {
                    throw new IllegalArgumentException("a task with key '" + s.key() + "' was already submitted");
                }
                for (ClusterFuture<?> f : s.dependencyFutures()) {
                    f.requireOwner(this, "as a dependency of task '" + s.key() + "'");
                    f.requireHeld("as a dependency of task '" + s.key() + "'");
                }
                for (String dep : s.dependencies()) {
                    if (!tasks.containsKey(dep) && !batch.containsKey(dep)) {
                        throw new IllegalArgumentException("task '" + s.key() + "' depends on unknown key '"
                                + dep + "' (submit or scatter it first)");
                    }
                }
                if (earlier != null && reaches(s.dependencies(), s.key(), batch)) {
                    // the resubmission takes over the earlier record's dependents (supersede): one
                    // of them among its own inputs closed a cycle, which, once lost, nothing recomputed
                    throw new IllegalArgumentException("task '" + s.key() + "' would form a dependency cycle:"
                            + " one of its dependencies depends on its earlier submission");
                }
                for (int w : s.restrictions().workers()) {
                    if (w >= workers.size()) {
                        throw new IllegalArgumentException("task '" + s.key() + "' is restricted to worker " + w
                                + ", but the cluster has workers 0.." + (workers.size() - 1));
                    }
                }
            }
            List<CompletableFuture<Object>> futures = new ArrayList<>();
            List<TaskState> freed = new ArrayList<>();
            for (TaskSpec<?> s : specs) {
                // waits for it in a callback of a client's future throw: see NotifierFuture
                long record = ++recordSeq;
                TaskState t = new TaskState(s.withoutFutures(), new NotifierFuture<>(notifierThread, record));
                t.record = record;
                t.line = record;
                t.lineSince = attemptSeq;
                if (submitter != null) {
                    t.submitterKey = submitter.key();
                    t.submitterAttempt = submitter.attempt();
                    t.submitterLine = submitterLine;
                }
                TaskState earlier = tasks.get(s.key());
                if (earlier != null) {
                    freed.addAll(supersede(earlier, t));
                }
                for (String dep : s.dependencies()) {
                    t.addDependency(tasks.get(dep));
                }
                track(t);
                futures.add(t.future);
            }
            Set<TaskState> visited = new HashSet<>();
            for (TaskSpec<?> s : specs) {
                ensure(tasks.get(s.key()), visited);
            }
            for (TaskState d : freed) {
                if (!mayCancel(d)) {
                    mayRelease(d);            // a replaced record's inputs: it may have been their last need
                }
                if (d.state == TaskState.State.ERRED) {
                    mayForget(d);
                }
            }
            stalls();                         // placed on stalled workers: taken back, and told if none can run them
            return futures;
        });
    }

    /**
     * The {@link TaskState#line} of the record whose attempt {@code submitter} is, or 0 if it is no
     * record's here now. Attempt numbers only grow, and the records of one key follow each other
     * (a key is free again only once its record is forgotten, and then it is given no attempt any
     * more), so the attempts numbered above the count when the current record's line began are
     * that line's: an attempt of a forgotten record of the key, still running, is numbered at or
     * below it.
     */
    private long lineOf(Message.Compute submitter) {
        TaskState parent = tasks.get(submitter.key());
        return parent != null && submitter.attempt() > parent.lineSince ? parent.line : 0;
    }

    /**
     * Whether a dependency path from {@code from} reaches key {@code key}: through the specs of
     * the batch being submitted (which come first, as they replace records of their keys), then
     * through the recorded tasks.
     */
    private boolean reaches(List<String> from, String key, Map<String, TaskSpec<?>> batch) {
        Deque<String> todo = new ArrayDeque<>(from);
        Set<String> seen = new HashSet<>();
        while (!todo.isEmpty()) {
            String k = todo.pop();
            if (k.equals(key)) {
                return true;
            }
            if (!seen.add(k)) {
                continue;
            }
            TaskSpec<?> spec = batch.get(k);
            if (spec != null) {
                todo.addAll(spec.dependencies());
            } else if (tasks.containsKey(k)) {
                for (TaskState d : tasks.get(k).dependencies) {
                    todo.add(d.key());
                }
            }
        }
        return false;
    }

    /**
     * Whether the task of {@code submitter}, a later attempt of the task that submitted
     * {@code earlier} from inside its function, may submit that key again: the attempt that took
     * the key failed (or was lost with its worker) and the task is being retried, and a retry runs
     * the same function, which submits the same keys. Not while a task still pending depends on the
     * earlier record, which it would lose. A later attempt of the same task, not of another task
     * under the same key: with {@code forgetReleased}, a task's key is free again once it is
     * forgotten, and a new task submitted under it is another task, whose function's submissions
     * are new keys to it; taken for a retry's, they replaced a nested record whose future the
     * client still held, and a task given that future as a dependency read the new task's value
     * instead of the value its future had (so the {@link TaskState#line}s must be one).
     */
    private boolean resubmittable(TaskState earlier, Message.Compute submitter) {
        if (submitter == null || earlier.submitterKey == null || !earlier.submitterKey.equals(submitter.key())
                || earlier.submitterAttempt == submitter.attempt()) {
            return false;
        }
        TaskState parent = tasks.get(submitter.key());
        if (parent == null || parent.state != TaskState.State.PROCESSING || parent.attempt != submitter.attempt()) {
            return false;                     // not the current attempt of a task of this cluster
        }
        if (earlier.submitterLine != parent.line) {
            return false;                     // submitted by another task that had this key (forgotten since)
        }
        for (TaskState d : earlier.dependents) {
            if (d.state == TaskState.State.WAITING || d.state == TaskState.State.PROCESSING) {
                return false;
            }
        }
        return true;
    }

    /**
     * Replaces {@code earlier}, a record an earlier attempt of a retried task submitted (see
     * {@link #resubmittable}), with {@code next}, its resubmission: the earlier run is abandoned
     * (a late reply names an attempt no longer current and is ignored), its copies are released,
     * its dependents (all finished) now refer to {@code next}, and a future of the earlier
     * submission still pending completes as {@code next} does. A held earlier future is released
     * by key later; that release is not {@code next}'s ({@link TaskState#supersededFutures}).
     *
     * @return the earlier record's dependencies, which the caller checks for release once the
     *     submission is linked (it may need them again)
     */
    private List<TaskState> supersede(TaskState earlier, TaskState next) {
        next.line = earlier.line;             // the same task, submitted again: its later attempts may resubmit too
        next.lineSince = earlier.lineSince;
        // its worker abandons the run (ClusterWorker.release): else its value, stored when it
        // ends, would stand there for the new record's, and a dependent placed there read it
        abandonRun(earlier);
        dropCopies(earlier);
        if (earlier.state == TaskState.State.MEMORY || earlier.state == TaskState.State.LOST) {
            tasksReleased++;
        }
        earlier.setState(TaskState.State.RELEASED);
        for (TaskState d : earlier.dependents) {
            int[] links = {0};
            d.dependencies.replaceAll(x -> {
                if (x != earlier) {
                    return x;
                }
                links[0]++;
                return next;
            });
            // d counted earlier, released above, among its dependencies not in memory; next, new and
            // waiting, takes its place there
            next.dependents.add(d);
            if (TaskState.pending(d.state)) {
                next.pendingDependents += links[0];   // none today: resubmittable allows no pending dependent
            }
        }
        earlier.dependents.clear();
        for (TaskState d : earlier.dependencies) {
            d.dependents.remove(earlier);
        }
        List<TaskState> inputs = new ArrayList<>(earlier.dependencies);
        earlier.dependencies.clear();
        CompletableFuture<Object> pending = earlier.future;
        if (pending != null) {
            earlier.future = null;
            next.future.whenComplete((v, e) -> {
                if (e != null) {
                    pending.completeExceptionally(e);
                } else {
                    pending.complete(v);
                }
            });
        }
        next.supersededFutures = earlier.supersededFutures + (earlier.ownFutureHeld ? 1 : 0);
        track(next);
        return inputs;
    }

    /**
     * Whether the calling thread is the notifier: it alone completes the client's futures, so a
     * wait there for one not yet done would never end (see {@link ClusterFuture#get()}).
     */
    boolean onNotifierThread() {
        return notifierThread.isCurrent();
    }

    /**
     * Whether the caller is a thread a close waits for: the notifier's (futures' callbacks) or the
     * scheduler's own (transport callbacks). A racing close there must not wait for the first.
     */
    boolean onThreadCloseWaitsFor() {
        Thread t = Thread.currentThread();
        return notifierThread.isCurrent() || t == thread;
    }

    /** For tests: runs {@code view} on the scheduler thread over the worker records and the estimates. */
    <T> T inspect(java.util.function.BiFunction<List<WorkerState>, DurationEstimates, T> view) {
        return call(() -> view.apply(List.copyOf(workers), durations));
    }

    /**
     * For tests: runs {@code view} on the scheduler thread over the task records, by key, and the
     * worker records; neither may be changed.
     */
    <T> T inspectTasks(java.util.function.BiFunction<Map<String, TaskState>, List<WorkerState>, T> view) {
        return call(() -> view.apply(Collections.unmodifiableMap(tasks), List.copyOf(workers)));
    }

    /**
     * Makes {@code t} the record of its key, counted in {@link #stateCounts} in place of the
     * record it replaces (see {@link #supersede}); a record already there stays counted once.
     */
    private void track(TaskState t) {
        TaskState replaced = tasks.put(t.key(), t);
        if (replaced == t) {
            return;
        }
        if (replaced != null) {
            uncount(replaced);
        }
        t.counted = stateCounts;
        stateCounts.count(t.state, 1);
    }

    /** Forgets {@code t}, the record of its key, and takes it out of {@link #stateCounts}. */
    private void untrack(TaskState t) {
        if (tasks.remove(t.key(), t)) {
            uncount(t);
        }
    }

    private void uncount(TaskState t) {
        stateCounts.count(t.state, -1);
        t.counted = null;
    }

    /** Runs one balance round now and returns its moves. */
    List<Move> balanceNow() {
        return call(this::balanceRound);
    }

    /** The counters, each worker's read from its own store (in process). */
    ClusterStats stats(List<ClusterWorker> actual) {
        return stats(transport::bytesTransferred, w -> {
            ClusterWorker a = actual.get(w.id);
            return new ClusterStats.WorkerStats(w.id, w.alive, w.threads, a.executed(), w.processing.size(),
                    a.store().memoryBytes(), a.store().keys(), a.store().spilledBytes(), a.store().paused());
        });
    }

    /**
     * The counters as the scheduler knows them, for workers in other JVMs: tasks executed are the
     * replies it accepted; memory, spilled bytes and pause as a worker with a memory limit last
     * reported them ({@link Message.MemoryReport}), else memory as the measured sizes of the values
     * it knows the worker holds (nothing spilled); bytes moved what the workers reported moving
     * between them (the transport on this side sees no fetch). A worker that has ended (lost or
     * retired) holds nothing: its last report described a store that is gone (the scheduler has
     * dropped every value it held), and kept, it stayed in the cluster's memory for good, as an
     * in-process worker's cleared store does not.
     */
    ClusterStats stats() {
        return stats(() -> bytesReported, w -> {
            if (w.memory != null && w.alive) {
                return new ClusterStats.WorkerStats(w.id, w.alive, w.threads, w.executed, w.processing.size(),
                        w.memory.memoryBytes(), w.holds.size(), w.memory.spilledBytes(), w.memory.paused());
            }
            long bytes = 0;
            for (String key : w.holds) {
                bytes = Sizes.plus(bytes, tasks.get(key).bytes);
            }
            return new ClusterStats.WorkerStats(w.id, w.alive, w.threads, w.executed, w.processing.size(), bytes,
                    w.holds.size(), 0, false);
        });
    }

    private ClusterStats stats(java.util.function.LongSupplier bytesMoved,
                               java.util.function.Function<WorkerState, ClusterStats.WorkerStats> view) {
        return call(() -> {
            List<ClusterStats.WorkerStats> ws = new ArrayList<>();
            long executed = executedByReplaced;
            for (WorkerState w : workers) {
                ws.add(view.apply(w));
                executed += w.executed;
            }
            int inMemory = stateCounts.inMemory;   // kept as records change: see StateCounts
            int erred = stateCounts.erred;
            int awaiting = 0;
            for (TaskState t : awaitingWorker) {
                if (awaits(t)) {              // a read: it leaves the set, and every wait, as it is
                    awaiting++;
                }
            }
            return new ClusterStats(List.copyOf(ws), stealsRequested, stealsConfirmed, stealsRejected, stealsStale,
                    bytesMoved.getAsLong(), inMemory, erred, tasksReleased, executed, awaiting, tasksCancelled);
        });
    }

    List<StealEvent> stealEvents() {
        return call(stealLog::copy);
    }

    List<TaskEvent> taskEvents() {
        return call(taskLog::copy);
    }

    // ---- transitions ---------------------------------------------------------------------

    /**
     * Makes sure {@code root} will be computed: a waiting or lost task has its missing inputs
     * ensured in turn and is placed once they are all in memory. The order of the walk does not
     * matter, because placing never makes anything in memory at once; it is iterative so that
     * recomputing a long chain cannot overflow the stack.
     */
    private void ensure(TaskState root, Set<TaskState> visited) {
        ArrayDeque<TaskState> work = new ArrayDeque<>();
        work.push(root);
        while (!work.isEmpty()) {
            TaskState t = work.pop();
            if (recomputable(t) && !t.wanted && t.pendingDependents == 0) {
                // pushed for a dependent that failed since, in this walk (another input of it could
                // not be placed): nobody needs it any more. Recomputed, it was wasted work, and a
                // record that failure released and forgot (forgetReleased) stayed processing on its
                // worker for good, its result ignored, so that the worker could never retire. Not
                // marked visited: a task later in the walk may need it, and then it is recomputed
                continue;
            }
            if (!visited.add(t) || !(t.state == TaskState.State.WAITING || recomputable(t)) || mayCancel(t)) {
                continue;                     // (a cancelled task back from a lost worker is forgotten, not recomputed for)
            }
            t.setState(TaskState.State.WAITING);
            for (TaskState d : t.dependencies) {
                if (d.state == TaskState.State.ERRED) {
                    err(t, d.error);
                    break;
                }
                if (d.state == TaskState.State.WAITING || recomputable(d)) {
                    work.push(d);
                }
            }
            if (t.state == TaskState.State.WAITING && t.dependenciesInMemory()) {
                place(t);
            }
        }
    }

    /** A result computed before whose every copy is gone: lost with a worker, or released. */
    private static boolean recomputable(TaskState t) {
        return t.state == TaskState.State.LOST || t.state == TaskState.State.RELEASED;
    }

    private void place(TaskState t) {
        place(t, false);
    }

    /**
     * Places {@code t} on an allowed worker that is not stalled on memory, active before retiring;
     * else on a stalled one, where it waits for a release, or, with {@code mayFailOnMemory} (a task
     * just taken back from a stalled worker, see {@link #stalls}) and nothing making progress, fails.
     * Elsewhere the decision to fail is left to {@link #stalls}, after the event: the tasks placed
     * with this one may make progress.
     */
    private void place(TaskState t, boolean mayFailOnMemory) {
        if (mayCancel(t)) {
            return;                           // cancelled meanwhile (back from a worker, say): it runs nowhere
        }
        WorkerState w = choose(t);
        if (w == null) {
            w = retiringFallback(t);
        }
        if (w == null) {
            w = stalledFallback(t);
            if (w != null && mayFailOnMemory && !progressPossible()) {
                failOnMemory(t);
                return;
            }
        }
        if (w == null) {
            awaitWorker(t);
            return;
        }
        assign(t, w);
    }

    /**
     * {@code t}, ready to run, found no live worker it may run on: it waits for one to join (see
     * "Waiting for a worker" in the overview), from the first time it found none, or fails once
     * that wait is over ({@link CoordinatorSettings#noWorkerTimeout()}; at once for zero).
     */
    private void awaitWorker(TaskState t) {
        long timeout = config.noWorkerTimeoutNanos();
        long now = System.nanoTime();
        if (!t.awaitingWorker || t.awaitingWorkerInputLost) {
            // a first wait, or one an input's loss interrupted (see stillAwaiting): not a wait
            // that went on only because nothing looked at the set while the input was computed again
            t.awaitingWorkerSince = now;
            t.awaitingWorkerInputLost = false;
        }
        if (timeout == 0 || now - t.awaitingWorkerSince >= timeout) {
            stopAwaiting(t);
            err(t, new IllegalStateException("no allowed worker is alive for task '" + t.key()
                    + "' (restrictions " + t.spec.restrictions() + ")"
                    + (timeout == 0 ? "" : "; none joined within " + config.noWorkerTimeout() + " (noWorkerTimeout)")));
            return;
        }
        long expiry = t.awaitingWorkerSince + timeout;
        if (awaitingWorker.isEmpty() || expiry - awaitingExpiry < 0) {
            awaitingExpiry = expiry;
        }
        t.awaitingWorker = true;
        awaitingWorker.add(t);
    }

    /** {@code t} no longer waits for a worker: it was placed, it failed, or its wait is over. */
    private void stopAwaiting(TaskState t) {
        if (t.awaitingWorker) {
            t.awaitingWorker = false;
            t.awaitingWorkerInputLost = false;
            awaitingWorker.remove(t);
        }
    }

    /**
     * Whether {@code t}, recorded in {@link #awaitingWorker}, still waits there: the current record
     * of its key, WAITING, on no worker, its inputs in memory. One that left the wait another way
     * is dropped from the set (an input lost meanwhile: it waits for that input first, and for a
     * worker afresh once the input is back).
     */
    private boolean stillAwaiting(TaskState t) {
        if (awaits(t)) {
            return true;
        }
        stopAwaiting(t);
        return false;
    }

    /** As {@link #stillAwaiting}, leaving the set as it is. */
    private boolean awaits(TaskState t) {
        return t.awaitingWorker && t.state == TaskState.State.WAITING && t.processingOn == null
                && tasks.get(t.key()) == t && t.dependenciesInMemory();
    }

    /** A worker joined: the tasks waiting for one are placed again, oldest first. */
    private void placeAwaiting() {
        for (TaskState t : new ArrayList<>(awaitingWorker)) {
            if (stillAwaiting(t)) {           // placing one may have failed or placed another
                place(t);
            }
        }
    }

    /** The loop's timer: the tasks whose wait for a worker is over fail, and the next end is noted. */
    private void expireAwaiting() {
        long timeout = config.noWorkerTimeoutNanos();
        long now = System.nanoTime();
        boolean first = true;
        for (TaskState t : new ArrayList<>(awaitingWorker)) {
            if (!stillAwaiting(t)) {          // failing one may have failed another with it
                continue;
            }
            long expiry = t.awaitingWorkerSince + timeout;
            if (now - expiry >= 0) {
                awaitWorker(t);               // its wait is over: fails it
            } else if (first || expiry - awaitingExpiry < 0) {
                awaitingExpiry = expiry;
                first = false;
            }
        }
    }

    /**
     * For a task no active worker may run: an allowed worker that is retiring but alive and not
     * stalled on memory, the least loaded, or null. Running the task there (its retirement waits
     * for it, as for a task that started before the retirement) beats failing it for want of a
     * worker: a retry of a task only that worker may run, a task whose other worker was lost meanwhile.
     */
    private WorkerState retiringFallback(TaskState t) {
        WorkerState best = null;
        for (WorkerState w : workers) {
            if (w.alive && w.retiring && !w.stalled() && t.spec.restrictions().allows(w.id)
                    && (best == null || occupancy(w) / w.threads < occupancy(best) / best.threads)) {
                best = w;
            }
        }
        return best;
    }

    /**
     * For a task that only workers stalled on memory may run: the allowed live one to wait on,
     * active before retiring, the least loaded; null if no allowed worker is alive.
     */
    private WorkerState stalledFallback(TaskState t) {
        WorkerState best = null;
        for (WorkerState w : workers) {
            if (w.alive && t.spec.restrictions().allows(w.id) && (best == null
                    || (w.active() && !best.active())
                    || (w.active() == best.active() && occupancy(w) / w.threads < occupancy(best) / best.threads))) {
                best = w;
            }
        }
        return best;
    }

    /**
     * The allowed active (live, not retiring) worker not stalled on memory with the earliest
     * expected start; null if none.
     */
    private WorkerState choose(TaskState t) {
        Restrictions r = t.spec.restrictions();
        boolean anyPreferred = false;
        for (int id : r.workers()) {
            if (id < workers.size() && workers.get(id).active() && !workers.get(id).stalled()) {
                anyPreferred = true;
                break;
            }
        }
        WorkerState best = null;
        double bestStart = Double.POSITIVE_INFINITY;
        for (WorkerState w : workers) {
            if (!w.active() || w.stalled() || !r.allows(w.id) || (anyPreferred && !r.workers().contains(w.id))) {
                continue;
            }
            double start = occupancy(w) / w.threads + transferCost(t, w.id);
            if (best == null || start < bestStart
                    || (start == bestStart && w.processing.size() < best.processing.size())) {
                best = w;
                bestStart = start;
            }
        }
        return best;
    }

    private void assign(TaskState t, WorkerState w) {
        stopAwaiting(t);
        if (w.stalled()) {
            stallsDirty = true;               // queued where it cannot start: stalls() looks at it
        }
        t.setState(TaskState.State.PROCESSING);
        t.processingOn = w;
        t.attempt = ++attemptSeq;
        t.assignedOrder = ++orderSeq;
        w.startProcessing(t, durations.measured(t.spec.prefix()));
        Map<String, List<Integer>> holders = new HashMap<>();
        List<String> deps = new ArrayList<>(t.dependencies.size());
        for (TaskState d : t.dependencies) {
            deps.add(d.key());
            if (!d.holders.contains(w.id)) {
                asked(d, w);                  // it fetches d, and reports it with DataAdded
            }
            List<Integer> hs = new ArrayList<>(d.holders);
            Collections.sort(hs);
            holders.put(d.key(), hs);
        }
        send(w.id, new Message.Compute(t.key(), t.attempt, t.spec.function(), deps, holders,
                t.spec.priority(), w.releasesSent));
        t.unsent = unreachable.get(w.id);     // set by this send, or by one before it in the event
    }

    private void unassign(TaskState t) {
        if (t.copyMissingOn >= 0) {
            copyMissingLeft(t);
        }
        if (t.processingOn != null) {
            t.processingOn.stopProcessing(t);
            t.processingOn = null;
        }
        if (t.stealId != 0) {
            inFlight.remove(t.stealId);
            Withdrawal wd = withdrawals.remove(t.stealId);
            if (wd != null && wd.moving()) {
                movingWithdrawals--;
            }
            t.stealId = 0;
        }
    }

    /**
     * The run of {@code t} leaves the worker that reported its own copy of {@code t}'s earlier
     * result missing ({@link TaskState#copyMissingOn}) without storing its value there: what that
     * worker may hold of the key is a copy fetched since, whose report was not counted either, or
     * will come late; released now, as it could not be while the run was there.
     */
    private void copyMissingLeft(TaskState t) {
        WorkerState w = workers.get(t.copyMissingOn);
        t.copyMissingOn = -1;
        if (w.alive && !t.holders.contains(w.id)) {
            t.fetchers.remove(w.id);          // a late report of the copy is then released (onDataAdded)
            releaseKey(w, t.key());
        }
    }

    /**
     * Takes {@code t} off its worker and tells that worker, if alive, to drop the key: the run is
     * abandoned there (ClusterWorker.release) or ended (a failure, which may leave a copy nobody
     * counts, see {@link #onErred}), and whatever copy of the key the worker holds or fetches goes
     * with it, so it is no longer counted. One release: it covers what {@link #copyMissingLeft}
     * would release there (the worker is the run's), and the worker is taken off the holders and
     * fetchers so that a {@link #dropCopies} that follows sends it none. Sent by each of them,
     * those were two releases of the key to that worker: harmless to it, but two counted
     * ({@link WorkerState#releasesSent}) where one was meant.
     */
    private void abandonRun(TaskState t) {
        WorkerState w = t.processingOn;
        t.copyMissingOn = -1;                 // always the run's worker (see uncountMissing), released below
        unassign(t);
        if (w != null && w.alive) {
            if (w.holds.remove(t.key())) {
                t.removeHolder(w.id);
            }
            t.fetchers.remove(w.id);
            releaseKey(w, t.key());
        }
    }

    /** The reply is about the current assignment of a live task. */
    private TaskState current(String key, long attempt, int worker) {
        TaskState t = tasks.get(key);
        if (t == null || t.state != TaskState.State.PROCESSING || t.attempt != attempt
                || t.processingOn == null || t.processingOn.id != worker) {
            return null;
        }
        return t;
    }

    private void onFinished(Message.TaskFinished m) {
        TaskState t = current(m.key(), m.attempt(), m.worker());
        if (t == null) {
            ignoredResult(m.worker(), m.key());
            return;
        }
        if (t.copyMissingOn >= 0) {
            t.copyMissingOn = -1;             // the run stored its value over the copy reported missing
        }
        unassign(t);
        workers.get(m.worker()).executed++;
        logRun(t, m.worker(), m.nanos(), false);
        t.setState(TaskState.State.MEMORY);
        t.failures = 0;                       // a later recomputation of a lost result gets its own retries
        t.fetchFailures = 0;                  // (and of its inputs' fetches)
        t.lostWorkers = null;                 // and its own worker losses
        t.measured(m.bytes());
        t.addHolder(m.worker(), attemptSeq);
        workers.get(m.worker()).holds.add(t.key());
        if (durations.record(t.spec.prefix(), m.nanos() / 1e9)) {
            kindMeasured(t.spec.prefix());
            // its siblings just became steal candidates: balance now rather than an interval later
            nextBalance = System.nanoTime();
        }
        CompletableFuture<Object> f = t.future;
        if (f != null) {                          // null when a lost result was recomputed
            t.future = null;
            Object value = m.value();
            notifier.execute(() -> f.complete(value));
        }
        // its inputs first, before its dependents too: releasing t itself may forget its record
        // (forgetReleased), which clears t.dependencies, and inputs only t still needed would then
        // be held for good. Placing a dependent may do that already: one that no allowed worker
        // may run fails, and that failure releases t (and, its future released, forgets both).
        // A dependent that needs an input as well is pending, so the input stays.
        for (TaskState d : t.dependencies) {
            mayRelease(d);
        }
        dependentsMayRun(t);
        mayRelease(t);
    }

    /**
     * A reply not accepted (the task failed meanwhile, or this attempt was superseded): its worker
     * stored the result before reporting it (a failure too may leave a copy, see {@link #onErred}),
     * and counted nowhere that copy would stay for good. Released unless the worker's copy of the
     * key is one the record counts or is about to: it holds or fetches the current value, or runs
     * the current attempt, which stores over the old one.
     */
    private void ignoredResult(int worker, String key) {
        if (worker < 0 || worker >= workers.size()) {
            return;                           // a worker's word: check it
        }
        WorkerState w = workers.get(worker);
        TaskState t = tasks.get(key);
        if (!w.alive || (t != null && (t.holders.contains(w.id) || t.fetchers.containsKey(w.id)
                || t.processingOn == w))) {
            return;
        }
        releaseKey(w, key);
    }

    // ---- freeing memory ------------------------------------------------------------------

    /** Tells {@code w} to drop {@code key}, counted so that a stall report that predates it is known for one. */
    private void releaseKey(WorkerState w, String key) {
        send(w.id, new Message.ReleaseKey(key, ++w.releasesSent));
    }

    /**
     * Releases {@code t}'s result if it is in memory, or was lost with its workers, and neither the
     * client nor a pending task needs it. A lost result is released too: nothing else would ever
     * end it, and with {@code forgetReleased} its record (and its dependencies') would stay for good.
     */
    private void mayRelease(TaskState t) {
        if ((t.state != TaskState.State.MEMORY && t.state != TaskState.State.LOST) || t.wanted
                || t.pendingDependents > 0) {
            return;
        }
        t.setState(TaskState.State.RELEASED);
        tasksReleased++;
        dropCopies(t);
        mayForget(t);
    }

    /**
     * Forgets {@code root} if the client cancelled its future before it was sent to any worker
     * (Dask's release of a task not yet started): it is WAITING, for its inputs or for a worker to
     * join ({@link #awaitingWorker}), on no worker, and no pending task needs it. It leaves the
     * wait and goes RELEASED, as a freed result does, so a task submitted later by its key computes
     * it again ({@link #ensure}); its inputs no pending task needs any more are released on their
     * workers, or forgotten in turn if they were cancelled and have not started either; with
     * {@code forgetReleased} the records go. Its future was completed by the cancel; one left (a
     * record a resubmission replaced) completes with a {@link CancellationException}. A task only
     * released, not cancelled, is never forgotten here: it runs, as {@link ClusterFuture} promises.
     * A task sent to a worker is not forgotten here either: it is asked back from its worker
     * ({@link #takeBack}; so is an input sent to one that no pending task needs any more), and
     * forgotten once the worker gives it up unstarted; started, it finishes and is released then
     * ({@link #onFinished}); back from its worker another way (lost, stolen, withdrawn, failed to
     * retry) it is forgotten as it would be placed again ({@link #place}, {@link #ensure}).
     *
     * @return whether {@code root} was forgotten
     */
    private boolean mayCancel(TaskState root) {
        if (!cancellable(root)) {
            if (root.cancelled) {             // (one field read on the paths that place a task)
                takeBack(root);
            }
            return false;
        }
        ArrayDeque<TaskState> work = new ArrayDeque<>();
        work.push(root);
        while (!work.isEmpty()) {
            TaskState t = work.pop();
            if (!cancellable(t)) {
                continue;
            }
            stopAwaiting(t);
            t.setState(TaskState.State.RELEASED);   // its inputs' pendingDependents drop
            // a waiting task may hold copies: ones asked for before a loss had it computed again,
            // reported after (onDataAdded), and kept when a withdrawal or steal took the new run back
            dropCopies(t);
            tasksCancelled++;
            CompletableFuture<Object> f = t.future;
            if (f != null) {                  // null for a result computed before, being computed again
                t.future = null;
                String key = t.key();
                notifier.execute(() -> f.completeExceptionally(new CancellationException(
                        "task '" + key + "' was cancelled before it started")));
            }
            List<TaskState> inputs = new ArrayList<>(t.dependencies);
            mayForget(t);                     // clears t.dependencies once the record goes
            for (TaskState d : inputs) {
                if (d.state == TaskState.State.WAITING) {
                    work.push(d);
                } else if (d.state == TaskState.State.PROCESSING) {
                    if (d.cancelled) {
                        takeBack(d);          // a cancelled input sent to its worker, needed by nobody now
                    }
                } else {
                    mayRelease(d);
                }
            }
        }
        return true;
    }

    /** Whether {@link #mayCancel} forgets {@code t}. */
    private boolean cancellable(TaskState t) {
        return t.cancelled && t.state == TaskState.State.WAITING && !t.wanted && t.pendingDependents == 0
                && t.processingOn == null && tasks.get(t.key()) == t;
    }

    /**
     * Asks the worker of {@code t}, a cancelled task sent to it that no pending task needs, to give
     * it up if it has not started it (Dask's release of a task queued on its worker). The request
     * is the steal protocol's ({@link Message.StealRequest}, with a negative id, never counted as a
     * steal), which every transport carries and whose worker side answers whether the task was
     * still queued, as for a withdrawal from a stalled worker ({@link #withdraw}): a plain
     * {@link Message.ReleaseKey} would drop a queued job on the worker too, but without a word
     * back, so that the scheduler could not tell a job dropped (which never reports) from one
     * running (whose report ends the attempt). Given up, the task is forgotten ({@link #onSteal});
     * started, it runs to its end and is released then, and is not asked again. Nothing is sent
     * while a steal, a retirement's move or a withdrawal of the task is in flight: its reply brings
     * the task back unstarted, and placement forgets it then, or says it started.
     */
    private void takeBack(TaskState t) {
        WorkerState w = t.processingOn;
        if (!t.cancelled || t.state != TaskState.State.PROCESSING || t.wanted || t.pendingDependents > 0
                || t.stealId != 0 || t.withdrawalRefused == t.attempt || w == null || !w.alive
                || tasks.get(t.key()) != t) {
            return;
        }
        long id = -(++stealSeq);             // negative, as a retirement's: never counted as a steal
        t.stealId = id;
        inFlight.put(id, new PendingSteal(t, w.id, CANCEL, -1, t.attempt));
        send(w.id, new Message.StealRequest(id, t.key(), t.attempt));
    }

    /**
     * Records that {@code w} is asked for a copy of {@code t}'s result (a task placed there that
     * needs it, or a {@link Message.Replicate}), with the releases sent to it so far: the order
     * asking names them ({@link Message.Compute#releases}), the worker takes it only once it has
     * handled them, and so the copy it reports names as many at least
     * ({@link Message.DataAdded#releases}). A report that names fewer was made before the worker
     * took one of those releases, and {@link #onDataAdded} ignores it: if of this key, that release
     * dropped the copy. Every release of the key to the worker takes it off the fetchers, so the
     * count kept is that of its first ask since (the fewest, so that a report of that ask's copy
     * counts). The fewer is kept against an entry left by an incarnation of the id that is gone
     * too (a retired one's; a lost one's go with it, see {@link #onWorkerLost}): left there, no
     * release of the key reached the new one since, so none of its reports is older than such a
     * release, and a count of the gone one's must not refuse them.
     */
    private void asked(TaskState t, WorkerState w) {
        t.fetchers.merge(w.id, w.releasesSent, Math::min);
    }

    /** Tells every holder of {@code t}'s result, and every worker fetching it, to drop it. */
    private void dropCopies(TaskState t) {
        for (int h : t.holders) {
            WorkerState w = workers.get(h);
            w.holds.remove(t.key());
            if (w.alive) {
                releaseKey(w, t.key());
            }
        }
        for (int f : t.fetchers.keySet()) {
            // a fetch still travelling: the worker abandons it, so that no copy lands after the
            // release (nor, once the key is forgotten and submitted again, under the new result's name)
            if (!t.holders.contains(f) && workers.get(f).alive) {
                releaseKey(workers.get(f), t.key());
            }
        }
        t.fetchers.clear();
        t.clearHolders();
    }

    /**
     * With {@link CoordinatorSettings#forgetReleased()}: drops the record of {@code root} if it is
     * released or failed, its future is not held and no record depends on it any more (a failed
     * task's dependents failed with it, and are forgotten first), then does the same
     * for its dependencies, which it no longer holds on to. A dependency is kept while any
     * dependent's record is kept, since a dependent lost with a worker is recomputed from it.
     */
    private void mayForget(TaskState root) {
        if (!config.forgetReleased()) {
            return;
        }
        ArrayDeque<TaskState> work = new ArrayDeque<>();
        work.push(root);
        while (!work.isEmpty()) {
            TaskState t = work.pop();
            if ((t.state != TaskState.State.RELEASED && t.state != TaskState.State.ERRED) || t.wanted
                    || !t.dependents.isEmpty() || tasks.get(t.key()) != t) {
                continue;
            }
            untrack(t);
            for (TaskState d : t.dependencies) {
                d.dependents.remove(t);
                work.push(d);
            }
            t.dependencies.clear();
        }
    }

    /**
     * For tests: checks the running counts against a recount from scratch (see {@link #checkCounts}),
     * now and, from this call on, after every event the scheduler handles.
     *
     * @throws AssertionError the first mismatch found since the first call, naming the record and
     *     both values
     */
    void checkCountsForTests() {
        AssertionError e = call(() -> {
            checkCountsEachEvent = true;
            if (countsFailure == null) {
                try {
                    checkCounts();
                } catch (AssertionError x) {
                    countsFailure = x;
                }
            }
            return countsFailure;
        });
        if (e != null) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    /**
     * On the scheduler thread: recounts the records in MEMORY and ERRED ({@link #stateCounts}, the
     * walk the stats made before), {@link TaskState#pendingDependents} and
     * {@link TaskState#dependenciesNotInMemory} of every record, and each worker's transfer totals,
     * the way they were computed before they were kept as running counts, and throws on the first
     * difference (a count too high keeps a value or a task waiting for good, one too low frees a
     * value a pending task still needs).
     */
    private void checkCounts() {
        int inMemory = 0;
        int erred = 0;
        for (TaskState t : tasks.values()) {
            if (t.counted != stateCounts) {
                throw new AssertionError("task " + t + " is the record of its key but not counted");
            }
            if (t.state == TaskState.State.MEMORY) {
                inMemory++;
            } else if (t.state == TaskState.State.ERRED) {
                erred++;
            }
        }
        if (stateCounts.inMemory != inMemory || stateCounts.erred != erred) {
            throw new AssertionError("records in memory " + stateCounts.inMemory + ", recounted " + inMemory
                    + "; erred " + stateCounts.erred + ", recounted " + erred);
        }
        for (TaskState t : tasks.values()) {
            int pending = 0;
            for (TaskState d : t.dependents) {
                if (!d.dependencies.contains(t)) {
                    throw new AssertionError("'" + d.key() + "' is a dependent of '" + t.key()
                            + "' that does not depend on it");
                }
                if (TaskState.pending(d.state)) {
                    for (TaskState x : d.dependencies) {
                        pending += x == t ? 1 : 0;
                    }
                }
            }
            Set<TaskState> notInMemory = new HashSet<>();
            for (TaskState d : t.dependencies) {
                if (!d.dependents.contains(t)) {
                    throw new AssertionError("'" + t.key() + "' depends on '" + d + "', which does not list it");
                }
                if (d.state != TaskState.State.MEMORY) {
                    notInMemory.add(d);
                }
            }
            if (t.pendingDependents != pending || t.dependenciesNotInMemory != notInMemory.size()) {
                throw new AssertionError("task " + t + ": pendingDependents " + t.pendingDependents + ", recounted "
                        + pending + "; dependenciesNotInMemory " + t.dependenciesNotInMemory + ", recounted "
                        + notInMemory.size() + " " + notInMemory + " of " + t.dependencies);
            }
        }
        for (WorkerState w : workers) {
            int missing = 0;
            long bytes = 0;
            for (TaskState t : w.processing) {
                long b = t.missingBytes(w.id);
                if (b >= 0) {
                    missing++;
                    bytes = Sizes.plus(bytes, b);
                }
            }
            if (w.tasksMissingData() != missing || w.bytesMissing() != bytes) {
                throw new AssertionError(w + ": tasksMissingData " + w.tasksMissingData() + ", recounted " + missing
                        + "; bytesMissing " + w.bytesMissing() + ", recounted " + bytes + " (processing "
                        + w.processing + ")");
            }
        }
    }

    /** For tests: worker {@code id}'s record's collections of tasks and keys, the very objects. */
    List<Object> workerCollectionsForTests(int id) {
        return call(() -> List.of(workers.get(id).processing, workers.get(id).holds));
    }

    /** The task records the scheduler keeps, for tests. */
    int taskRecords() {
        return call(tasks::size);
    }

    /**
     * For tests: the sizes of the per-key structures the scheduler keeps (task records, steals and
     * withdrawals in flight, and over all workers the tasks processing, values held, copies asked,
     * copy failures; over all records the dependents and fetchers), by name; and the workers it
     * takes for stalled on memory ({@code stalled}).
     */
    Map<String, Integer> retainedForTests() {
        return call(() -> {
            Map<String, Integer> m = new TreeMap<>();
            m.put("tasks", tasks.size());
            m.put("inFlight", inFlight.size());
            m.put("withdrawals", withdrawals.size());
            for (WorkerState w : workers) {
                m.merge("processing", w.processing.size(), Integer::sum);
                m.merge("holds", w.holds.size(), Integer::sum);
                m.merge("replicas", w.replicas.size() + w.replicaFailures.size(), Integer::sum);
                m.merge("stalled", w.stalled() ? 1 : 0, Integer::sum);
            }
            for (TaskState t : tasks.values()) {
                m.merge("dependents", t.dependents.size(), Integer::sum);
                m.merge("fetchers", t.fetchers.size(), Integer::sum);
            }
            m.put("durationPrefixes", durations.prefixes());
            return m;
        });
    }

    /**
     * The client no longer holds its future for {@code key}: what {@link ClusterFuture#release()}
     * and the cleaner of an unreachable future do (through {@link #releaseFuture(String, long,
     * boolean)}, naming the future's record), on any thread; never blocks, and does nothing once the
     * scheduler is closed.
     */
    void releaseFuture(String key) {
        releaseFuture(key, false);
    }

    /**
     * As {@link #releaseFuture(String)}; with {@code cancel} ({@link ClusterFuture#cancel}, once per
     * future, in place of its release) the task is also forgotten if it has not been sent to a
     * worker and no pending task needs it ({@link #mayCancel}). Names the key alone: where the
     * current record replaced earlier ones with futures still held, the first such call is taken
     * for one of theirs.
     */
    void releaseFuture(String key, boolean cancel) {
        releaseFuture(key, 0, cancel);
    }

    /**
     * As {@link #releaseFuture(String, boolean)} for the future of record {@code record}
     * ({@link #recordOf}; 0 for unknown). The value stays wanted while any future of the key is
     * held, the current record's own or one of a record it replaced ({@link #supersede}), but only
     * the own future's cancel cancels the task. Counted by key alone, the first release or cancel
     * to come was taken for a replaced record's, whoever's it was: the retry's cancel, consumed so,
     * let its task run, and the first attempt's cancel, taken for the retry's, forgot a task its
     * own future had only released (it never ran).
     */
    void releaseFuture(String key, long record, boolean cancel) {
        if (closed) {
            return;
        }
        events.add(() -> {
            TaskState t = tasks.get(key);
            if (t == null) {
                return;
            }
            // unknown (0): the replaced records' first, as when releases named the key alone
            boolean own = record == 0 ? t.supersededFutures == 0 : t.record == record;
            if (own && t.ownFutureHeld) {
                t.ownFutureHeld = false;
                t.cancelled |= cancel;        // its own future's only: a replaced record's cancels nothing here
            } else if (!own && t.supersededFutures > 0) {
                t.supersededFutures--;        // a future of a record it replaced: see supersede
            } else {
                return;                       // another record's, none of whose futures is counted as held
            }
            if (t.ownFutureHeld || t.supersededFutures > 0) {
                return;                       // another future of the key is held: its value is still wanted
            }
            if (t.wanted) {
                t.wanted = false;
                if (t.state == TaskState.State.ERRED) {
                    mayForget(t);             // nothing to release: a failure holds no value
                } else if (!mayCancel(t)) {
                    mayRelease(t);
                }
                retirements();
                stalls();                     // a worker a release reaches is not stalled until it says so again
            }
        });
    }

    /** A long-running report raises its kind's estimate (see {@link DurationEstimates}). */
    private void onRunning(Message.TaskRunning m) {
        TaskState t = current(m.key(), m.attempt(), m.worker());
        if (t != null && durations.running(t.spec.prefix(), m.nanos() / 1e9)) {
            kindMeasured(t.spec.prefix());
        }
    }

    /** Whether a worker processes a task of {@code prefix}: its estimate must not be forgotten (see DurationEstimates). */
    private boolean processedSomewhere(String prefix) {
        for (WorkerState w : workers) {
            if (w.load.holds(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** A prefix measured for the first time: its queued tasks now count at the kind's estimate. */
    private void kindMeasured(String prefix) {
        for (WorkerState w : workers) {
            w.load.kindMeasured(prefix);
        }
    }

    private void dependentsMayRun(TaskState t) {
        if (t.dependents.isEmpty()) {
            return;                           // most tiny tasks: no copy made
        }
        // over a copy: placing a dependent may fail it (no allowed worker is alive), and with
        // forgetReleased a failed one whose future was released is forgotten at once, which
        // unlinks it from t.dependents; walking the set itself then threw, and the dependents
        // after it were never placed (they waited for good)
        for (TaskState d : new ArrayList<>(t.dependents)) {
            if (d.state == TaskState.State.WAITING && d.dependenciesInMemory()) {
                place(d);
            }
        }
    }

    private void onErred(Message.TaskErred m) {
        TaskState t = current(m.key(), m.attempt(), m.worker());
        if (t == null) {
            ignoredResult(m.worker(), m.key());
            return;
        }
        // The worker may hold a copy of the result all the same: one whose report could not travel,
        // or that this side refused on arrival (its class outside the allow-list). Nobody counts that
        // copy, so nothing else would release it, and once the key is forgotten and submitted anew a
        // dependent placed there would take it for the new task's value. Released before a retry,
        // which may be placed on the same worker.
        // A copy this side does count there goes too (one fetched before a loss and reported after
        // it, while the key was computed again on the same worker: see onDataAdded): the worker drops
        // it, so it is no longer counted, else the scheduler went on counting a value the worker no
        // longer held (its memory, its keys, a dependent's locality). So does a copy it still
        // fetches: the release abandons the fetch and drops what it stored, and a fetch that ended
        // just before the worker took the release is reported after this failure. Still counted as
        // fetching, the worker was taken for a holder of a copy it no longer had.
        WorkerState w = workers.get(m.worker());
        abandonRun(t);
        w.executed++;
        logRun(t, m.worker(), m.nanos(), true);
        t.failures++;
        if (t.failures <= config.retries()) {
            t.setState(TaskState.State.WAITING);
            place(t);                         // on a retiring worker if no other may run it (retiringFallback)
        } else {
            err(t, m.error());
        }
    }

    /**
     * Errs {@code root} and every dependent not yet computed, iteratively so long chains cannot
     * overflow. With {@code forgetReleased}, a failed task whose future was released already (while
     * it waited or ran) is forgotten here: no release will come for it any more.
     */
    private void err(TaskState root, Throwable error) {
        ArrayDeque<TaskState> work = new ArrayDeque<>();
        List<TaskState> unwanted = new ArrayList<>();
        work.add(root);
        while (!work.isEmpty()) {
            TaskState t = work.poll();
            if (t.state == TaskState.State.ERRED || t.state == TaskState.State.MEMORY) {
                continue;
            }
            if (t.state == TaskState.State.RELEASED || t.state == TaskState.State.LOST) {
                // it succeeded, and its result was released or lost with its workers: not a
                // failure (its client already has its value), but whatever waits through it for
                // the failed task cannot run either. A task that needs it later recomputes it,
                // and fails then, from the failed input, if that input still cannot be computed
                work.addAll(t.dependents);
                continue;
            }
            // a dependent running when its input failed to be computed again (it read the input
            // before the input's last holder was lost): its worker abandons the run
            // (ClusterWorker.release), as for a superseded one. Else the value it stores when it
            // ends was counted nowhere: with forgetReleased, once the key was submitted again and
            // assigned there, its late report was not released (ignoredResult) and a dependent of
            // the new task placed there read the stale copy as its input
            abandonRun(t);
            stopAwaiting(t);
            t.setState(TaskState.State.ERRED);
            t.error = error;
            // A result lost with its worker and being computed again may have a copy all the same:
            // a worker that fetched it before the loss and reported it after (the report and the
            // loss come from different members, in either order) is counted as a holder (see
            // onDataAdded). Nothing else releases that copy once the recomputation fails; and once
            // the record is forgotten (forgetReleased) the holder's record names a key the
            // scheduler no longer has, so that a later loss of the holder stopped half-way.
            dropCopies(t);
            CompletableFuture<Object> f = t.future;
            if (f != null) {
                t.future = null;
                // wrapped there: its message prints the user's exception, which is no work for this thread
                notifier.execute(() -> f.completeExceptionally(failure(error)));
            }
            work.addAll(t.dependents);
            for (TaskState d : new ArrayList<>(t.dependencies)) {
                if (!mayCancel(d)) {          // a cancelled input not started that only t still needed runs for nobody
                    mayRelease(d);
                }
            }
            if (!t.wanted) {
                unwanted.add(t);
            }
        }
        // after the walk, which reads the links forgetting cuts; a dependent forgotten re-checks its dependencies
        for (TaskState t : unwanted) {
            mayForget(t);
        }
    }

    /**
     * How a client's future carries a task's failure: in a {@link CompletionException} whose message
     * {@link Failures#describe} made. The JDK wraps a failure so as it passes it on (to a copy, a
     * stage, a {@code join}) with the cause constructor, which prints it: a task's exception whose
     * {@code toString()} throws (user code) had that throw instead, on the notifier's thread as it
     * completed the future, so that a copy made before ({@link ClusterFuture#toCompletableFuture})
     * never completed, and one made after threw it. Wrapped here, it is passed on as it is; the
     * waits report the cause without printing it ({@link NotifierFuture#get()}).
     */
    private static CompletionException failure(Throwable error) {
        return error instanceof CompletionException ce ? ce : new CompletionException(Failures.describe(error), error);
    }

    private void onDataMissing(Message.DataMissing m) {
        TaskState t = current(m.key(), m.attempt(), m.worker());
        TaskState dep = tasks.get(m.dependency());
        if (t == null) {
            // an attempt no longer current (the task failed with another input, or was superseded,
            // while its worker fetched or read this one): nothing to place again, but what the
            // report says of the copy is true all the same. Ignored, a copy that its own worker could
            // not read (its store dropped it) stayed counted: its keys and memory, a holder named to
            // every task that fetches the input, a task placed there for a value it does not have.
            // Attempt 0, no task's at all, is a holder's report of its own copy, lost as it served a
            // fetch (ClusterWorker.copyLost), handled the same way
            if (m.worker() >= 0 && m.worker() < workers.size() && workers.get(m.worker()).alive) {
                uncountMissing(m, dep);
                recomputeForWaiting(dep, new HashSet<>());
            }
            return;
        }
        unassign(t);
        uncountMissing(m, dep);
        t.setState(TaskState.State.WAITING);
        Set<TaskState> visited = new HashSet<>();
        if (fromALiveHolder(m) && ++t.fetchFailures > config.retries()) {
            // a holder that stays alive yet never serves (the two workers cannot reach each other,
            // the value cannot travel from there), or the task's own worker whose copy can never be
            // read (its spill disk fails every read): each report gave its copy up, the input was
            // computed again on that same holder, and the fetch or read failed again, with no end,
            // the dependent waiting for good. Bounded as a task's own failures are
            if (!mayCancel(t)) {
                String last = m.holder() == m.worker()
                        ? "input '" + m.dependency() + "' on worker " + m.worker() + ", whose own copy could not be"
                                + " read (its spill disk may be failing)"
                        : "input '" + m.dependency() + "' from worker " + m.holder() + " on worker " + m.worker()
                                + ": the workers may not reach each other, or the value may not travel from its holder";
                err(t, new IllegalStateException("task '" + t.key() + "' could not fetch or read its inputs from workers"
                        + " still alive " + t.fetchFailures + " times (retries " + config.retries() + "), the last time "
                        + last + "; each failure gave that copy up, and a lost input was computed again"));
            }
        } else {
            ensure(t, visited);
        }
        // t did not compute it again if t was cancelled, and forgotten as it came back
        recomputeForWaiting(dep, visited);
    }

    /**
     * Whether {@code m} reports a copy that a worker still alive failed to give its task: another
     * worker's copy that could not be fetched from it, or the task's own worker's copy that could
     * not be read back there (its spill file unreadable); not an input released ahead of its task
     * (no holder named), nor a copy of a gone incarnation of the holder's id that rejoined since
     * ({@link WorkerState#joinedAt}). A task's attempts that end so count against its retries
     * ({@link TaskState#fetchFailures}). The own copy counts too: on a spill disk that fails every
     * read, the input, computed again on that worker, spilled there again and was lost at its next
     * read, and the producer ran for good while the task never ended.
     */
    private boolean fromALiveHolder(Message.DataMissing m) {
        if (m.holder() < 0 || m.holder() >= workers.size()) {
            return false;
        }
        WorkerState h = workers.get(m.holder());
        // the holder the task's assignment named: if the id's incarnation now alive joined after
        // that assignment was made, the copy tried was its gone predecessor's (retired, its value
        // copied elsewhere; or lost, the value computed again). Counted, a worker restarted under
        // its id before the report arrived made a fetch from the gone one a live holder's failure,
        // and with no retries left failed a task whose input was held elsewhere
        return h.alive && m.attempt() > h.joinedAt;
    }

    /**
     * Stops counting the copy of {@code dep} that {@link Message.DataMissing} {@code m} says its
     * holder lacks, and tells that holder to drop what it may still have; {@code dep} goes LOST if
     * that was its last holder.
     */
    private void uncountMissing(Message.DataMissing m, TaskState dep) {
        if (m.holder() >= 0 && m.holder() < workers.size() && dep != null     // a worker's word: check it
                && !aboutAnEarlierCopy(m, dep)) {
            dep.removeHolder(m.holder());
            WorkerState h = workers.get(m.holder());
            boolean held = h.holds.remove(dep.key());
            // a worker that names its own copy (one it could not read back) may have reported that
            // copy after this (a transport that reorders frames): still a fetcher, it was counted
            // when that report came, a copy it no longer had. Released as a holder's: the report,
            // older than the release, is not counted (onDataAdded)
            boolean reportedAfter = !held && m.holder() == m.worker() && dep.fetchers.containsKey(h.id);
            if ((held || reportedAfter) && h.alive && dep.processingOn == h) {
                // where the key's current attempt runs (a lost result computed again on a worker that
                // fetched it before the loss) no release may go: it would make the worker drop that
                // job (ClusterWorker.release), which would never report, and the tasks waiting for it
                // waited for good. Still a fetcher, its report of the copy, late, was counted when it
                // came, a copy it no longer had, until the run ended; none is counted while the run is
                // there, and the key is released there if the run leaves unfinished (unassign)
                dep.copyMissingOn = h.id;
            } else if ((held || reportedAfter) && h.alive) {
                // it may still hold the value (a fetch that timed out): no longer counted, the copy
                // would never be released
                releaseKey(h, dep.key());
                dep.fetchers.remove(h.id);    // asked again after this release, it is asked afresh (see asked)
            }
        }
        if (dep != null && dep.state == TaskState.State.MEMORY && dep.holders.isEmpty()) {
            dep.setState(TaskState.State.LOST);
        }
    }

    /**
     * Whether {@code m}, a task's worker's report that it could not fetch {@code dep} from another
     * worker, is about a copy that holder no longer has counted: the one the task's assignment
     * ({@link Message.Compute} of {@code m.attempt()}) named, counted before that assignment took
     * its number, while the holder's copy counted now was counted at or after it
     * ({@link TaskState#countedAt}): stored after the fetch failed (the key computed again there,
     * or fetched there again), or held when it was tried and not served (a fetch that timed out).
     * Either way the holder holds it; had it lost that copy, it reports the loss itself (its own
     * reads, {@link ClusterWorker#copyLost}), which this never skips. See "Copies reported
     * missing" in the overview.
     */
    private static boolean aboutAnEarlierCopy(Message.DataMissing m, TaskState dep) {
        return m.holder() != m.worker() && m.attempt() > 0 && dep.countedAt(m.holder()) >= m.attempt();
    }

    /**
     * Has {@code dep}, lost with the copy a {@link Message.DataMissing} named, computed again for
     * the tasks waiting for it: nothing else would (a loss of a worker or a retirement walks every
     * waiting task, that report only its own task), and they waited for good.
     */
    private void recomputeForWaiting(TaskState dep, Set<TaskState> visited) {
        if (dep != null && dep.state == TaskState.State.LOST) {
            for (TaskState d : new ArrayList<>(dep.dependents)) {
                if (d.state == TaskState.State.WAITING) {
                    ensure(d, visited);
                }
            }
        }
    }

    private void onDataAdded(Message.DataAdded m) {
        TaskState t = tasks.get(m.key());
        WorkerState w = m.worker() >= 0 && m.worker() < workers.size() ? workers.get(m.worker()) : null;
        if (w == null || !w.alive) {
            return;                           // a worker's word: check it
        }
        if (t == null) {
            // a copy of a key forgotten meanwhile: nothing will ever release it, so drop it now
            releaseKey(w, m.key());
            return;
        }
        // moved, whether or not the copy is still wanted; saturated, as every sum of reported sizes
        // is: a worker's word (or years of traffic) must not wrap it to a negative count
        bytesReported = Sizes.plus(bytesReported, m.bytes());
        if (t.state == TaskState.State.RELEASED) {
            releaseKey(w, t.key());   // a copy that arrived after the release
            return;
        }
        if (t.copyMissingOn == w.id) {
            // a copy its worker reported missing, or one fetched since, while the key is computed
            // again there (see TaskState.copyMissingOn): the run stores over it, or, leaving, has it
            // released; counted, the worker was taken for a holder of a value it may not have
            return;
        }
        Long asked = t.fetchers.get(w.id);
        if (asked != null && m.releases() < asked) {
            // a copy it stored before it had taken every release sent to it before it was asked for
            // the key (see asked): one of the key among them drops it. So a copy that vanished is
            // released after the DataMissing that named it, and may be fetched again for a task
            // sent before that release, and reported just before the worker takes it. Counted, the
            // worker was taken for a holder of a value it no longer had. The copy asked for is
            // reported once made; not released, since a release now would abandon that fetch. (On
            // a transport that reorders frames, a copy stored after the key's release but before
            // an earlier release of another key is ignored too: still a fetcher, the worker drops
            // it when the key is released.)
            return;
        }
        if (t.fetchers.remove(w.id) == null && !t.holders.contains(w.id)) {
            // nobody asked this worker for this result: a copy of an earlier one of the key (released,
            // or forgotten and submitted again), reported before the worker dropped it. Not released
            // where the key's current attempt runs or waits: a release makes the worker drop the
            // key's job (ClusterWorker.release), which would never run nor report. That run's value
            // replaces the copy, and its failure releases the key (onTaskErred).
            if (t.processingOn != w) {
                releaseKey(w, t.key());
            }
            return;
        }
        // a copy asked for counts even while its result is computed again (lost, and reported only
        // after the loss): err drops it if that computation fails, which nothing else would
        t.addHolder(w.id, attemptSeq);
        w.holds.add(t.key());
        if (t.state == TaskState.State.LOST) {
            t.setState(TaskState.State.MEMORY);
            dependentsMayRun(t);
        }
    }

    /**
     * A copy a retiring worker waits for could not be made: forget that it was asked, so that the
     * retirement check asks again (another worker if one is as little loaded), up to
     * {@link #MAX_REPLICA_FAILURES} times per value.
     */
    private void onReplicaFailed(Message.ReplicaFailed m) {
        if (m.worker() < 0 || m.worker() >= workers.size()) {
            return;                           // a worker's word: check it
        }
        for (WorkerState r : workers) {
            // alive: a lost worker's retirement is over, its copies forgotten (onWorkerLost)
            WorkerState target = r.alive && r.retiring ? r.replicas.get(m.key()) : null;
            if (target != null && target == workers.get(m.worker())) {
                r.replicas.remove(m.key());
                r.replicaFailures.merge(m.key(), 1, Integer::sum);
            }
        }
    }

    private void onWorkerLost(int id) {
        if (id < 0 || id >= workers.size()) {
            return;
        }
        WorkerState w = workers.get(id);
        if (!w.alive) {
            return;
        }
        w.alive = false;
        ended(w, null);
        if (JfrGate.open() && ClusterWorkerLostEvent.enabled()) {
            ClusterWorkerLostEvent.emit(id, w.processing.size(), w.holds.size());
        }
        List<TaskState> killers = null;
        for (TaskState t : new ArrayList<>(w.processing)) {
            unassign(t);
            t.setState(TaskState.State.WAITING);
            if (t.unsent) {
                continue;                     // never reached it (see assign): placed again, not counted
            }
            if (t.lostWorkers == null) {
                t.lostWorkers = new ArrayList<>(2);
            }
            t.lostWorkers.add(id);
            if (t.lostWorkers.size() > config.allowedWorkerLosses()) {
                (killers == null ? killers = new ArrayList<>() : killers).add(t);
            }
        }
        for (String key : w.holds) {
            TaskState t = tasks.get(key);
            t.removeHolder(id);
            if (t.state == TaskState.State.MEMORY && t.holders.isEmpty()) {
                t.setState(TaskState.State.LOST);
            }
        }
        // with the copies it asked for as it retired, and those that failed: nothing advances a
        // lost worker's retirement, and its record stays while its id is not reused, so kept, a
        // worker lost while it retired held one entry per value it was copying (each naming its
        // target's record) for good; and with its collections, sized by its busiest moment
        w.letGo();
        inFlight.values().removeIf(p -> p.victim == id);
        if (killers != null) {
            // placed on yet another worker, a task that ends the process it runs in would take
            // every worker down in turn (Dask's KilledWorker); erred before the walk below, so
            // that nothing is placed or recomputed for it or its dependents
            for (TaskState t : killers) {
                if (t.state == TaskState.State.WAITING) {
                    err(t, new WorkerLostException(t.key(), t.lostWorkers, config.allowedWorkerLosses()));
                }
            }
        }
        Set<TaskState> visited = new HashSet<>();
        for (TaskState t : new ArrayList<>(tasks.values())) {
            // a copy it was fetching is gone with it: else recorded for as long as the result is held,
            // one entry per id lost so, for every value a client keeps in a cluster whose workers come
            // and go (the walk is here anyway; no record of a worker's fetches to look in instead)
            t.fetchers.remove(id);
            if (t.state == TaskState.State.WAITING) {
                ensure(t, visited);
            }
        }
    }

    // ---- stalls on memory ----------------------------------------------------------------

    /**
     * Takes back the tasks queued on workers stalled on memory ({@link WorkerState#stalled}): paused
     * over the pause fraction of the memory limit with only values that cannot spill (or that the
     * disk refused), no task running, and every release sent to them handled. Such a worker starts
     * nothing until a release reaches it (or its disk takes a spill), so:
     *
     * <ul>
     *   <li>a task that a live worker not stalled may run is taken back at once, and placed there;
     *   <li>the others are taken back only once nothing could make progress
     *       ({@link #progressPossible}): while a worker that is not stalled has a task, the end of
     *       that task may release values on their workers (a dependent that held them finishes or
     *       fails), or a task waiting on a stalled worker for one that ended resumes, and until
     *       then they wait where they are. Then only the client (releasing a result), a
     *       membership change or a disk could let them start, and a task that still has no worker
     *       but stalled ones when its worker gives it up fails, without retries, with an exception
     *       that names those workers and their bytes ({@link #failOnMemory}); Dask waits for good
     *       in this state. A task for which a worker appeared meanwhile is placed again.
     * </ul>
     *
     * <p>A task is taken back by the steal protocol (a steal request with a negative id, recorded in
     * {@link #withdrawals}), never failed while queued: a worker that unstalls on its own (its disk
     * took a spill) may start it before the request arrives, and then keeps it and finishes it. A
     * task whose worker refused a withdrawal is not asked again for that attempt, which ends with
     * its reply. The releases a failure sends follow the withdrawal, so a worker they unpause never
     * runs a task whose caller was told it failed.
     *
     * <p>Run after every event; it looks at the queues of stalled workers only when the workers not
     * stalled, whether anything could make progress, or those queues may have changed.
     */
    private void stalls() {
        if (!stallsSeen) {
            return;                           // no worker without a memory limit, nor any that never stalled, costs more
        }
        BitSet free = new BitSet();
        boolean queued = false;
        for (WorkerState w : workers) {
            if (w.stalled()) {
                queued |= !w.processing.isEmpty();
            } else if (w.alive) {
                free.set(w.id);
            }
        }
        boolean progress = progressPossible();
        boolean changed = stallsDirty || progress != stallsProgress || !free.equals(stallsFree);
        stallsDirty = false;
        stallsFree = free;
        stallsProgress = progress;
        if (!queued || !changed) {
            return;
        }
        List<TaskState> waiting = new ArrayList<>();
        for (WorkerState w : workers) {
            if (!w.stalled()) {
                continue;
            }
            for (TaskState t : w.processing) {
                if (t.stealId != 0 || t.withdrawalRefused == t.attempt) {
                    continue;                 // a steal, move or withdrawal in flight; or it started after all
                }
                if (mayRunOn(t, free)) {
                    withdraw(t, true);
                } else {
                    waiting.add(t);
                }
            }
        }
        if (!waiting.isEmpty() && !progressPossible()) {
            for (TaskState t : waiting) {
                withdraw(t, false);
            }
        }
        stallsProgress = progressPossible();
    }

    /** Whether {@code t}'s restrictions allow one of the workers in {@code free}. */
    private static boolean mayRunOn(TaskState t, BitSet free) {
        Restrictions r = t.spec.restrictions();
        if (!r.isStrict()) {
            return !free.isEmpty();
        }
        for (int id : r.workers()) {
            if (free.get(id)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether anything but the client, a membership change or a worker's disk could still change
     * what workers stalled on memory can do: a live worker that is not stalled has a task queued or
     * running (its end may release values anywhere, and place tasks) or is retiring; a steal or a
     * retirement's move is in flight; a task taken back from a stalled worker is going to one
     * that is not; or a task waiting on a stalled worker resumes ({@link #resuming}); or a task
     * waiting for a worker to join ({@link #awaitingWorker}) needs a value a stalled worker holds:
     * its end, run on a worker that joins or failed once its wait is over (which comes by itself,
     * {@link CoordinatorSettings#noWorkerTimeout()}), may release it, as when it failed at once.
     */
    private boolean progressPossible() {
        if (!inFlight.isEmpty() || movingWithdrawals > 0) {
            return true;
        }
        boolean anyStalled = false;
        for (WorkerState w : workers) {
            if (w.alive && !w.stalled() && (!w.processing.isEmpty() || w.retiring)) {
                return true;
            }
            if (w.stalled() && resuming(w)) {
                return true;
            }
            anyStalled |= w.stalled();
        }
        if (!anyStalled) {
            return false;                     // no stalled worker holds what a task waiting for a worker needs
        }
        for (TaskState t : awaitingWorker) {
            if (awaits(t)) {
                for (TaskState d : t.dependencies) {
                    for (int h : d.holders) {
                        if (workers.get(h).stalled()) {
                            return true;
                        }
                    }
                }
            }
        }
        return false;
    }

    /**
     * Whether a task that stalled worker {@code w} started, and that waits for another, resumes: a
     * key its stall report names as awaited ({@link Message.MemoryStall#awaited}) is no longer
     * pending. A waiting task does not count as running (see {@link ClusterWorker#helpUntil}), so
     * the report, made while it waited, is out of date: the task runs on, and its end may release
     * the values that keep its worker paused. Counted as progress until the worker's next report
     * (the resumed task counts as running, so that report differs and comes): else the end of the
     * awaited task, when it was the last one running elsewhere, had the tasks queued on {@code w}
     * failed at once as ones nothing could ever start.
     */
    private boolean resuming(WorkerState w) {
        for (String key : w.stall.awaited()) {
            TaskState t = tasks.get(key);
            if (t == null || !TaskState.pending(t.state)) {
                return true;
            }
        }
        return false;
    }

    /** Asks {@code t}'s stalled worker to give it up (see {@link #stalls}). */
    private void withdraw(TaskState t, boolean moving) {
        long id = -(++stealSeq);             // negative, as a retirement's: never counted as a steal
        t.stealId = id;
        withdrawals.put(id, new Withdrawal(t, moving));
        if (moving) {
            movingWithdrawals++;
        }
        send(t.processingOn.id, new Message.StealRequest(id, t.key(), t.attempt));
    }

    /**
     * A stalled worker answered a withdrawal: a task it gave up is placed again, or fails if it still
     * has no worker but stalled ones and nothing makes progress; one it started (it unstalled on its
     * own) stays and finishes there.
     */
    private void onWithdrawn(Message.StealResponse m, Withdrawal wd) {
        TaskState t = current(m.key(), m.attempt(), m.worker());
        if (t != wd.task() || t.stealId != m.stealId()) {
            return;                           // a worker's word about another task: the record waits for its own
        }
        withdrawals.remove(m.stealId());
        if (wd.moving()) {
            movingWithdrawals--;
        }
        t.stealId = 0;
        if (!m.released()) {
            t.withdrawalRefused = t.attempt;  // started after all: not asked again; its reply ends this attempt
            return;
        }
        placeAgain(t, true);
    }

    /**
     * A task its worker gave back unstarted (a withdrawal, a retirement's move, a cancel's take-back)
     * waits again and is placed, or, if an input was lost meanwhile, that input is computed again
     * first. Both {@link #place} and {@link #ensure} begin with {@link #mayCancel}: a cancelled task
     * nobody needs any more is forgotten here, and its attempt's late report is then ignored
     * ({@link #current}).
     */
    private void placeAgain(TaskState t, boolean mayFailOnMemory) {
        unassign(t);
        t.setState(TaskState.State.WAITING);
        if (t.dependenciesInMemory()) {
            place(t, mayFailOnMemory);
        } else {
            ensure(t, new HashSet<>());       // an input lost meanwhile is computed again first
        }
    }

    /**
     * Fails {@code t}, which only workers stalled on memory may run, with nothing making progress
     * (see {@link #stalls}): without retries, which would wait on the same workers.
     */
    private void failOnMemory(TaskState t) {
        StringBuilder why = new StringBuilder("every worker allowed to run it is paused over the pause fraction ("
                + Math.round(DataStore.PAUSE * 100) + " %) of its memory limit with only values in memory that cannot"
                + " spill (not Serializable, or the disk refused them) and no task running that could free them, and"
                + " no other worker has a task whose end could release them (");
        int named = 0;
        int stalled = 0;
        for (WorkerState w : workers) {
            if (!w.alive || !t.spec.restrictions().allows(w.id) || w.stall == null) {
                continue;                     // (every allowed live worker is stalled here: see place)
            }
            if (named < STALLED_NAMED) {
                why.append(named++ == 0 ? "" : "; ").append("worker ").append(w.id).append(" holds ")
                        .append(w.stall.memoryBytes()).append(" bytes that cannot spill, memory limit of ")
                        .append(w.stall.limitBytes()).append(" bytes");
            }
            stalled++;
        }
        if (stalled > named) {
            why.append("; and ").append(stalled - named).append(" more workers");
        }
        why.append("). Release results the client holds, make such values Serializable so that they can spill,"
                + " check the workers' spill directories, or raise the memory limit");
        String reason = why.toString();
        if (!reason.equals(lastStallWarning)) {
            lastStallWarning = reason;        // one warning per episode, not one per task
            LOG.log(System.Logger.Level.WARNING,
                    "failing task ''{0}'', and any other that cannot start for the same reason: {1}",
                    LogText.printable(t.key(), LogText.MAX_KEY), reason);
        }
        err(t, new IllegalStateException("task '" + t.key() + "' cannot start: " + reason));
    }

    // ---- membership ----------------------------------------------------------------------

    /** The number of worker ids known, gone ones included; any thread. */
    int workerCount() {
        return workerCount;
    }

    /**
     * Adds worker {@code id} with {@code threads} threads: a new id (ids skipped on the way are
     * recorded as gone workers, so that ids stay indexes), or an id whose worker is gone (lost or
     * retired), which rejoins with a fresh record and holds nothing. The next balance round is
     * brought forward so that it gets work.
     *
     * @throws IllegalArgumentException if {@code id} is negative or not below {@link #MAX_WORKERS},
     *         or {@code threads} is below 1
     * @throws IllegalStateException if worker {@code id} is still alive
     */
    void join(int id, int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, got " + threads);
        }
        if (id < 0 || id >= MAX_WORKERS) {
            throw new IllegalArgumentException("worker id must be in 0.." + (MAX_WORKERS - 1) + ", got " + id);
        }
        call(() -> {
            while (workers.size() < id) {
                WorkerState skipped = new WorkerState(workers.size(), threads);
                skipped.alive = false;
                skipped.gone.complete(null);
                skipped.left.complete(null);
                workers.add(skipped);
            }
            if (id < workers.size()) {
                if (workers.get(id).alive) {
                    throw new IllegalStateException("worker " + id + " is still alive; it can rejoin only once it"
                            + " is lost or retired");
                }
                executedByReplaced += workers.get(id).executed;   // kept in the cluster's total
                WorkerState fresh = new WorkerState(id, threads);
                fresh.joinedAt = attemptSeq;  // the tasks assigned before knew the id's gone incarnation
                workers.set(id, fresh);
                // what was sent under the id since the last flush went to the incarnation gone, whose
                // loss is handled: a flush that throws must not cut off this one, sent nothing yet
                unflushed.clear(id);
            } else {
                workers.add(new WorkerState(id, threads));
                workerCount = workers.size();
            }
            nextBalance = System.nanoTime();
            placeAwaiting();                  // the tasks that waited for a worker it may run
            retirements();                    // a retirement waiting for a worker to copy to gets one now
            stalls();                         // the tasks queued on stalled workers that it may run move to it
            return null;
        });
    }

    /**
     * Completes once the current incarnation of worker {@code id} is gone (lost or retired); at
     * once if it is gone already; fails with {@link IllegalStateException} if the scheduler closes first.
     *
     * @throws IllegalArgumentException if there is no such worker
     */
    CompletableFuture<Void> gone(int id) {
        return call(() -> onNotifier(known(id).gone));
    }

    /**
     * As {@link #gone}, for a caller that only blocks on the result: it completes on the scheduler
     * thread, without waiting for the notifier, which may be the caller's own thread (a future's
     * callback restarting a worker it killed). Attach no callback to it.
     *
     * @throws IllegalArgumentException if there is no such worker
     */
    CompletableFuture<Void> goneForBlockingWait(int id) {
        return call(() -> known(id).left.copy());
    }

    /**
     * Tells those waiting that {@code w}'s incarnation is gone ({@code why} null), or that the
     * scheduler closed first: a blocking wait at once, the callbacks of {@link #gone} on the notifier.
     */
    private void ended(WorkerState w, Throwable why) {
        if (why == null) {
            w.left.complete(null);
            notifier.execute(() -> w.gone.complete(null));
        } else {
            w.left.completeExceptionally(why);
            notifier.execute(() -> w.gone.completeExceptionally(why));
        }
    }

    /**
     * Starts retiring worker {@code id} (see the overview) and returns a future that completes
     * once it is removed: no task of it is left, and every value it held in memory has another
     * holder. Retiring a worker that is retiring already returns the same completion.
     *
     * @throws IllegalArgumentException if there is no such worker
     * @throws IllegalStateException if the worker is gone, or it is the last active worker
     */
    CompletableFuture<Void> retire(int id) {
        return call(() -> {
            WorkerState w = known(id);
            if (!w.alive) {
                throw new IllegalStateException("worker " + id + " is gone (lost or retired already)");
            }
            if (!w.retiring) {
                boolean another = false;
                for (WorkerState o : workers) {
                    another |= o != w && o.active();
                }
                if (!another) {
                    throw new IllegalStateException("cannot retire worker " + id
                            + ": it is the last active worker, and its tasks and values would have nowhere to go");
                }
                w.retiring = true;
                for (TaskState t : new ArrayList<>(w.processing)) {
                    if (t.stealId == 0 && elsewhere(t, w)) {
                        long stealId = -(++stealSeq);   // negative: a retirement's move, never counted as a steal
                        t.stealId = stealId;
                        inFlight.put(stealId, new PendingSteal(t, w.id, RETIRE, -1, t.attempt));
                        send(w.id, new Message.StealRequest(stealId, t.key(), t.attempt));
                    }
                }
                retirements();
                stalls();                     // while it retires, progress is possible: see progressPossible
            }
            return onNotifier(w.gone);
        });
    }

    /**
     * The record whose task {@code f} is the client future of, as a submission returned it
     * ({@link TaskState#record}), for its release ({@link #releaseFuture(String, long, boolean)});
     * 0 for any other future.
     */
    static long recordOf(CompletableFuture<?> f) {
        return f instanceof NotifierFuture<?> n ? n.record : 0;
    }

    /**
     * A copy of {@code f}, a future the notifier completes, whose waits refuse the notifier's own
     * thread ({@link NotifierFuture}).
     */
    private <T> CompletableFuture<T> onNotifier(CompletableFuture<T> f) {
        NotifierFuture<T> copy = new NotifierFuture<>(notifierThread);
        f.whenComplete((v, e) -> {
            if (e != null) {
                copy.completeExceptionally(e);
            } else {
                copy.complete(v);
            }
        });
        return copy;
    }

    /**
     * A future the notifier completes (a task's result, which {@link ClusterFuture#toCompletableFuture}
     * copies, or a worker's end, see {@link #retire} and {@link #gone}), and the stages made from it.
     * The notifier runs the callbacks of the client's futures, so a wait for one not done in such a
     * callback (join another task's copy, or retire a worker once a task ended and wait for it)
     * waited for its own thread: it never ended, and no future of the cluster completed after it.
     * Such a wait throws {@link IllegalStateException} instead, as {@link ClusterFuture#get()} does
     * there; elsewhere it is a plain {@link CompletableFuture}.
     */
    private static final class NotifierFuture<T> extends CompletableFuture<T> {

        private final NotifierThread notifier;
        /** The record whose client future this is ({@link TaskState#record}); 0 for a copy or a stage. */
        final long record;

        NotifierFuture(NotifierThread notifier) {
            this(notifier, 0);
        }

        NotifierFuture(NotifierThread notifier, long record) {
            this.notifier = notifier;
            this.record = record;
        }

        @Override
        public <U> CompletableFuture<U> newIncompleteFuture() {
            return new NotifierFuture<>(notifier);
        }

        @Override
        public T get() throws InterruptedException, ExecutionException {
            refuseOnNotifier();
            try {
                return super.get();
            } catch (CancellationException e) {
                throw e;
            } catch (RuntimeException | Error printing) {
                return report(printing);
            }
        }

        @Override
        public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
            // named here: the JDK's would be caught below and, on a failed future, reported as the
            // task's failure (an ExecutionException) instead of the caller's null
            Objects.requireNonNull(unit, "unit");
            refuseOnNotifier();
            try {
                return super.get(timeout, unit);
            } catch (CancellationException e) {
                throw e;
            } catch (RuntimeException | Error printing) {
                return report(printing);
            }
        }

        /**
         * A {@code get} of this future threw {@code printing}: the JDK makes the
         * {@link ExecutionException} with the cause constructor, which prints the failure, and a
         * task's exception whose {@code toString()} throws had {@link ClusterFuture#get()} throw
         * that instead (see {@link GraphScheduler#failure}). Reports the failure as its cause, with
         * a message {@link Failures#describe} made; rethrows anything else.
         */
        private T report(Throwable printing) throws ExecutionException {
            if (isCompletedExceptionally()) {
                try {
                    super.join();             // rethrows the CompletionException held, without printing it
                } catch (CompletionException e) {
                    Throwable cause = e.getCause() != null ? e.getCause() : e;
                    throw new ExecutionException(Failures.describe(cause), cause);
                }
            }
            if (printing instanceof RuntimeException re) {
                throw re;
            }
            throw (Error) printing;
        }

        @Override
        public T join() {
            refuseOnNotifier();
            return super.join();
        }

        private void refuseOnNotifier() {
            if (!isDone() && notifier.isCurrent()) {
                throw new IllegalStateException("cannot wait for a future of the cluster in a callback of a "
                        + "cluster future: callbacks run on the thread that completes it, so the wait would never "
                        + "end (chain with thenCompose, or use an *Async stage)");
            }
        }
    }

    /**
     * The notifier's thread, set as it starts. Apart from the scheduler, so that a copy of a future a
     * client keeps ({@link NotifierFuture}) keeps no closed scheduler reachable.
     */
    private static final class NotifierThread {
        volatile Thread thread;

        boolean isCurrent() {
            return Thread.currentThread() == thread;
        }
    }

    private WorkerState known(int id) {
        if (id < 0 || id >= workers.size()) {
            throw new IllegalArgumentException("no worker " + id + " (workers 0.." + (workers.size() - 1) + ")");
        }
        return workers.get(id);
    }

    /** Whether an active worker other than {@code w} may run {@code t}; else it finishes on {@code w}. */
    private boolean elsewhere(TaskState t, WorkerState w) {
        for (WorkerState o : workers) {
            if (o != w && o.active() && t.spec.restrictions().allows(o.id)) {
                return true;
            }
        }
        return false;
    }

    /** Advances every retiring worker; run after each event, since any event may be its last wait. */
    private void retirements() {
        for (WorkerState w : workers) {
            if (w.alive && w.retiring) {
                advance(w);
            }
        }
    }

    /**
     * Asks for a copy of each value in memory that only inactive workers hold (a copy asked of a
     * worker since gone is asked again), and removes {@code w} once it processes nothing and
     * every value it holds has an active holder.
     */
    private void advance(WorkerState w) {
        boolean copying = false;
        w.replicas.keySet().retainAll(w.holds);
        for (String key : w.holds) {
            TaskState t = tasks.get(key);
            if (t.state != TaskState.State.MEMORY || activelyHeld(t)) {
                continue;
            }
            if (w.replicaFailures.getOrDefault(key, 0) >= MAX_REPLICA_FAILURES) {
                continue;                     // given up: lost with this worker, computed again if needed
            }
            copying = true;
            WorkerState target = w.replicas.get(key);
            if (target != null && target.active()) {
                continue;                     // asked; waiting for its DataAdded
            }
            WorkerState to = leastLoaded();
            if (to == null) {
                continue;                     // every other worker is gone: wait for one to join
            }
            w.replicas.put(key, to);
            asked(t, to);
            // after the releases sent to it before: it may still hold a released, earlier value of the key
            send(to.id, new Message.Replicate(key, List.of(w.id), to.releasesSent));
        }
        if (copying || !w.processing.isEmpty()) {
            return;
        }
        w.alive = false;
        w.retiring = false;
        for (String key : w.holds) {
            TaskState t = tasks.get(key);
            t.removeHolder(w.id);
            if (t.state == TaskState.State.MEMORY && t.holders.isEmpty()) {
                t.setState(TaskState.State.LOST);   // its copies all failed: as if the worker was lost
                LOG.log(System.Logger.Level.WARNING,
                        "worker {0} retired without a copy of ''{1}'' ({2} copies failed); it is computed again if"
                                + " needed", w.id, LogText.printable(key, LogText.MAX_KEY), MAX_REPLICA_FAILURES);
            }
        }
        boolean lostSome = !w.replicaFailures.isEmpty();
        w.letGo();                            // what it held, its copies, and its collections (see there)
        send(w.id, new Message.Retired(w.id));   // its process may leave now
        try {
            transport.retired(w.id);
        } catch (RuntimeException e) {
            // the worker is removed all the same: escaping, this would leave its retirement's
            // future, and the waiting tasks that need a value it gave up, waiting for good
            LOG.log(System.Logger.Level.WARNING, "the transport threw telling that worker " + w.id + " retired", e);
        }
        ended(w, null);
        if (lostSome) {
            Set<TaskState> visited = new HashSet<>();
            for (TaskState t : new ArrayList<>(tasks.values())) {
                if (t.state == TaskState.State.WAITING) {
                    ensure(t, visited);       // a waiting dependent of a value given up recomputes it
                }
            }
        }
    }

    private boolean activelyHeld(TaskState t) {
        for (int h : t.holders) {
            if (workers.get(h).active()) {
                return true;
            }
        }
        return false;
    }

    /** The active worker holding the fewest bytes, where copies go; null if none. */
    private WorkerState leastLoaded() {
        WorkerState best = null;
        long bestBytes = Long.MAX_VALUE;
        for (WorkerState w : workers) {
            if (!w.active()) {
                continue;
            }
            long bytes = 0;
            for (String key : w.holds) {
                bytes = Sizes.plus(bytes, tasks.get(key).bytes);   // wrapped, the fullest looked emptiest
            }
            if (bytes < bestBytes) {
                best = w;
                bestBytes = bytes;
            }
        }
        return best;
    }

    // ---- stealing ------------------------------------------------------------------------

    private double expected(TaskState t) {
        return durations.estimate(t.spec.prefix(), t.hintSeconds());
    }

    /** Seconds of work processing on {@code w}: the sum of {@link #expected} over its tasks, kept as running totals. */
    double occupancy(WorkerState w) {
        return w.load.seconds(durations);
    }

    private double transferCost(TaskState t, int worker) {
        long bytes = t.missingBytes(worker);
        return bytes < 0 ? 0.0 : params.latency() + bytes / params.bandwidth();
    }

    /**
     * The view the balance round works on. Its tasks are described only when the workers' loads
     * allow a move at all ({@link Balancer#mayMove}); otherwise the snapshot has no tasks, and
     * {@link Balancer#balance} proposes nothing, as it would with them.
     */
    BalanceSnapshot snapshot() {
        List<BalanceSnapshot.WorkerView> ws = new ArrayList<>();
        for (WorkerState w : workers) {
            if (!w.active() || w.stalled()) {
                continue;             // a retiring worker's tasks are moved by its retirement, a stalled one's by stalls()
            }
            // both running totals, kept on events: a round no longer walks every processing task
            double occ = occupancy(w) + w.transferSeconds(params);
            ws.add(new BalanceSnapshot.WorkerView(w.id, w.threads, occ, w.processing.size()));
        }
        List<BalanceSnapshot.InFlight> fs = new ArrayList<>();
        for (PendingSteal p : inFlight.values()) {
            if (p.thief < 0) {
                continue;                     // off a retiring worker, which the snapshot leaves out, or a cancel's
            }
            fs.add(new BalanceSnapshot.InFlight(p.task.key(), p.victim, p.thief, expected(p.task)));
        }
        if (!Balancer.mayMove(ws, fs, params)) {
            // nobody idle, or nobody to give: no move whatever the tasks, so none is described
            // (most rounds of a busy cluster; describing every task every round was the round's cost)
            return new BalanceSnapshot(ws, List.of(), fs);
        }
        List<BalanceSnapshot.TaskView> ts = new ArrayList<>();
        for (WorkerState w : workers) {
            if (!w.active() || w.stalled()) {
                continue;
            }
            for (TaskState t : w.processing) {
                if (t.stealId < 0) {
                    // a withdrawal in flight (its worker stalled and since counts as not), or a
                    // cancelled task asked back (takeBack): not a candidate
                    continue;
                }
                if (!durations.measured(t.spec.prefix()) && t.hintSeconds() < 0) {
                    continue;   // a guessed duration could justify moving a huge input: not a candidate
                }
                List<BalanceSnapshot.Dep> deps = new ArrayList<>(t.dependencies.size());
                for (TaskState dep : t.dependencies) {
                    deps.add(new BalanceSnapshot.Dep(dep.bytes, dep.holders));
                }
                ts.add(new BalanceSnapshot.TaskView(t.key(), w.id, expected(t), deps, t.spec.restrictions(),
                        t.spec.isLongRunning(), t.spec.priority(), t.assignedOrder));
            }
        }
        return new BalanceSnapshot(ws, ts, fs);
    }

    private List<Move> balanceRound() {
        List<Move> moves = Balancer.balance(snapshot(), params);
        for (Move mv : moves) {
            TaskState t = tasks.get(mv.key());
            long id = ++stealSeq;
            t.stealId = id;
            inFlight.put(id, new PendingSteal(t, mv.victim(), mv.thief(), mv.level(), t.attempt));
            stealsRequested++;
            log(id, t.key(), mv.victim(), mv.thief(), mv.level(), StealEvent.Outcome.REQUESTED);
            send(mv.victim(), new Message.StealRequest(id, t.key(), t.attempt));
        }
        return moves;
    }

    private void onStealResponse(Message.StealResponse m) {
        Withdrawal wd = m.stealId() < 0 ? withdrawals.get(m.stealId()) : null;
        if (wd != null) {
            onWithdrawn(m, wd);
        } else {
            onSteal(m);
        }
        TaskState t = tasks.get(m.key());
        if (t != null && t.state == TaskState.State.PROCESSING && t.stealId == 0 && t.processingOn.stalled()) {
            stallsDirty = true;               // left (or put) on a stalled worker: stalls() looks at it
        }
    }

    /** A reply to a steal or to a retirement's move. */
    private void onSteal(Message.StealResponse m) {
        // looked up, not removed: a reply that names this steal but not its task, attempt or victim
        // (stale, misdirected or hostile) leaves it in flight for its own reply; else that reply
        // was stale too, and a task its victim released was on no worker while recorded there
        PendingSteal p = inFlight.get(m.stealId());
        TaskState t = p == null ? null : current(m.key(), m.attempt(), m.worker());
        if (p == null || t == null || t != p.task || p.victim != m.worker() || t.stealId != m.stealId()) {
            if (m.stealId() < 0) {
                // a retirement's move or a withdrawal from a stalled worker overtaken by events (its
                // record is gone once the task finished or was unassigned): not a steal, so not a
                // stale one either
                return;
            }
            stealsStale++;
            int victim = p == null ? m.worker() : p.victim;
            int thief = p == null ? -1 : p.thief;
            log(m.stealId(), m.key(), victim, thief, p == null ? -1 : p.level, StealEvent.Outcome.STALE);
            return;
        }
        inFlight.remove(m.stealId());
        t.stealId = 0;
        if (p.thief == CANCEL) {
            if (!m.released()) {
                t.withdrawalRefused = t.attempt;   // started: it runs to its end, and is not asked again
                return;
            }
            placeAgain(t, false);             // forgotten, unless a task submitted since needs it
            return;
        }
        if (p.thief == RETIRE) {
            if (m.released()) {               // not started: place it on an active worker
                placeAgain(t, false);
            }
            return;                           // started: it finishes on the retiring worker
        }
        if (!m.released()) {
            stealsRejected++;
            log(m.stealId(), t.key(), p.victim, p.thief, p.level, StealEvent.Outcome.REJECTED);
            return;
        }
        stealsConfirmed++;
        log(m.stealId(), t.key(), p.victim, p.thief, p.level, StealEvent.Outcome.CONFIRMED);
        unassign(t);
        t.setState(TaskState.State.WAITING);
        if (mayCancel(t)) {
            // cancelled, given up unstarted and needed by nobody: forgotten, as placement forgets
            // such a task (assigned to the thief at once, it ran there for nobody)
            return;
        }
        WorkerState thief = workers.get(p.thief);
        if (thief.active() && !thief.stalled() && t.spec.restrictions().allows(thief.id)) {
            assign(t, thief);
        } else {
            place(t);
        }
    }

    /** Logs a run the scheduler counted ({@link TaskEvent}): it ended now and took {@code nanos} on the worker. */
    private void logRun(TaskState t, int worker, long nanos, boolean failed) {
        long now = System.nanoTime();
        taskLog.add(new TaskEvent(++taskEvents, t.key(), worker, now - Math.max(0, nanos), now, failed));
    }

    private void log(long id, String key, int victim, int thief, int level, StealEvent.Outcome outcome) {
        StealEvent e = new StealEvent(id, key, victim, thief, level, outcome, System.nanoTime());
        stealLog.add(e);
        if (JfrGate.open() && ClusterStealEvent.enabled()) {
            ClusterStealEvent.emit(e);
        }
    }

    // ---- shutdown ------------------------------------------------------------------------

    /**
     * Stops the scheduler: every task not finished completes exceptionally with an
     * {@link IllegalStateException} naming it, and the records of tasks and workers are dropped.
     * Idempotent; a close racing another waits for it to finish (unless called from a callback of
     * a future, which returns at once). A first close from such a callback does not wait for the
     * notifier to end, which it is running on: the completions still queued there run after it.
     * A close from a {@link Transport} callback, on the scheduler's own thread, returns at once
     * too, first or second: the close runs as the next event, once the callback's returns, and a
     * close from another thread racing it waits for that event.
     */
    @Override
    public void close() {
        // one close runs: a second queued behind the first's event would never run (the loop ends
        // with the first), and its caller would wait for good
        if (!closing.compareAndSet(false, true)) {
            // but not in a future's callback, on the notifier's thread: the first close waits for
            // the notifier to finish, so the two would wait for each other; nor in a transport
            // callback, on the scheduler's thread, which the first close's event waits for
            if (!onThreadCloseWaitsFor()) {
                closeDone.join();
            }
            return;
        }
        if (Thread.currentThread() == thread) {
            // called from a transport callback, on the scheduler's own thread: an event would run
            // only after the current one returns, so waiting for it would never end. The close
            // runs as the next event instead, and this returns at once; the rest of the current
            // event still sees the records it is working on. A close racing this one waits for
            // that event (closeDone), as it waits for any first close to finish.
            events.add(() -> {
                try {
                    closeRecords();
                    events.clear();
                    notifier.shutdown();
                    awaitNotifier();
                } finally {
                    closeDone.complete(null);
                }
            });
            return;
        }
        try {
            stop();
        } finally {
            closeDone.complete(null);
        }
    }

    private void stop() {
        CompletableFuture<Void> drained = new CompletableFuture<>();
        events.add(() -> {
            closeRecords();
            drained.complete(null);
        });
        drained.join();
        thread.interrupt();
        events.clear();      // callers waiting on a dropped call see closed and throw
        notifier.shutdown();
        if (notifierThread.isCurrent()) {
            // closed from a future's callback: the notifier ends only once this callback returns, so
            // waiting for it would wait for ourselves; what it has queued still runs after us
            return;
        }
        awaitNotifier();
    }

    /** Waits (boundedly) for the notifier to run the completions the close queued, once shut down. */
    private void awaitNotifier() {
        try {
            notifier.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The close itself, on the scheduler's thread: marks it closed (the loop ends after this
     * event), ends the live workers, fails every unfinished future and drops the records, the
     * logs and the learned durations.
     */
    private void closeRecords() {
        closed = true;
        for (WorkerState w : workers) {
            if (w.alive) {
                // a retirement's completion, or a transport's wait for the worker to be gone
                // (gone), would otherwise wait for good: no event will come any more
                int id = w.id;
                String why = w.retiring ? "the cluster closed before worker " + id + " retired"
                        : "the cluster closed while worker " + id + " was alive";
                ended(w, new IllegalStateException(why));
            }
        }
        for (TaskState t : tasks.values()) {
            CompletableFuture<Object> f = t.future;
            if (f == null) {
                continue;                     // completed already
            }
            String key = t.key();
            notifier.execute(() -> f.completeExceptionally(
                    new IllegalStateException("the cluster closed before task '" + key + "' finished")));
        }
        // a caller may keep the closed cluster, or a future whose cleaner refers to this
        // scheduler: the records (functions, and a scattered value in its function) must not
        // stay reachable through it
        for (TaskState t : List.copyOf(tasks.values())) {
            untrack(t);
        }
        inFlight.clear();
        withdrawals.clear();
        awaitingWorker.clear();
        workers.clear();
        // nor the logs (up to 11,000 events, each naming a key) and the learned durations (up to
        // DurationEstimates.MAX_PREFIXES prefixes): nothing reads them once closed (stats and the
        // logs refuse), and an application that builds clusters one after another, keeping a
        // future of each, kept them all
        stealLog.clear();
        taskLog.clear();
        durations.clear();
    }

    /**
     * For tests, once closed (the close ran on the scheduler thread before {@link #close} returned):
     * the sizes of what the scheduler still holds, by name.
     */
    Map<String, Integer> closedForTests() {
        if (!closeDone.isDone()) {
            throw new IllegalStateException("not closed");
        }
        Map<String, Integer> m = new TreeMap<>();
        m.put("tasks", tasks.size());
        m.put("workers", workers.size());
        m.put("stealLog", stealLog.size());
        m.put("taskLog", taskLog.size());
        m.put("durationPrefixes", durations.prefixes());
        return m;
    }
}
