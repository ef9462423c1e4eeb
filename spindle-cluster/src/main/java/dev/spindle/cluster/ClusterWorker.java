/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import dev.spindle.pool.WorkStealingPool;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

/**
 * One worker: a data store, a {@link WorkStealingPool} that executes, and the protocol with the
 * scheduler.
 *
 * <h2>Implementation overview</h2>
 *
 * <p>Each assigned task becomes a {@link Job} whose state moves
 * {@code FETCHING -> READY -> EXECUTING -> DONE}, or to {@code RELEASED} when a steal takes it.
 * Dependencies the store lacks are fetched from their holders; when the last arrives the job is
 * READY, goes into a priority queue, and one ticket is handed to the pool. A ticket runs the
 * highest-priority READY job, so priorities hold even though the pool itself is not ordered.
 *
 * <p>One state per key, as in Dask's worker state machine: a value the worker holds is in the
 * store, and one it is fetching has a single fetch in {@code fetching} that every job needing it
 * joins, so a value is moved once, not once per task.
 *
 * <p>While a job executes, a timer reports it to the scheduler every
 * {@link #RUNNING_REPORT_NANOS} ({@link Message.TaskRunning}), so that a kind that runs far
 * longer than learned is re-estimated before it finishes. A worker in another JVM with a memory
 * limit also reports its store's memory, spilled bytes and pause on that timer when they change
 * ({@link Message.MemoryReport}), since the scheduler cannot read its store, and again, unchanged,
 * every {@link #MEMORY_REFRESH_ROUNDS} rounds: the scheduler takes the last report it receives, and
 * a transport may lose one without telling (Pekko's, sent before the coordinator is known) or
 * deliver it after the next (Hazelcast's, whose receiver hands frames to its executor on several
 * threads), so that, sent only on a change, a report overtaken or lost while the store then stayed
 * the same left stale figures at the scheduler for good. The refresh costs one small message per
 * such worker per second; within about a second of a report lost or overtaken, the scheduler
 * holds the figures again.
 *
 * <p>A worker with a memory limit also tells the scheduler on that timer when it stalls on
 * memory and when it stops ({@link Message.MemoryStall}): paused with only values that cannot
 * spill in memory, or that its disk refused ({@link DataStore#stuck}), and no task running, it can
 * start nothing until the scheduler releases a value or its disk takes a spill, so the report says
 * how many releases it had handled. Why a report that says stalled is true: the reporter looks at
 * the store before it counts the threads that passed the pause, and a thread counts itself before
 * it looks at the store a second time ({@link #runOne}); so either the report sees the thread, or
 * the thread sees the store paused and waits. A task that waits for another of its cluster
 * ({@link #helpUntil}) is not counted while it waits: counted, it hid the stall of a worker where
 * the task it waits for cannot start (a wait for a future the scheduler does not own still counts:
 * the scheduler cannot tell when it ends). The report names the keys such tasks wait for, read
 * under one lock with the count ({@link #awaiting}), so that the scheduler, once one of them
 * ends, takes the worker for one whose waiting task runs on until the next report, not for one
 * that nothing but the client could unstall. A release brings the memory of a stuck store down,
 * and it is counted; a spill the disk takes after refusing (each report tries again) does too,
 * and is not; and a waiting task resumes once what it waits for ends elsewhere: so the scheduler
 * never counts on a stall lasting, and takes a task back from a stalled worker only by a steal
 * request, which a task the worker started meanwhile survives. Once a worker has reported a stall,
 * it also sends its current state again, unchanged (stalled or not), every
 * {@link #MEMORY_REFRESH_ROUNDS} rounds, as its memory report: the reports are numbered, so an
 * overtaken one is ignored, but one lost on its way was never sent again while the state held, and
 * the scheduler's view stayed stale for good: a lost stall left the tasks queued on the worker,
 * which it never starts, there for good, and a lost end of a stall had the scheduler take tasks
 * back from a worker that would run them, and fail those only it may run. A repeated report is a
 * newer one that says the same: the scheduler takes it in place of the last, and acts only on
 * what changed.
 *
 * <p>Why a stolen task never runs twice: a ticket starts a job only by a compare-and-set from
 * READY to EXECUTING, and a steal request releases it only by a compare-and-set from FETCHING or
 * READY to RELEASED. Exactly one of them wins. The reply tells the scheduler which did, so the
 * scheduler re-assigns the task only after the victim has given it up. A steal request can
 * overtake its task on a transport that reorders frames (Hazelcast): finding no job of its
 * attempt, the worker tells a task still on its way (given up now, and dropped when it arrives:
 * {@code withdrawn}) from one that arrived and ended here ({@code departures}: refused, as a started
 * one is), so the reply is true either way; answered "not released", a withdrawal from a stalled
 * worker was never asked again and the task waited there for good.
 *
 * <p>Threads: the scheduler's messages are handled one at a time ({@link #receive}), in any
 * order: the in-process transport delivers them on its one thread, and a {@link WorkerNode}
 * handles one at a time whichever threads deliver them. The rules for messages that overtake each
 * other rely on it: each looks at what other messages left (a release recorded, a fetch in
 * flight, a job in the map) and then acts, with no other message handled in between. Concurrent
 * with that handling, and written for it: the pool's threads (a job's start and end, by
 * compare-and-set and under the job's entry in {@link Tables#jobs}), fetch completions (on the
 * transport's threads, under the key's entry in {@link Tables#fetching}), the reporter, and another
 * worker's fetch of a value ({@link #store}, which has its own lock). Every map is a concurrent
 * one or guarded by a named lock; {@link #early} guards what the message rules share, and is also
 * taken on paths that are not message handling.
 *
 * <p>Tickets never run short: every job that became READY handed in one ticket, and each ticket
 * takes at most one job, so the queue never holds more jobs than there are tickets to come.
 *
 * <p>The one invariant the release count ({@link Message.Compute#releases}, see {@link #release})
 * relies on: every {@link Message.ReleaseKey} the scheduler counts for a worker's incarnation
 * (WorkerState.releasesSent, a fresh count for each incarnation, as this worker's is) reaches
 * that incarnation, in whatever order. A transport may reorder frames but must drop none of
 * those releases while the incarnation lives: a release too large for a frame travels as a
 * release of the empty key, and a task that cannot travel (its function too large, or its
 * serialisation refused or throwing) fails alone, without the batch it was sent in
 * ({@link CoordinatorTransportSupport#wireForms}). One release lost holds back every later task
 * here for good. Each release carries its number ({@link Message.ReleaseKey#index}), so that a
 * release drops only the job of its key sent before it, whatever the arrival order: a job sent
 * after it may be the key's current attempt, which must run and report.
 */
final class ClusterWorker {

    static final int FETCHING = 0;
    static final int READY = 1;
    static final int EXECUTING = 2;
    static final int DONE = 3;
    static final int RELEASED = 4;

    /** Tasks executing longer than this are reported to the scheduler, once per interval. */
    static final long RUNNING_REPORT_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    /**
     * Report rounds after which an unchanged {@link Message.MemoryReport}, and the unchanged state
     * of a worker that has reported a stall ({@link Message.MemoryStall}), are sent again (about a
     * second), so that one lost or overtaken on its way is corrected (see the overview).
     */
    static final int MEMORY_REFRESH_ROUNDS = 10;

    private static final System.Logger LOG = System.getLogger(ClusterWorker.class.getName());

    /** One timer thread for every worker of the JVM; it only scans jobs and sends reports. */
    private static final ScheduledExecutorService REPORTER =
            Executors.newSingleThreadScheduledExecutor(ClusterWorker::reporterThread);

    /**
     * The {@link #REPORTER}'s thread. The executor makes it on the first worker's schedule, on
     * whichever thread builds that worker, and it lives as long as the JVM: it takes nothing of
     * that thread. No inherited {@link InheritableThreadLocal} values, the system class loader
     * rather than the builder's (a web application's was pinned after its cluster closed; not
     * null: a stalled report retries spills here, which runs the values' own serialisation, as
     * the async timer and shared reactors run callers' wakers), and normal priority.
     */
    static Thread reporterThread(Runnable r) {
        Thread t = new Thread(null, r, "cluster-running-reports", 0, false);
        t.setDaemon(true);
        t.setContextClassLoader(ClassLoader.getSystemClassLoader());
        t.setPriority(Thread.NORM_PRIORITY);
        return t;
    }

    private static final long PAUSE_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    /**
     * The worker whose task the current thread runs, set by {@link #runOne} for the length of its
     * run; for {@link #helpUntil} and {@link #runningTask}. Cleared as the run ends: kept, a pool
     * thread that had once run a task passed for one running a task of that worker for good, so a
     * fork/join subtask it took from a running task, waiting for a future of the cluster, was taken
     * for a waiting task and uncounted although nothing had counted it ({@link #running}), and the
     * worker could report a stall while the task that forked it ran.
     */
    private static final ThreadLocal<ClusterWorker> CURRENT = new ThreadLocal<>();
    /**
     * The task (key and attempt) whose function the calling thread runs, so that a task submitting
     * more tasks is known to the scheduler as their submitter (see {@link GraphScheduler#submit}).
     */
    private static final ThreadLocal<Message.Compute> RUNNING = new ThreadLocal<>();

    /**
     * Higher priority first, then the scheduler's assignment order (attempt numbers grow with each
     * assignment), then arrival: a transport may deliver the scheduler's frames out of order, and
     * a task assigned first should start first. Reversed with a comparator, not by negating the
     * priority: {@code -Integer.MIN_VALUE} is {@code Integer.MIN_VALUE}, which put the lowest
     * priority first.
     */
    private static final Comparator<Job> ORDER =
            Comparator.comparingInt((Job j) -> j.compute.priority()).reversed()
                    .thenComparingLong(j -> j.compute.attempt()).thenComparingLong(j -> j.seq);

    private final int id;
    private final int threads;
    private final Transport transport;
    /**
     * Null once stopped ({@link #stop}): a gone worker stays referenced by its cluster for good (its
     * id is an index), and a stopped pool kept its threads' records and deques. Not volatile: a
     * thread that still reads the stopped pool is refused by it, as before (see {@link #makeReady}),
     * and one that reads null finds no object whose contents could be seen half-made; every reader
     * reads it once into a local and checks for null.
     */
    private WorkStealingPool pool;
    private final DataStore store;
    /**
     * The jobs, fetches and queue of this worker, replaced whole, by new, empty ones, once stopped
     * ({@link #stop}): the worker stays referenced by its cluster, and their tables keep the size of
     * their fullest moment (neither a hash table nor a priority queue shrinks when emptied).
     *
     * <p>Neither final nor volatile, and read with no lock by pool threads and fetch completions
     * that may still run as the worker stops: safe all the same because a {@link Tables} holds
     * them in final fields. Whoever reads a reference to one sees it as its constructor left it,
     * the structures it made included (the Java memory model's rule for final fields), whether the
     * read races with the stop's write or not. Replaced one by one through plain fields, as
     * before, the new queue could be read by such a thread without its array (the queue keeps it
     * in a field that is not final), and fail there. Volatile, it would cost an ordered read on
     * each task's path for the sake of the one write at the stop. A thread that reads the old one
     * after the stop acts on structures nothing reads any more. A task reads it once
     * ({@link #runReady}) and keeps to what it read, as does each message and fetch.
     */
    private Tables tables = new Tables();
    private final AtomicLong seq = new AtomicLong();
    private final AtomicLong executed = new AtomicLong();
    private final ScheduledFuture<?> reports;
    private final boolean reportMemory;
    /** The last {@link Message.MemoryReport} sent; touched by the reporter thread only. */
    private Message.MemoryReport lastMemoryReport;
    /** Report rounds since {@link #lastMemoryReport} was sent; touched by the reporter thread only. */
    private int memoryRoundsSinceReport;
    /** {@link Message.ReleaseKey}s handled, each counted once its value is gone. */
    private final AtomicLong releases = new AtomicLong();
    /**
     * Tasks and copy orders that arrived ahead of releases the scheduler sent before them
     * ({@link Message.Compute#releases}, {@link Message.Replicate#releases}), in arrival order;
     * each is taken once those releases were handled ({@link #admitted}). A task taken early would
     * read a released value as its input or lose its result to the release; a copy order would
     * report a released, earlier value of its key as the copy, which the release then drops.
     * Guarded by itself.
     */
    private final ArrayList<Held> early = new ArrayList<>();

    /** A message held back in {@link #early}: its key and the releases sent before it. */
    private record Held(Message.ToWorker message, String key, long releases) {
    }

    /**
     * Which numbered releases were handled: all of {@code 1..releasedPrefix}, and those above it
     * in {@code releasedAbove} (arrived ahead of an earlier one). A task is admitted only once
     * every release sent before it was handled, not merely as many releases: a release sent
     * before it but handled after it would drop the value it stores. Guarded by {@link #early}.
     */
    private long releasedPrefix;
    private Set<Long> releasedAbove = new HashSet<>();
    /** Releases of unknown number ({@link Message.ReleaseKey#index} 0) handled; guarded by {@link #early}. */
    private long unnumberedReleases;
    /**
     * The numbered releases handled, by key, the highest number: each may have overtaken a task
     * it abandons, even one that found something of its key here (a copy, a fetch: the task may be
     * on its way all the same, and be admitted later with the current attempt it would replace). A
     * task of the key sent before it ({@code releases < index}) is dropped when it arrives (it
     * would store a stale value, read by a dependent placed here, or replace the current attempt).
     * Kept when such a task is dropped: several may be on their way (a key resubmitted twice while
     * its attempts travelled here, each release overtaking its own), and every one sent before the
     * release is stale, not only the first to arrive. Bounded, the eldest forgotten first, since
     * most releases overtook nothing and have no task to meet them (a forgotten one leaves the
     * scheduler's release of the stale copy, GraphScheduler.ignoredResult, to clean up). A task
     * sent before such a release that needs the key as an input does not fetch it either
     * ({@link #releasedSinceSent}). Guarded by {@link #early}; replaced, empty, once stopped
     * ({@link #stop}), as are {@link #withdrawn} and {@link #releasedAbove}.
     */
    private Map<String, Long> overtaken = recentKeys();
    static final int MAX_OVERTAKEN = 4096;

    /** A map of keys that forgets its eldest past {@link #MAX_OVERTAKEN} ({@link #overtaken}, {@link #withdrawn}). */
    private static Map<String, Long> recentKeys() {
        return new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
                return size() > MAX_OVERTAKEN;
            }
        };
    }
    /**
     * Steal requests (a balance steal, a retirement's move, a withdrawal from a stalled worker)
     * that overtook the task they name: key to the attempt. A transport may deliver the
     * scheduler's frames out of order (Hazelcast does), and a steal request that finds no job here
     * and no sign that its attempt ever arrived ({@link #departures}, {@link #early}) is for a task still
     * on its way: it is answered as released, which is then true, since the task is dropped when it
     * arrives. Answered "not released", the scheduler would take the task for started: a
     * withdrawal is never asked again, and a stalled worker kept the task, which it never starts,
     * for good. Removed when the task arrives; bounded, the eldest forgotten first (a forgotten one
     * lets the late task run, and the scheduler ignores its result as a stale attempt's). Guarded
     * by {@link #early}.
     */
    private Map<String, Long> withdrawn = recentKeys();
    /**
     * The attempts that arrived and left the jobs here lately (finished, failed, or missing an
     * input), the newest {@link #MAX_OVERTAKEN}: a steal request for one of them comes after its
     * task ended, and must be answered "not released" (the scheduler may not have its report yet,
     * and would run it again), not taken for one that overtook its task. A steal request arrives
     * within a round trip of the task's end, far fewer departures than the bound later. A ring
     * written without a lock (one atomic increment and one volatile store a task, on the pool
     * threads' path): a map under the {@link #early} lock here made tiny in-process tasks about
     * 10 % slower on 2 cores (BENCHMARKS, session 41). A departure is stored before its job leaves
     * {@link Tables#jobs}, and a steal request looks here only after {@link Tables#jobs} showed it no job, so
     * it sees the departure (the map's removal and read order the two). Null once stopped
     * ({@link #stop}), as {@link #pool}, for the same reason: 16 KB a gone worker; a task still
     * ending then records nothing, or records into the ring let go, which nothing reads. Set to
     * null only, so a racing reader sees the ring made with the worker or null, never a half-made
     * one; each reader reads it once and checks for null.
     */
    private AtomicReferenceArray<Departure> departures = new AtomicReferenceArray<>(MAX_OVERTAKEN);
    private final AtomicInteger departuresNext = new AtomicInteger();

    /** An attempt that left the jobs here (see {@link #departures}). */
    private record Departure(String key, long attempt) {
    }

    /** Pool threads past the pause, about to run a job or running one (see the overview). */
    private final AtomicInteger running = new AtomicInteger();
    /**
     * The keys of this worker's cluster that tasks waiting here ({@link #helpUntil}) wait for, with
     * how many wait for each: a stall report names them ({@link Message.MemoryStall#awaited}). Its
     * lock also covers a waiting task's change of {@link #running}, so that a report that says
     * stalled because a task waits names what it waits for.
     */
    private final Map<String, Integer> awaiting = new HashMap<>();
    /** The last {@link Message.MemoryStall} sent; touched by the reporter thread only. */
    private Message.MemoryStall lastStall;
    /** The stall reports sent, which number them ({@link Message.MemoryStall#report}); reporter thread only. */
    private long stallReports;
    /** Report rounds since {@link #lastStall} was sent; touched by the reporter thread only. */
    private int stallRoundsSinceReport;

    /** Whether the last report round threw (the reporter's thread only): its failure was logged. */
    private boolean reportFailing;
    private volatile boolean alive = true;
    /**
     * The scheduler of this worker's cluster, the owner of that cluster's futures
     * ({@link ClusterFuture}), set by {@link LocalCluster}; null for a {@link WorkerNode}'s worker,
     * whose scheduler is reached through its transport, in another JVM or in this one (see
     * {@link #isOf}). A task waiting for a future runs the awaited task only on a worker of the
     * future's cluster ({@link #helpUntil}), and a task is the submitter only of what it submits to
     * its own cluster ({@link #runningTask}).
     */
    private volatile Object cluster;

    ClusterWorker(int id, int threads, Transport transport) {
        this(id, threads, transport, 0);
    }

    /** @param memoryLimit the data store's memory limit in bytes (spilling above it); 0 for none */
    ClusterWorker(int id, int threads, Transport transport, long memoryLimit) {
        this(id, threads, transport, new WorkerMemory(memoryLimit, null), false);
    }

    /**
     * @param memory the data store's memory limit and spill directory
     * @param reportMemory whether to report the store's figures to the scheduler (a worker in
     *        another JVM, whose store the scheduler cannot read)
     */
    ClusterWorker(int id, int threads, Transport transport, WorkerMemory memory, boolean reportMemory) {
        this.store = new DataStore(memory);
        this.reportMemory = reportMemory;
        this.id = id;
        this.threads = threads;
        this.transport = transport;
        this.pool = WorkStealingPool.builder().workers(threads).name("cluster-worker-" + id).daemon(true).build();
        this.reports = REPORTER.scheduleWithFixedDelay(this::reportRound, RUNNING_REPORT_NANOS,
                RUNNING_REPORT_NANOS, TimeUnit.NANOSECONDS);
    }

    /**
     * One round of the periodic report. A scheduled executor stops repeating a task whose run
     * throws: one failed send (a transport that failed for a moment, an {@link Error} from a
     * value's serialisation while a stalled store spills) would end this worker's running, memory
     * and stall reports for good, and a stall never reported leaves the cluster waiting on it. So
     * a round that throws is logged and the next round comes as usual; what it did not send is
     * sent by a later round (each sends what is true then, not a delta).
     */
    private void reportRound() {
        try {
            reportRunning();
            reportFailing = false;
        } catch (Throwable t) {
            if (reportFailing) {
                return;                       // logged when the rounds began to fail: no line every 100 ms
            }
            reportFailing = true;
            try {
                LOG.log(System.Logger.Level.WARNING, "worker " + id
                        + ": a periodic report failed; the next rounds report again (further failures unlogged until one succeeds)", t);
            } catch (Throwable ignored) {
                // a logger that fails (out of memory) must not end the reports either
            }
        }
    }

    /** Reports every job executing for longer than the report interval (Dask's heartbeat). */
    private void reportRunning() {
        if (!alive) {
            return;
        }
        long now = System.nanoTime();
        for (Job job : tables.jobs.values()) {
            if (job.state.get() != EXECUTING) {
                continue;
            }
            long elapsed = now - job.startNanos;      // written before the CAS to EXECUTING read above
            if (elapsed >= RUNNING_REPORT_NANOS) {
                transport.toScheduler(new Message.TaskRunning(id, job.compute.key(), job.compute.attempt(), elapsed));
            }
        }
        if (reportMemory) {
            Message.MemoryReport m = new Message.MemoryReport(id, store.memoryBytes(), store.spilledBytes(),
                    store.paused());
            // on a change, and unchanged every MEMORY_REFRESH_ROUNDS rounds: the scheduler keeps the
            // last report it receives, which a report lost or overtaken on its way left stale
            if (!m.equals(lastMemoryReport) || ++memoryRoundsSinceReport >= MEMORY_REFRESH_ROUNDS) {
                transport.toScheduler(m);
                lastMemoryReport = m;         // after the send: one that threw is sent again next round
                memoryRoundsSinceReport = 0;
            }
        }
        if (store.limit() > 0) {
            reportStall();
        }
    }

    /**
     * Tells the scheduler when this worker stalls on memory, when its figures change while it is
     * stalled, and when it stops, and, once it has stalled, its state again unchanged every
     * {@link #MEMORY_REFRESH_ROUNDS} rounds (see the overview). A stuck store first spills what it
     * kept in memory for a task, and tries again the values its disk refused, here on the
     * reporter's thread, since no task of this worker runs.
     */
    private void reportStall() {
        long handled = releases.get();        // first: a release during the look makes the report out of date, not wrong
        boolean stuck = store.stuck();
        boolean stalled;
        List<String> awaited;
        synchronized (awaiting) {             // the count with the keys its waiting tasks wait for
            stalled = stuck && running.get() == 0;   // the store, then the count (see runOne)
            awaited = stalled ? List.copyOf(new TreeSet<>(awaiting.keySet())) : List.of();
        }
        Message.MemoryStall m = stalled
                ? new Message.MemoryStall(id, true, handled, store.memoryBytes(), store.limit(), 0, awaited)
                : new Message.MemoryStall(id, false, 0, 0, store.limit());
        // on a change, and unchanged every MEMORY_REFRESH_ROUNDS rounds once a stall was reported:
        // the scheduler keeps the last report it takes, which a report lost on its way left stale
        if (lastStall == null ? stalled
                : !m.equals(lastStall) || ++stallRoundsSinceReport >= MEMORY_REFRESH_ROUNDS) {
            transport.toScheduler(new Message.MemoryStall(m.worker(), m.stalled(), m.releases(), m.memoryBytes(),
                    m.limitBytes(), ++stallReports, m.awaited()));
            // compared without its number, which every report changes; recorded after the send, so
            // that one that threw is sent again next round (under a later number: the scheduler
            // takes any number at or above the last it saw)
            lastStall = m;
            stallRoundsSinceReport = 0;
        }
    }

    /** Records the scheduler this worker serves, the owner of its cluster's futures (see {@link #cluster}). */
    void serves(Object scheduler) {
        this.cluster = scheduler;
    }

    /**
     * Whether this worker serves {@code scheduler}, the owner of a future: the one recorded by
     * {@link #serves}, or, when none was (a {@link WorkerNode}), a scheduler in this JVM that sends
     * to it through the very transport it reports through, as a coordinator and its nodes sharing
     * one in-process transport do. Without the second, a task of such a node was neither the
     * submitter of what it submitted to its own coordinator, so that its retry was refused the
     * same keys, nor a helper of what it waited for there, as a {@link LocalCluster} worker's is.
     * A scheduler reached through another transport object is taken for another cluster's.
     */
    private boolean isOf(Object scheduler) {
        Object mine = cluster;
        return mine != null ? mine == scheduler : scheduler instanceof GraphScheduler s && s.sendsThrough(transport);
    }

    int id() {
        return id;
    }

    int threads() {
        return threads;
    }

    DataStore store() {
        return store;
    }

    boolean isAlive() {
        return alive;
    }

    long executed() {
        return executed.get();
    }

    /**
     * For tests: the sizes of this worker's per-key structures (jobs, fetches, queued and early
     * tasks, stored values, the releases and departures it remembers).
     */
    Map<String, Integer> retainedForTests() {
        Map<String, Integer> m = new TreeMap<>();
        int departed = 0;
        AtomicReferenceArray<Departure> ring = departures;
        for (int i = 0; ring != null && i < ring.length(); i++) {
            departed += ring.get(i) != null ? 1 : 0;
        }
        m.put("departures", departed);
        Tables t = tables;
        m.put("jobs", t.jobs.size());
        m.put("fetching", t.fetching.size());
        m.put("ready", t.ready.size());
        synchronized (early) {
            m.put("early", early.size());
            m.put("overtaken", overtaken.size());
            m.put("withdrawn", withdrawn.size());
            m.put("releasedAbove", releasedAbove.size());
        }
        m.put("stored", store.keys());
        return m;
    }

    /**
     * For tests: the tables of the releases and steal requests it remembers, of the releases
     * handled out of order, of its store's values, of its jobs and of its queue, the very objects.
     */
    List<Object> tablesForTests() {
        Tables t = tables;
        synchronized (early) {
            return List.of(overtaken, withdrawn, releasedAbove, store.tablesForTests(), t.jobs, t.ready);
        }
    }

    /**
     * For tests: what this worker holds besides its per-key structures, by name: the slots of its
     * departures ring ({@code ringSlots}) and its pool's threads ({@code poolThreads}), 0 once it
     * let them go.
     */
    Map<String, Integer> footprintForTests() {
        Map<String, Integer> m = new TreeMap<>();
        AtomicReferenceArray<Departure> ring = departures;
        m.put("ringSlots", ring == null ? 0 : ring.length());
        m.put("poolThreads", pool == null ? 0 : threads);
        return m;
    }

    /**
     * Handles a message from the scheduler; called on the transport's delivery thread, one message
     * at a time (see the overview).
     */
    void receive(Message.ToWorker message) {
        if (!alive) {
            return;
        }
        if (message instanceof Message.Compute c) {
            if (!heldBack(c, c.key(), c.releases())) {
                compute(c);
            }
        } else if (message instanceof Message.StealRequest r) {
            steal(r);
        } else if (message instanceof Message.ReleaseKey r) {
            release(r.key(), r.index());
        } else if (message instanceof Message.Replicate r) {
            if (!heldBack(r, r.key(), r.releases())) {
                replicate(r);
            }
        }
    }

    /**
     * Whether task or copy order {@code m} is not to be taken now: it was sent before a release of
     * its key that overtook it (dropped: its value is no longer wanted), or it overtook a release
     * sent before it (held in {@link #early}, taken once that is handled, see {@link #release}).
     */
    private boolean heldBack(Message.ToWorker m, String key, long releases) {
        synchronized (early) {
            Long abandonedBy = overtaken.get(key);
            if (abandonedBy != null && releases < abandonedBy) {
                return true;
            }
            if (!admitted(releases)) {
                early.add(new Held(m, key, releases));
                return true;
            }
            return false;
        }
    }

    /** Takes a message {@link #early} held back, now admitted. */
    private void take(Held h) {
        if (h.message() instanceof Message.Compute c) {
            compute(c);
        } else {
            replicate((Message.Replicate) h.message());
        }
    }

    /**
     * Keeps a copy of a retiring worker's value: the one fetch per key, which reports
     * {@link Message.DataAdded} when it stores the value. A value held already is reported again,
     * since the scheduler waits for the report; a fetch that no holder answers is reported as
     * {@link Message.ReplicaFailed}, for the same reason.
     */
    private void replicate(Message.Replicate r) {
        long handled = handledInOrder();      // before the look: see handledInOrder
        CompletableFuture<Object> fetch = fetchShared(tables, r.key(), r.holders());
        if (fetch == null) {
            transport.toScheduler(new Message.DataAdded(id, r.key(), 0, handled));
            return;
        }
        fetch.whenComplete((value, error) -> {
            if (error != null && alive) {
                transport.toScheduler(new Message.ReplicaFailed(id, r.key()));
            }
        });
    }

    /**
     * Drops the value of {@code key}, and abandons a fetch of it in flight: the scheduler releases
     * a key only when no task of it here needs the value, and a fetch that landed later would
     * keep a copy nobody counts, or (once the key was forgotten and submitted again) an earlier
     * value under the new key's name. The fetch's completion finds itself gone from
     * {@code fetching} and stores nothing, nor asks the holders not yet tried ({@link #fetchFrom});
     * a task that needs the key again starts a fresh fetch.
     *
     * <p>Then it takes the tasks that arrived ahead of this release. The transport may deliver the
     * scheduler's frames out of order (Hazelcast does), so a task the scheduler assigned after this
     * release, one that reads {@code key} or computes it again, may arrive first: it would read the
     * released value as its input, or have its own result dropped by the release. Each task names
     * the releases sent before it ({@link Message.Compute#releases}) and waits in {@code early}
     * until they are handled; this is the one ordering of the scheduler's messages the worker
     * relies on, and it does not rely on the transport for it.
     *
     * <p>A job of the key here is abandoned as well: the scheduler releases a key where its
     * current attempt does not run, so such a job is a stale one (an attempt a retried task's
     * resubmission replaced, see GraphScheduler.supersede). Queued, it never runs; running, its
     * value is not stored ({@link #run}), since a dependent here would read it for the new one's.
     * Which tasks were sent before the release is told by numbers, not by arrival: a task sent
     * before it ({@code releases < index}) is abandoned even if it arrived later (it waits in
     * {@code early} then), and one sent after it is kept even if it arrived first (the count it
     * waits for may be reached by other releases handled meanwhile); dropped, that one, the key's
     * current attempt, would never run nor report. A release may have overtaken a task it
     * abandons: it is kept ({@link #overtaken}) so that the task, when it arrives, is dropped
     * instead of storing a stale value or replacing the current attempt.
     */
    private void release(String key, long index) {
        Tables t = tables;
        t.jobs.computeIfPresent(key, (k, job) -> {
            if (index != 0 && job.compute.releases() >= index) {
                // sent after this release, which it overtook (a release of unknown number
                // admits on the count): the current attempt, which must run and report
                return job;
            }
            job.state.set(RELEASED);
            t.ready.remove(job);
            return null;
        });
        t.fetching.compute(key, (k, inFlight) -> {
            store.remove(k);
            return null;
        });
        releases.incrementAndGet();           // after the value is gone: a stall report that counts it saw it gone
        List<Held> due = new ArrayList<>();
        synchronized (early) {                // counted before the look, so no task is left behind (see heldBack)
            handled(index);
            // a task or copy of the key sent before this release (it overtook it) is abandoned as
            // a job here would be: taken, it would store (or report) the stale value the release drops
            for (Iterator<Held> it = early.iterator(); it.hasNext(); ) {
                Held h = it.next();
                if (h.releases() < index && h.key().equals(key)) {
                    it.remove();
                } else if (admitted(h.releases())) {
                    it.remove();
                    due.add(h);
                }
            }
            if (index != 0) {
                overtaken.merge(key, index, Math::max);   // the task it abandons may be on its way
            }
        }
        for (Held h : due) {
            take(h);
        }
    }

    /**
     * How many releases were handled in the order sent (every numbered one up to it; releases of
     * unknown number by count), for a report of a copy ({@link Message.DataAdded#releases}). Read
     * before the copy is stored: a release of its key handled after that drops the copy, and the
     * report, which names a count below that release's number, is then known to the scheduler for
     * one older than the release (see {@link #release}, which drops the value before it counts
     * the release). Not {@link #releases}: on a transport that reorders frames, a count that took
     * later releases for earlier ones would name a release not handled.
     */
    private long handledInOrder() {
        synchronized (early) {
            return releasedPrefix + unnumberedReleases;
        }
    }

    /** Records release {@code index} handled; under {@link #early}. */
    private void handled(long index) {
        if (index == 0) {
            unnumberedReleases++;
        } else if (index == releasedPrefix + 1) {
            releasedPrefix++;
            while (releasedAbove.remove(releasedPrefix + 1)) {
                releasedPrefix++;
            }
        } else if (index > releasedPrefix) {
            releasedAbove.add(index);
        }
    }

    /**
     * Whether a task sent after {@code sent} releases may start: every numbered release up to it
     * was handled (releases of unknown number stand in for numbered ones, by count); under
     * {@link #early}.
     */
    private boolean admitted(long sent) {
        return releasedPrefix + unnumberedReleases >= sent;
    }

    private void compute(Message.Compute c) {
        Tables t = tables;
        Job job = new Job(c, seq.incrementAndGet());
        Job old;
        // under the lock of a steal request's look for a task that it overtook (see overtook): the
        // job is in the map before the request looks, or the request was given up before it is
        synchronized (early) {
            Long stolen = withdrawn.get(c.key());
            if (stolen != null && c.attempt() <= stolen) {
                if (c.attempt() == stolen) {
                    withdrawn.remove(c.key());
                }
                supersede(t, c);
                return;                       // given up to a steal request that overtook it
            }
            old = t.jobs.put(c.key(), job);
        }
        if (old != null) {
            old.state.set(RELEASED);      // a newer attempt supersedes it
            t.ready.remove(old);
        }
        List<String> missing = new ArrayList<>();
        for (String dep : c.dependencies()) {
            if (!store.contains(dep)) {
                missing.add(dep);
            }
        }
        job.pending.set(missing.size());
        if (missing.isEmpty()) {
            makeReady(t, job);
            return;
        }
        String released = releasedSinceSent(c, missing);
        if (released != null) {
            // sent before a release of this input that overtook it: arrived first, the job would
            // have lost its fetch (or its copy) to that release and reported the input missing, so it
            // does now. Fetched after the release, the copy was reported naming only the releases
            // handled in order; with an earlier one of another key still on its way, the report named
            // fewer than the scheduler had sent when it asked for the key again, so it was ignored
            // (GraphScheduler.onDataAdded), and the copy was counted nowhere until the key's next release
            if (job.state.compareAndSet(FETCHING, RELEASED)) {
                departed(job);
                t.jobs.remove(c.key(), job);
                transport.toScheduler(new Message.DataMissing(id, c.key(), c.attempt(), released, -1));
            }
            return;
        }
        for (String dep : missing) {
            await(t, job, dep, c.holders().getOrDefault(dep, List.of()));
        }
    }

    /**
     * One of {@code missing}, inputs of task {@code c} that this worker lacks, that a release handled
     * here was sent after {@code c} ({@link #overtaken}); null if none (or if that release was
     * forgotten since, see {@link #MAX_OVERTAKEN}).
     */
    private String releasedSinceSent(Message.Compute c, List<String> missing) {
        synchronized (early) {
            for (String dep : missing) {
                Long index = overtaken.get(dep);
                if (index != null && c.releases() < index) {
                    return dep;
                }
            }
            return null;
        }
    }

    /**
     * Makes {@code job} wait for {@code dep}: it joins the fetch in flight for that key, or starts
     * one. The store is checked again inside {@code compute}, because a fetch stores its value
     * before it leaves the map: a job that finds no fetch in the map finds the value. The fetch
     * starts outside {@code compute}, since its completion removes the map entry.
     */
    private void await(Tables t, Job job, String dep, List<Integer> holders) {
        CompletableFuture<Object> shared = fetchShared(t, dep, holders);
        if (shared == null) {
            if (job.pending.decrementAndGet() == 0) {
                makeReady(t, job);            // arrived meanwhile
            }
            return;
        }
        shared.whenComplete((value, error) -> {
            if (!alive) {
                return;
            }
            if (error != null) {
                int holder = error instanceof Missing m ? m.holder : -1;
                if (job.state.compareAndSet(FETCHING, RELEASED)) {
                    departed(job);            // first: a steal request between the two finds one or the other
                    t.jobs.remove(job.compute.key(), job);
                    transport.toScheduler(new Message.DataMissing(id, job.compute.key(), job.compute.attempt(), dep,
                            holder));
                }
            } else if (job.pending.decrementAndGet() == 0) {
                makeReady(t, job);
            }
        });
    }

    /**
     * The fetch of {@code dep} in flight, joined or started from {@code holders}; null if the
     * store holds it (see {@link #await} for why the store is checked inside {@code compute}).
     */
    private CompletableFuture<Object> fetchShared(Tables t, String dep, List<Integer> holders) {
        boolean[] started = {false};
        CompletableFuture<Object> shared = t.fetching.compute(dep, (k, inFlight) -> {
            if (inFlight != null || store.contains(k)) {
                return inFlight;
            }
            started[0] = true;
            return new CompletableFuture<>();
        });
        if (started[0]) {
            fetchFrom(t, dep, holders, 0, shared);
        }
        return shared;
    }

    /** Tries the holders in turn; {@code done} is the one fetch of {@code dep} that jobs share. */
    private void fetchFrom(Tables t, String dep, List<Integer> holders, int index, CompletableFuture<Object> done) {
        if (t.fetching.get(dep) != done) {
            // released meanwhile (see release): abandoned, as when the value lands (below). Going on
            // to the next holders asked each, up to the fetch timeout, for a value nobody wanted,
            // and kept the stale jobs waiting on it that long
            done.completeExceptionally(new Missing(-1));
            return;
        }
        if (index >= holders.size()) {
            t.fetching.remove(dep, done);
            done.completeExceptionally(new Missing(holders.isEmpty() ? -1 : holders.get(holders.size() - 1)));
            return;
        }
        CompletableFuture<Object> fetch;
        try {
            fetch = transport.fetch(dep, holders.get(index), id);
        } catch (RuntimeException | Error e) {
            // a transport that throws rather than failing the fetch (one closing, say) failed it
            // from this holder all the same: escaping here, the throwable left the shared fetch
            // uncompleted, and every task waiting for the value waited for good (thrown from the
            // callback below, where a previous holder's failure tries the next, it was swallowed;
            // thrown into the handling of a frame, it lost the rest of the frame)
            fetch = CompletableFuture.failedFuture(e);
        }
        fetch.whenComplete((value, error) -> {
            if (!alive) {
                return;
            }
            if (error != null) {
                fetchFrom(t, dep, holders, index + 1, done);
                return;
            }
            long measured;
            try {
                measured = Sizes.measure(value);
            } catch (Throwable e) {
                // it was measured when produced, but this copy may not be the value measured: one read
                // back from its holder's spill file (a transient field its writeObject uses left unset)
                // or decoded from the wire. Escaping this callback, the throwable completed the shared
                // fetch never, and every task waiting for the value waited for good; counted as 0, the
                // copy is stored and read as any other (and stays in memory: it cannot spill either)
                measured = 0;
            }
            long size = measured;
            long handled = handledInOrder();  // before the store: see handledInOrder
            boolean[] current = {false};
            boolean[] stored = {false};
            t.fetching.computeIfPresent(dep, (k, inFlight) -> {
                if (inFlight != done) {
                    return inFlight;          // released meanwhile (see release), and perhaps fetched anew
                }
                current[0] = true;
                if (!store.contains(k)) {
                    store.put(k, value, size);
                    stored[0] = true;
                }
                return null;                  // leaves the map once the store holds it: see await
            });
            if (!current[0]) {
                // the scheduler released the key while it travelled: the jobs that waited for it
                // are stale ones, whose reports it ignores
                done.completeExceptionally(new Missing(-1));
                return;
            }
            if (stored[0]) {
                transport.toScheduler(new Message.DataAdded(id, dep, size, handled));
            }
            done.complete(value);
        });
    }

    /**
     * Reports that this worker's copy of {@code key} was lost as it served another worker's fetch
     * (its spill file unreadable; the store dropped it, {@link DataStore.Lost}). The requester goes
     * on to the next holder and, if one answers, reports nothing, and if none does, names only the
     * last it tried: unreported, the scheduler went on counting this copy for as long as the key was
     * held (its keys and memory, a holder named first to every fetcher, tasks placed here for it). A
     * {@link Message.DataMissing} of no task (attempt 0) naming this worker as the holder, handled as
     * a report of an attempt no longer current is (the copy uncounted, and computed again for the
     * tasks waiting for it if it was the last). A task of this worker that reads a lost input
     * reports it with its own attempt instead ({@link #run}).
     */
    void copyLost(String key) {
        if (alive) {
            transport.toScheduler(new Message.DataMissing(id, key, 0, key, id));
        }
    }

    /** A fetch that found the value at none of its holders; names the last one tried. */
    private static final class Missing extends RuntimeException {
        final int holder;

        Missing(int holder) {
            super(null, null, false, false);
            this.holder = holder;
        }
    }

    private void makeReady(Tables t, Job job) {
        if (!job.state.compareAndSet(FETCHING, READY)) {
            return;                           // released meanwhile
        }
        t.ready.add(job);
        WorkStealingPool p = pool;
        if (p == null) {
            return;                           // stopped: as a refusal below
        }
        try {
            p.execute(this::runOne);
        } catch (RejectedExecutionException e) {
            // the worker is shutting down; the scheduler recovers its tasks as lost
        }
    }

    private void runOne() {
        // set already (to this worker: a pool thread serves it only) when a task's join runs this ticket
        ClusterWorker outer = CURRENT.get();
        CURRENT.set(this);
        try {
            runTicket();
        } finally {
            if (outer == null) {
                CURRENT.remove();             // see CURRENT
            }
        }
    }

    /** A ticket: runs one READY job, under the pause and the count of running threads (see the overview). */
    private void runTicket() {
        if (store.limit() == 0) {
            runReady();                       // no limit, no pause and no stall report: nothing to count
            return;
        }
        while (true) {
            while (alive && store.paused()) {
                // Dask's pause: start nothing while memory is over the pause fraction; steals and
                // releases still arrive on the transport's thread and bring it down
                LockSupport.parkNanos(PAUSE_POLL_NANOS);
            }
            // counted, then a second look: a stall report that saw the store paused and no thread
            // counted is not made false by this thread starting a task (see the overview)
            running.incrementAndGet();
            if (!alive || !store.paused()) {
                break;
            }
            running.decrementAndGet();
        }
        try {
            runReady();
        } finally {
            running.decrementAndGet();
        }
    }

    /**
     * The task whose function the calling thread runs, if it is a task of {@code cluster} (the
     * thread's worker serves that scheduler, see {@link #isOf}); else null, as on a thread running
     * none. A task of another cluster in the JVM (or of a worker whose scheduler is elsewhere) that
     * submits to {@code cluster} is no task of it: its key and attempt, numbered by its own
     * scheduler, named one of {@code cluster}'s tasks of the same key as the submitter, which then
     * passed for a retry of it and could submit the key again over the record.
     */
    static Message.Compute runningTask(Object cluster) {
        ClusterWorker w = CURRENT.get();
        return w != null && w.isOf(cluster) ? RUNNING.get() : null;
    }

    /**
     * Runs the job of {@code key} on the calling thread if it is READY on the worker whose task this
     * thread runs, and else waits until {@code awaited} is done, the deadline passes ({@code timed}
     * only) or the worker stops; returns at once on a thread that runs no cluster task. Why: a task
     * that waits for another (Dask's {@code worker_client}) holds its thread, and with every thread
     * so waiting the tasks they waited for had only the pool's spare threads, which are bounded, so
     * enough waiting tasks hung the worker for good. Only the awaited task itself is run, as a
     * fork-join join runs the very task it joins: any other ready job might wait for the waiting
     * task, which could not resume under it. So only on a worker of the future's cluster
     * ({@code cluster}, its owner): keys are a cluster's own, and another cluster's job of the same
     * key is another task. The job starts as on a ticket (taken from the queue, then a
     * compare-and-set from READY, under the pause and the count of {@link #runOne}); the ticket it
     * handed in then finds no job, which is harmless.
     *
     * <p>While it waits, the waiting task does not count as running for the stall report (see the
     * overview): counted, a task waiting for a task queued behind the pause of a worker paused with
     * values that cannot spill kept that worker from ever reporting the stall, so the scheduler
     * never took the awaited task back nor failed it, and both waited for good. It counts again
     * while it runs the awaited job inline, and once the wait ends; a report that said stalled
     * meanwhile was true when made, and the task, once it resumes, is one the worker had started,
     * which a withdrawal leaves where it is (the next report says the worker stalls no more). The
     * report names the key it waits for, so that the end of that task, when it was the last one
     * running elsewhere, does not have the scheduler fail the tasks queued here before the resumed
     * task could free memory for them. So only a wait for a future of this worker's own cluster is
     * uncounted: another's keys mean nothing to this scheduler, which cannot tell when such a wait
     * ends (nor can it for any wait of a worker whose scheduler is elsewhere, see {@link #isOf});
     * uncounted, such a wait made the worker report a stall naming nothing, and, with no
     * other worker busy, the scheduler failed the tasks queued here although the waiting task was
     * to resume once the other cluster's task ended. It counts as running, as any task does whose
     * end the scheduler cannot foresee.
     */
    static void helpUntil(Object cluster, String key, CompletableFuture<?> awaited, boolean timed, long deadlineNanos)
            throws InterruptedException {
        ClusterWorker w = CURRENT.get();
        if (w == null) {
            return;
        }
        boolean ours = w.isOf(cluster);
        // uncounted only while it waits for a key of its own cluster, which the report names: a
        // future its scheduler does not own ends unseen by it, and a report that said stalled naming
        // nothing had the tasks queued here failed as ones nothing could start (see above)
        boolean uncounted = ours && w.store.limit() > 0;   // runOne counted its task (none without a limit)
        if (uncounted) {
            synchronized (w.awaiting) {       // named by a report that the uncounted task makes say stalled
                w.awaiting.merge(key, 1, Integer::sum);
                w.running.decrementAndGet();
            }
        }
        try {
            while (!awaited.isDone() && w.alive && !(timed && deadlineNanos - System.nanoTime() <= 0)) {
                Tables t = w.tables;
                Job job = ours ? t.jobs.get(key) : null;
                if (job != null && job.state.get() == READY && !w.store.paused()) {
                    w.running.incrementAndGet();
                    try {
                        if (!w.store.paused() && t.ready.remove(job)) {   // the second look of runOne
                            w.run(t, job);
                        }
                    } finally {
                        w.running.decrementAndGet();
                    }
                } else {
                    try {
                        awaited.get(PAUSE_POLL_NANOS, TimeUnit.NANOSECONDS);   // the job may become ready meanwhile
                    } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
                        // timed out: look again; failed: it is done, and the caller reports it
                    }
                }
            }
        } finally {
            if (uncounted) {
                synchronized (w.awaiting) {
                    w.running.incrementAndGet();  // the waiting task runs on
                    w.awaiting.computeIfPresent(key, (k, n) -> n == 1 ? null : n - 1);
                }
            }
        }
    }

    /** Runs the highest-priority READY job, if any is left. */
    private void runReady() {
        Tables t = tables;                    // once per task: see tables
        Job job = t.ready.poll();
        if (job == null) {
            return;
        }
        run(t, job);
    }

    /** Runs {@code job}, taken from {@code t}'s READY queue, unless a steal released it meanwhile. */
    private void run(Tables t, Job job) {
        if (!alive) {
            return;
        }
        long start = System.nanoTime();
        job.startNanos = start;               // before the CAS that makes the reporter read it
        if (!job.state.compareAndSet(READY, EXECUTING)) {
            return;
        }
        Message.Compute c = job.compute;
        Object value;
        List<Object> args = new ArrayList<>(c.dependencies().size());
        for (String dep : c.dependencies()) {
            try {
                args.add(store.get(dep));
            } catch (RuntimeException lost) {
                // this copy cannot be read (a spill file deleted or damaged under the worker): it is
                // not the task's failure. The store dropped the copy (removing it again here could
                // drop a copy fetched since); tell the scheduler, which stops counting this worker
                // as a holder and fetches the value elsewhere or computes it again; a retry here
                // would read the same file and fail the task for good.
                if (!alive) {
                    return;                   // the stop cleared the store: nothing is missing but the worker
                }
                job.state.set(RELEASED);
                departed(job);
                t.jobs.remove(c.key(), job);
                transport.toScheduler(new Message.DataMissing(id, c.key(), c.attempt(), dep, id));
                return;
            }
        }
        // a task run inline by helpUntil runs inside another: the outer one is running again after it
        Message.Compute outer = RUNNING.get();
        RUNNING.set(c);
        try {
            value = c.function().apply(Collections.unmodifiableList(args));
        } catch (Throwable thrown) {
            RUNNING.set(outer);
            if (!alive) {
                // abandoned (see stop): the stop interrupted it, and its InterruptedException, reported,
                // failed the task at a coordinator still reached (a node closed before its transport)
                // instead of its being placed again once the worker is gone
                finish(t, job);
                return;
            }
            finish(t, job);
            transport.toScheduler(new Message.TaskErred(id, c.key(), c.attempt(), thrown, System.nanoTime() - start));
            return;
        }
        RUNNING.set(outer);
        if (!alive) {
            finish(t, job);                   // abandoned: its value would not be stored (the store is cleared)
            return;
        }
        long nanos = System.nanoTime() - start;
        long size;
        try {
            size = Sizes.measure(value);
        } catch (Throwable e) {
            // not serialisable, or its serialisation threw, an Error included (a long chain of nodes
            // each writing the next overflows the stack): escaping, it would leave the task
            // unreported and its caller waiting for good, as any throwable of the function would
            finish(t, job);
            transport.toScheduler(new Message.TaskErred(id, c.key(), c.attempt(),
                    new IllegalArgumentException("result of task '" + c.key() + "': " + Failures.messageOrDescription(e), e), nanos));
            return;
        }
        // not stored once the job was abandoned (a retried task submitted the key again, see
        // GraphScheduler.supersede): replaced by a newer attempt sent here (compute), or released
        // (release). Both mark it RELEASED; the newer attempt, or a fetch of the new value, may
        // have stored its value already, and the abandoned run's must not replace it. Under the
        // job's entry, atomic with compute's replacement and release's mark. Its departure is
        // recorded first: this removes the entry, and a steal request must not find it nowhere.
        departed(job);
        t.jobs.compute(c.key(), (k, current) -> {
            if ((current != null && current != job) || job.state.get() == RELEASED) {
                return current;
            }
            store.put(k, value, size);
            return null;
        });
        ended(t, job);                        // its departure is recorded: once per attempt, or the ring held half as many
        transport.toScheduler(new Message.TaskFinished(id, c.key(), c.attempt(), value, size, nanos));
    }

    private void finish(Tables t, Job job) {
        departed(job);                        // first: a steal request between the two finds one or the other
        ended(t, job);
    }

    /** Ends {@code job}, whose departure is recorded already, in {@code t}, the tables it ran from. */
    private void ended(Tables t, Job job) {
        job.state.set(DONE);
        t.jobs.remove(job.compute.key(), job);
        executed.incrementAndGet();
    }

    /** Abandons a job of an attempt older than {@code c}'s, which a dropped {@code c} would have replaced (see {@link #compute}). */
    private void supersede(Tables t, Message.Compute c) {
        t.jobs.computeIfPresent(c.key(), (k, old) -> {
            if (old.compute.attempt() >= c.attempt()) {
                return old;
            }
            old.state.set(RELEASED);
            t.ready.remove(old);
            return null;
        });
    }

    /** Records that {@code job}'s attempt arrived and ended here (see {@link #departures}). */
    private void departed(Job job) {
        AtomicReferenceArray<Departure> ring = departures;
        if (ring != null) {                   // null: stopped, nothing asks any more
            ring.set(departuresNext.getAndIncrement() & (MAX_OVERTAKEN - 1),
                    new Departure(job.compute.key(), job.compute.attempt()));
        }
    }

    /** Whether attempt {@code attempt} of {@code key}, or a later one, ended here lately (a scan: rare). */
    private boolean endedHere(String key, long attempt) {
        AtomicReferenceArray<Departure> ring = departures;
        for (int i = 0; ring != null && i < MAX_OVERTAKEN; i++) {
            Departure d = ring.get(i);
            if (d != null && d.attempt() >= attempt && d.key().equals(key)) {
                return true;
            }
        }
        return false;
    }

    private void steal(Message.StealRequest r) {
        Tables t = tables;
        Job job = t.jobs.get(r.key());
        if (job == null || job.compute.attempt() < r.attempt()) {
            Boolean given = null;
            synchronized (early) {            // a task arriving meanwhile is in the map once this holds the lock
                job = t.jobs.get(r.key());
                if (job == null || job.compute.attempt() < r.attempt()) {
                    given = overtook(r);
                }
            }
            if (given != null) {
                transport.toScheduler(new Message.StealResponse(id, r.stealId(), r.key(), r.attempt(), given));
                return;
            }
        }
        boolean released = false;
        if (job.compute.attempt() == r.attempt()) {
            while (true) {
                int s = job.state.get();
                if (s != FETCHING && s != READY) {
                    break;
                }
                if (job.state.compareAndSet(s, RELEASED)) {
                    released = true;
                    t.ready.remove(job);
                    t.jobs.remove(r.key(), job);
                    break;
                }
            }
        }
        transport.toScheduler(new Message.StealResponse(id, r.stealId(), r.key(), r.attempt(), released));
    }

    /**
     * Whether steal request {@code r}, which found no job of its attempt, is for a task that has
     * not started here: one waiting in {@link #early} (dropped), or one still on its way, which the
     * request overtook ({@link #withdrawn}: dropped when it arrives). An attempt that arrived and
     * ended here ({@link #departures}) is not. The caller ({@link #steal}) holds {@link #early},
     * as a task's arrival ({@link #compute}) does, so an arrival is either in a map this reads or
     * comes after the withdrawal this records.
     */
    private boolean overtook(Message.StealRequest r) {
        assert Thread.holdsLock(early);
        for (Iterator<Held> it = early.iterator(); it.hasNext(); ) {
            Held h = it.next();
            if (h.message() instanceof Message.Compute c && c.key().equals(r.key()) && c.attempt() == r.attempt()) {
                it.remove();
                return true;
            }
        }
        if (endedHere(r.key(), r.attempt())) {
            return false;
        }
        withdrawn.merge(r.key(), r.attempt(), Math::max);
        return true;
    }

    /** Simulates a crash: stops answering, abandons running tasks and drops the data store. */
    void kill() {
        stop();
    }

    /** Orderly stop at cluster close. */
    void shutdown() {
        stop();
    }

    private void stop() {
        alive = false;
        reports.cancel(false);
        WorkStealingPool p = pool;
        if (p != null) {                      // null: stopped already (a gone worker shut down at the cluster's close)
            p.shutdownNow();                  // interrupts running tasks: alive is false first, run reports none
        }
        pool = null;                          // its threads' records and deques: see pool
        store.clear();                        // its values and spill files: nothing reads them any more
        // the jobs that never ran: a stopped worker stays referenced (by its cluster, until its id
        // rejoins or for good), and each job's function may hold a large value (a scattered one).
        // Replaced, not emptied: tables as large as the most tasks ever queued here; whole, through
        // the one holder, so that a thread still ending a task reads the new ones complete (see tables)
        tables = new Tables();
        // and what it remembers of the keys it saw, up to MAX_OVERTAKEN releases (the departures
        // are let go below): kept, every worker a growing and shrinking cluster retired held them for the
        // cluster's life (addWorker gives each a new id). No message is handled after this (receive
        // looks at alive): one handled as the worker stopped, or a task still ending here, adds
        // its own entry at most.
        // Replaced, not emptied (and the list trimmed): the worker stays referenced, and a hash
        // table keeps the size of its fullest moment (the releases map, 4,096 keys, a table of 8,192)
        synchronized (early) {
            early.clear();
            early.trimToSize();
            withdrawn = recentKeys();
            overtaken = recentKeys();
            releasedAbove = new HashSet<>();
        }
        departures = null;                    // let go whole, not emptied: see departures
    }

    /**
     * The per-key structures of a task's path, published together through {@link #tables}: final
     * fields, so a thread that reads the holder without a lock sees them complete (see there).
     */
    private static final class Tables {
        /** The jobs here by key. */
        final Map<String, Job> jobs = new ConcurrentHashMap<>();
        /** The fetch in flight per key: one per key, however many jobs wait for it. */
        final Map<String, CompletableFuture<Object>> fetching = new ConcurrentHashMap<>();
        /** The READY jobs, in {@link ClusterWorker#ORDER}; each ticket takes the first. */
        final PriorityBlockingQueue<Job> ready = new PriorityBlockingQueue<>(16, ORDER);
    }

    /** One assignment of a task to this worker. */
    private static final class Job {
        final Message.Compute compute;
        final long seq;
        final AtomicInteger state = new AtomicInteger(FETCHING);
        final AtomicInteger pending = new AtomicInteger();
        /** Written before the CAS to EXECUTING; the reporter reads it only after seeing EXECUTING. */
        volatile long startNanos;

        Job(Message.Compute compute, long seq) {
            this.compute = compute;
            this.seq = seq;
        }
    }
}
