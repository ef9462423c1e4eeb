/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.constraints.IntRange;

/**
 * The scheduler driven by hand through random histories: submissions (with dependencies and
 * restrictions), releases and cancels of futures (of tasks not yet started too), workers lost,
 * rejoined and retired, stalls on memory, copies that vanish (a spilled value that cannot be read back),
 * balance rounds, and the workers' replies
 * in random order across workers (and, on a transport that reorders frames, within a worker). The
 * workers are models that do what a {@link ClusterWorker} does when a message reaches them: at
 * once, or, with slow messages, some steps later, in the order sent.
 *
 * <p>After every step: the scheduler's running counts recount (checked after every event, see
 * {@link GraphScheduler#checkCountsForTests}); no worker record that is gone processes or holds
 * anything; a task processes on exactly the live worker record that lists it; the holders of a
 * result and the keys each worker holds agree, name live workers only, and every copy the
 * scheduler counts is one the worker has; a result in memory has a holder, and one released, lost
 * or failed has none; a task cancelled that no task depends on is never sent to a worker after
 * the cancel (sent before, it runs there, or back unstarted it is forgotten).
 *
 * <p>With {@code waiting}, a task that no live worker may run waits for one to join
 * ({@link CoordinatorSettings#noWorkerTimeout()}) instead of failing at once, so that more of the
 * graph waits through the losses and the joins; without it, it fails as it is placed.
 *
 * <p>At the end every worker is revived and every job run: each future still held completes, with
 * its own key as its value or with an exception; each worker holds exactly the keys the scheduler
 * counts for it (in the stats too); and once every future is released nothing is left anywhere (no
 * task processing, no copy on any worker nor asked of one, no steal, withdrawal or retirement
 * pending, and with {@code forgetReleased} no record).
 *
 * <p>Copies that vanish: a job's input its worker cannot read back, or a holder's copy as it serves
 * a fetch (the holder reports its own loss, and the fetch goes on to the next holder). A copy so
 * lost may stay counted until the worker's {@link Message.DataMissing} naming it lands, not after.
 * Copies that vanish (released after a {@link Message.DataMissing} that names their own worker)
 * with slow messages: a worker may report a copy ({@link Message.DataAdded}) just before it takes a
 * release of the key that drops it, and the report arrive after the scheduler asked it for the key
 * again. The report says how many of the releases sent to it the worker had handled (the model's
 * as it took them), and the scheduler does not count one that predates a release sent before its
 * ask; the copy asked for counts once reported. With replies reordered too, a worker's report that
 * its own copy is missing may arrive before its report of that copy: it is told to drop the key,
 * as a holder is, so that the report, older than that release, is not counted either; where the
 * key is computed again on that worker, no report of its copy counts while the run is there.
 *
 * <p>A failure names its seed and settings (jqwik prints them as the sample too) and the last 80
 * steps (the environment variable {@code SPINDLE_HISTORY_STEPS} sets how many; the histories that
 * failed once are kept below as examples).
 */
class GraphSchedulerInvariantsPropertiesTest {

    @Property(tries = 150, shrinking = ShrinkingMode.OFF)
    void everyHistoryKeepsTheInvariantsAndEnds(@ForAll long seed, @ForAll @IntRange(min = 2, max = 4) int workers,
            @ForAll @IntRange(min = 1, max = 2) int threads, @ForAll boolean forget, @ForAll boolean stalls,
            @ForAll boolean vanishing, @ForAll boolean reordering, @ForAll boolean slow, @ForAll boolean waiting)
            throws Exception {
        new History(seed, workers, threads, forget, stalls, vanishing, reordering, slow, waiting).run();
    }

    /**
     * A copy asked of worker 2 before the loss of its holder, reported after the loss had the value
     * computed again there, and kept when a stall took that run back: the cancelled task was then
     * forgotten, and the copy counted for good ("p1-1[RELEASED] has holders [2]").
     */
    @Example
    void aCopyReportedAfterALossIsDroppedWhenTheCancelledRunComesBack() throws Exception {
        new History(8263628, 4, 2, true, true, false, true, false, false).run();
    }

    /**
     * A copy that vanished under a cancelled task: the task was forgotten as it came back, and the
     * lost input was computed again for nobody else, so that another task waiting for it (p3-15)
     * waited for good.
     */
    @Example
    void anInputLostUnderACancelledTaskIsComputedAgainForTheOthers() throws Exception {
        new History(4, 2, 2, true, false, true, true, false, false).run();
    }

    /**
     * A copy of p2-2 that vanished on worker 2 under p3-47, fetched again there for p1-9 (sent
     * before the release that followed the DataMissing, naming worker 2 a holder) and reported
     * just before worker 2 took that release: the report arrived after worker 2 was asked for
     * p2-2 again, and was counted for the copy asked for ("worker-2 is counted holding 'p2-2',
     * which it does not have").
     */
    @Example
    void aCopyReportedBeforeItsWorkerTookAReleaseOfItIsNotCounted() throws Exception {
        new History(412, 3, 1, false, true, true, false, true, true).run();
    }

    /**
     * Replies reordered: a copy of p3-7 that worker 0 fetched and reported, then could not read
     * back under p1-9, reporting it missing; the DataMissing arrived before the copy's report,
     * which was then counted for good ("the keys counted on worker 0" name p3-7, which it does not
     * have).
     */
    @Example
    void aCopyReportedAfterItsOwnWorkerReportedItMissingIsNotCounted() throws Exception {
        new History(14426, 4, 1, false, true, true, true, true, true).run();
    }

    /**
     * Replies reordered: worker 1 fetched p1-9 for p1-85 before p1-9's only holder was lost, and
     * computed it again; its report that it could not read that copy arrived before its report of
     * the copy, which, a fetcher's, was counted until the recomputation ended ("worker-1 is counted
     * holding 'p1-9', which it does not have", with the check that a copy reported missing stops
     * counting when the report lands).
     */
    @Example
    void aCopyReportedAfterItsOwnWorkerReportedItMissingIsNotCountedWhileComputedAgainThere() throws Exception {
        new History(-187, 2, 2, true, true, true, true, true, false).run();
    }

    /** Runs one history (for a soak outside jqwik). */
    static void runHistory(long seed, int workers, int threads, boolean forget, boolean stalls, boolean vanishing,
            boolean reordering, boolean slow, boolean waiting) throws Exception {
        new History(seed, workers, threads, forget, stalls, vanishing, reordering, slow, waiting).run();
    }

    /** A model worker: its queued and running jobs (key to attempt), its store, and its replies not yet delivered. */
    private static final class Model {
        boolean alive = true;
        final Map<String, Long> jobs = new LinkedHashMap<>();
        final Map<String, Long> running = new LinkedHashMap<>();
        final Map<String, List<String>> inputs = new HashMap<>();
        final Set<String> store = new HashSet<>();
        /**
         * Copies it lost on its own (a spilled value unreadable, read by a job of its own or as it
         * served another worker's fetch), with how many of its reports of such a loss
         * ({@link Message.DataMissing} naming itself the holder) have not reached the scheduler yet:
         * a copy may stay counted until its report lands, not after.
         */
        final Map<String, Integer> vanished = new HashMap<>();
        final List<Message.ToScheduler> out = new ArrayList<>();
        /** What the scheduler sent it that it has not taken yet. */
        final ArrayDeque<Message.ToWorker> inbox = new ArrayDeque<>();
        boolean stalled;
        long releasesHandled;
        long stallReports;

        void stall(int id, boolean on) {
            stalled = on;
            out.add(new Message.MemoryStall(id, on, releasesHandled, 100, 100, ++stallReports));
        }

        void stored(String key) {
            store.add(key);
        }

        /** Its copy of {@code key} is gone; {@code report}, sent to the scheduler, says so. */
        void vanished(String key, Message.DataMissing report) {
            store.remove(key);
            vanished.merge(key, 1, Integer::sum);
            out.add(report);
        }

        /** {@code reply}, one of its own, reached the scheduler. */
        void delivered(Message.ToScheduler reply) {
            if (reply instanceof Message.DataMissing d && d.holder() == d.worker()) {
                vanished.computeIfPresent(d.dependency(), (k, left) -> left == 1 ? null : left - 1);
            }
        }
    }

    private static final class History {
        final long seed;
        final int n;
        final int threads;
        final boolean forget;
        final boolean stalls;
        final boolean vanishing;
        final boolean reordering;
        final boolean slow;
        /** Whether a task no live worker may run waits for one to join (noWorkerTimeout) rather than failing at once. */
        final boolean waiting;
        final Random rnd;
        /**
         * Whether a holder loses its copy as it serves a fetch (with {@code vanishing}): apart, so
         * that a history runs as it did before such losses were modelled until the first of them.
         */
        final Random serving;
        final RecordingTransport wire = new RecordingTransport();
        final Model[] models;
        final Map<String, CompletableFuture<Object>> held = new LinkedHashMap<>();
        final Map<String, CompletableFuture<Object>> released = new LinkedHashMap<>();
        final List<String> keys = new ArrayList<>();
        /** Keys a submitted task depends on. */
        final Set<String> dependedOn = new HashSet<>();
        /**
         * Keys cancelled that no task depends on, with the assignments of their task sent by then:
         * never sent to a worker again (until a task submitted later depends on them). One not yet
         * sent is forgotten at the cancel; one sent runs there, or, back from its worker unstarted
         * (lost, stolen, withdrawn, moved off a retiring one, failed to retry), is forgotten then.
         */
        final Map<String, Integer> cancelledSends = new TreeMap<>();
        final List<CompletableFuture<Void>> retirements = new ArrayList<>();
        final List<String> log = new ArrayList<>();
        int delivered;
        int next;
        GraphScheduler s;

        History(long seed, int n, int threads, boolean forget, boolean stalls, boolean vanishing, boolean reordering,
                boolean slow, boolean waiting) {
            this.seed = seed;
            this.waiting = waiting;
            this.n = n;
            this.threads = threads;
            this.forget = forget;
            this.stalls = stalls;
            this.vanishing = vanishing;
            this.reordering = reordering;
            this.slow = slow;
            this.rnd = new Random(seed);
            this.serving = new Random(~seed);
            this.models = new Model[n];
            for (int i = 0; i < n; i++) {
                models[i] = new Model();
            }
        }

        void run() throws Exception {
            s = new GraphScheduler(HandDriven.settings(n).threadsPerWorker(threads).retries(1).allowedWorkerLosses(3)
                    .forgetReleased(forget).noWorkerTimeout(waiting ? Duration.ofMinutes(10) : Duration.ZERO).build(),
                    wire);
            try {
                s.checkCountsForTests();      // and after every event from here on
                for (int step = 0; step < 300; step++) {
                    step();
                    s.taskRecords();          // a barrier: every event posted so far is handled
                    process();
                    check("step " + step);
                }
                settle();
                finish();
            } finally {
                s.close();
            }
        }

        private void step() {
            int a = rnd.nextInt(100);
            if (a < 15) {
                submit();
            } else if (a < 20) {
                if (!held.isEmpty()) {
                    List<String> ks = new ArrayList<>(held.keySet());
                    release(ks.get(rnd.nextInt(ks.size())));
                }
            } else if (a < 21) {
                int id = rnd.nextInt(n);
                int alive = 0;
                for (Model m : models) {
                    alive += m.alive ? 1 : 0;
                }
                if (models[id].alive && (alive > 1 || rnd.nextInt(10) == 0)) {   // seldom none at all
                    models[id].alive = false;
                    models[id].out.clear();
                    s.receive(new Message.WorkerLost(id));
                    log.add("lose " + id);
                }
            } else if (a < 23) {
                int id = rnd.nextInt(n);
                if (!models[id].alive) {
                    s.join(id, threads);
                    models[id] = new Model();
                    log.add("join " + id);
                }
            } else if (a < 25) {
                int id = rnd.nextInt(n);
                try {
                    retirements.add(s.retire(id));
                    log.add("retire " + id);
                } catch (IllegalStateException e) {
                    log.add("retire " + id + " refused: " + e.getMessage());
                }
            } else if (a < 28) {
                int id = rnd.nextInt(n);
                Model m = models[id];
                if (stalls && m.alive && m.running.isEmpty() && !m.stalled) {
                    m.stall(id, true);
                    log.add("stall " + id);
                }
            } else if (a < 32) {
                log.add("balance " + s.balanceNow());
            } else if (a < 60) {
                work(rnd.nextInt(n));
            } else if (a < 70) {
                take(rnd.nextInt(n), 1 + rnd.nextInt(3));   // only while messages to workers are slow
            } else {
                deliver(rnd.nextInt(n));
            }
        }

        private void submit() {
            List<TaskSpec<?>> specs = new ArrayList<>();
            List<String> batch = new ArrayList<>();
            int k = 1 + rnd.nextInt(4);
            for (int j = 0; j < k; j++) {
                String key = "p" + (next % 4) + "-" + next++;
                List<String> pool = new ArrayList<>(batch);
                for (String kk : keys) {
                    if (!forget || held.containsKey(kk)) {   // a forgotten key cannot be named
                        pool.add(kk);
                    }
                }
                Set<String> deps = new LinkedHashSet<>();
                int nd = pool.isEmpty() ? 0 : rnd.nextInt(3);
                for (int d = 0; d < nd; d++) {
                    deps.add(pool.get(rnd.nextInt(pool.size())));
                }
                TaskSpec.Builder<Object> b = TaskSpec.<Object>builder(key, args -> key)
                        .durationHint(Duration.ofSeconds(1)).dependsOn(deps.toArray(new String[0]));
                int r = rnd.nextInt(20);
                if (r < 4) {
                    b.restrictions(Restrictions.loose(Set.of(rnd.nextInt(n))));
                } else if (r == 4) {
                    b.restrictions(Restrictions.strict(Set.of(rnd.nextInt(n))));
                }
                specs.add(b.build());
                batch.add(key);
            }
            List<CompletableFuture<Object>> fs;
            try {
                fs = s.submit(specs);
            } catch (IllegalArgumentException e) {
                log.add("submit refused: " + e.getMessage());
                return;
            }
            log.add("submit " + batch);
            for (TaskSpec<?> spec : specs) {
                dependedOn.addAll(spec.dependencies());
                cancelledSends.keySet().removeAll(spec.dependencies());   // computed again if need be
            }
            for (int j = 0; j < specs.size(); j++) {
                held.put(batch.get(j), fs.get(j));
                keys.add(batch.get(j));
            }
            for (String key : batch) {
                if (rnd.nextInt(3) == 0) {
                    release(key);
                }
            }
        }

        /** Releases the future of {@code key}, or cancels it (as {@link ClusterFuture#cancel} does). */
        private void release(String key) {
            CompletableFuture<Object> f = held.remove(key);
            released.put(key + "#" + released.size(), f);
            boolean cancel = rnd.nextBoolean() && f.completeExceptionally(new CancellationException());
            if (cancel && !dependedOn.contains(key)) {
                // every event before this one was handled (a barrier ends each step)
                cancelledSends.put(key, computesSent().getOrDefault(key, 0));
            }
            s.releaseFuture(key, cancel);
            log.add((cancel ? "cancel " : "release ") + key);
        }

        /** Worker {@code id} starts a job, ends one, or loses a copy one of its running jobs read. */
        private void work(int id) {
            Model m = models[id];
            if (!m.alive) {
                return;
            }
            if (!m.running.isEmpty()) {
                Map.Entry<String, Long> e = m.running.entrySet().iterator().next();
                List<String> in = m.inputs.getOrDefault(e.getKey(), List.of());
                if (vanishing && !in.isEmpty() && rnd.nextInt(15) == 0) {
                    String dep = in.get(0);
                    m.running.remove(e.getKey());
                    m.vanished(dep, new Message.DataMissing(id, e.getKey(), e.getValue(), dep, id));
                    return;
                }
                if (rnd.nextBoolean()) {
                    m.running.remove(e.getKey());
                    if (rnd.nextInt(30) == 0) {
                        m.out.add(new Message.TaskErred(id, e.getKey(), e.getValue(), new RuntimeException("boom"),
                                1000));
                    } else {
                        finished(id, e.getKey(), e.getValue());
                    }
                    return;
                }
            }
            if (m.stalled && rnd.nextInt(8) != 0) {
                return;                       // starts nothing while stalled, unless its disk takes a spill
            }
            if (!m.jobs.isEmpty() && m.running.size() < threads) {
                if (m.stalled) {
                    m.stall(id, false);
                }
                Map.Entry<String, Long> e = m.jobs.entrySet().iterator().next();
                m.jobs.remove(e.getKey());
                m.running.put(e.getKey(), e.getValue());
            }
        }

        private void finished(int id, String key, long attempt) {
            models[id].stored(key);
            models[id].out.add(new Message.TaskFinished(id, key, attempt, key, 1 + rnd.nextInt(1000),
                    1_000_000L * (1 + rnd.nextInt(2000))));
        }

        /** Delivers one of worker {@code id}'s replies, now and then after a progress report. */
        private void deliver(int id) {
            Model m = models[id];
            if (!m.alive) {
                return;
            }
            if (rnd.nextInt(10) == 0 && !m.running.isEmpty()) {
                Map.Entry<String, Long> e = m.running.entrySet().iterator().next();
                s.receive(new Message.TaskRunning(id, e.getKey(), e.getValue(), 1_000_000L * rnd.nextInt(5000)));
            }
            if (!m.out.isEmpty()) {
                // across workers the replies come in any order; one worker's in order, or in any
                // order too on a transport that reorders frames
                Message.ToScheduler reply = m.out.remove(reordering ? rnd.nextInt(m.out.size()) : 0);
                log.add("deliver " + reply);
                s.receive(reply);
                m.delivered(reply);
            }
        }

        /** The models take what the scheduler sent them since the last call, in order. */
        private void process() {
            List<RecordingTransport.Sent> all = wire.sentToWorkers();
            for (int i = delivered; i < all.size(); i++) {
                Model m = models[all.get(i).worker()];
                if (m.alive) {
                    m.inbox.add(all.get(i).message());
                }
            }
            delivered = all.size();
            if (!slow) {
                for (int id = 0; id < n; id++) {
                    take(id, Integer.MAX_VALUE);
                }
            }
        }

        /** Worker {@code id} takes up to {@code count} of the messages that reached it, in the order sent. */
        private void take(int id, int count) {
            Model m = models[id];
            for (int taken = 0; taken < count && m.alive && !m.inbox.isEmpty(); taken++) {
                Message.ToWorker msg = m.inbox.poll();
                log.add("  -> " + id + " " + msg);
                if (msg instanceof Message.Compute c) {
                    boolean missing = false;
                    for (String dep : c.dependencies()) {
                        if (m.store.contains(dep)) {
                            continue;
                        }
                        int tried = -1;
                        boolean found = false;
                        for (int h : c.holders().getOrDefault(dep, List.of())) {
                            tried = h;
                            if (h < n && models[h].alive && models[h].store.contains(dep)) {
                                if (vanishing && h != id && serving.nextInt(15) == 0) {
                                    // its spilled copy unreadable as it serves the fetch: it reports
                                    // the loss itself, and the fetch goes on to the next holder
                                    models[h].vanished(dep, new Message.DataMissing(h, dep, 0, dep, h));
                                    log.add("  " + h + " loses " + dep + " serving " + id);
                                    continue;
                                }
                                found = true;
                                break;
                            }
                        }
                        if (!found) {
                            m.out.add(new Message.DataMissing(id, c.key(), c.attempt(), dep, tried));
                            missing = true;
                            break;
                        }
                        m.stored(dep);
                        m.out.add(new Message.DataAdded(id, dep, 1, m.releasesHandled));
                    }
                    if (!missing) {
                        m.jobs.put(c.key(), c.attempt());
                        m.inputs.put(c.key(), c.dependencies());
                    }
                } else if (msg instanceof Message.StealRequest r) {
                    Long attempt = m.jobs.get(r.key());
                    boolean given = attempt != null && attempt == r.attempt();
                    if (given) {
                        m.jobs.remove(r.key());
                    }
                    m.out.add(new Message.StealResponse(id, r.stealId(), r.key(), r.attempt(), given));
                } else if (msg instanceof Message.ReleaseKey r) {
                    m.store.remove(r.key());
                    m.jobs.remove(r.key());
                    m.running.remove(r.key());
                    m.releasesHandled = r.index();
                    if (m.stalled) {
                        m.stall(id, false);
                    }
                } else if (msg instanceof Message.Replicate r) {
                    boolean found = false;
                    for (int h : r.holders()) {
                        found |= models[h].alive && models[h].store.contains(r.key());
                    }
                    if (found) {
                        m.stored(r.key());
                        m.out.add(new Message.DataAdded(id, r.key(), 1, m.releasesHandled));
                    } else {
                        m.out.add(new Message.ReplicaFailed(id, r.key()));
                    }
                } else if (msg instanceof Message.Retired) {
                    m.alive = false;
                    m.out.clear();
                }
            }
        }

        /** How many assignments ({@link Message.Compute}) went out for each key so far. */
        private Map<String, Integer> computesSent() {
            Map<String, Integer> n = new HashMap<>();
            for (RecordingTransport.Sent m : wire.sentToWorkers()) {
                if (m.message() instanceof Message.Compute c) {
                    n.merge(c.key(), 1, Integer::sum);
                }
            }
            return n;
        }

        /** The invariants that hold after every step; throws naming the first broken ones. */
        private void check(String when) {
            try {
                s.checkCountsForTests();
            } catch (AssertionError e) {
                throw new AssertionError(describe(when + ": " + e.getMessage()), e);
            }
            if (!cancelledSends.isEmpty()) {
                Map<String, Integer> sent = computesSent();
                for (Map.Entry<String, Integer> e : cancelledSends.entrySet()) {
                    if (sent.getOrDefault(e.getKey(), 0) > e.getValue()) {
                        throw new AssertionError(describe(when + ": '" + e.getKey() + "', cancelled and needed by no"
                                + " task, was sent to worker " + wire.workerOfLastCompute(e.getKey()) + " after the"
                                + " cancel (sent " + e.getValue() + " times before it)"));
                    }
                }
            }
            Set<String>[] stores = currentStores(true);
            List<String> broken = s.inspectTasks((tasks, ws) -> {
                List<String> b = new ArrayList<>();
                for (WorkerState w : ws) {
                    if (!w.alive && (!w.processing.isEmpty() || !w.holds.isEmpty())) {
                        b.add(w + " is gone but processes " + w.processing + ", holds " + w.holds);
                    }
                    for (TaskState t : w.processing) {
                        if (t.processingOn != w || t.state != TaskState.State.PROCESSING || tasks.get(t.key()) != t) {
                            b.add(w + " lists " + t + ", which processes on " + t.processingOn
                                    + (tasks.get(t.key()) == t ? "" : " (a record replaced or forgotten)"));
                        }
                    }
                    for (String key : w.holds) {
                        TaskState t = tasks.get(key);
                        if (t == null || !t.holders.contains(w.id)) {
                            b.add(w + " holds '" + key + "', whose record " + t + " does not count it");
                        }
                        if (w.alive && stores[w.id] != null && !stores[w.id].contains(key)) {
                            b.add(w + " is counted holding '" + key + "', which it does not have");
                        }
                    }
                }
                for (TaskState t : tasks.values()) {
                    if ((t.state == TaskState.State.PROCESSING) != (t.processingOn != null)) {
                        b.add(t + " processes on " + t.processingOn);
                    }
                    if (t.processingOn != null && (ws.get(t.processingOn.id) != t.processingOn
                            || !t.processingOn.processing.contains(t))) {
                        b.add(t + " processes on " + t.processingOn + ", a record gone or not listing it");
                    }
                    for (int h : t.holders) {
                        if (!ws.get(h).alive || !ws.get(h).holds.contains(t.key())) {
                            b.add(t + " counts worker " + h + " a holder, which is gone or does not list it");
                        }
                    }
                    if (t.state == TaskState.State.MEMORY && t.holders.isEmpty()) {
                        b.add(t + " has no holder");
                    }
                    if ((t.state == TaskState.State.RELEASED || t.state == TaskState.State.LOST
                            || t.state == TaskState.State.ERRED) && !t.holders.isEmpty()) {
                        b.add(t + " has holders " + t.holders);
                    }
                }
                return b;
            });
            if (!broken.isEmpty()) {
                throw new AssertionError(describe(when + ": " + broken));
            }
        }

        /** Each live model worker's store (with the copies it lost on its own, if asked); null for a gone one. */
        @SuppressWarnings({"unchecked", "rawtypes"})
        private Set<String>[] currentStores(boolean withVanished) {
            Set<String>[] stores = new Set[n];
            for (int i = 0; i < n; i++) {
                if (models[i].alive) {
                    stores[i] = new TreeSet<>(models[i].store);
                    if (withVanished) {
                        stores[i].addAll(models[i].vanished.keySet());   // reported missing; counted until the report lands
                    }
                }
            }
            return stores;
        }

        /** Revives every worker, lets every stalled one go on, and runs every job until nothing moves. */
        private void settle() {
            // again while the drain retires a worker (a Retired still on its way): with tasks
            // waiting for a worker, one strictly restricted to it would wait for good
            for (boolean again = true; again; ) {
                for (int id = 0; id < n; id++) {
                    if (!models[id].alive) {
                        s.join(id, threads);
                        models[id] = new Model();
                        log.add("join " + id);
                    }
                }
                for (int id = 0; id < n; id++) {
                    if (models[id].stalled) {
                        models[id].stall(id, false);
                    }
                }
                drain();
                again = false;
                for (Model m : models) {
                    again |= waiting && !m.alive;
                }
            }
            check("settled");
        }

        private void drain() {
            s.taskRecords();
            process();
            for (int round = 0; round < 10_000; round++) {
                boolean moved = false;
                for (int id = 0; id < n; id++) {
                    Model m = models[id];
                    moved |= !m.inbox.isEmpty();
                    take(id, Integer.MAX_VALUE);
                    if (!m.alive) {
                        continue;
                    }
                    for (Map.Entry<String, Long> e : new ArrayList<>(m.running.entrySet())) {
                        m.running.remove(e.getKey());
                        finished(id, e.getKey(), e.getValue());
                    }
                    for (Map.Entry<String, Long> e : new ArrayList<>(m.jobs.entrySet())) {
                        m.jobs.remove(e.getKey());
                        finished(id, e.getKey(), e.getValue());
                    }
                    while (!m.out.isEmpty()) {
                        Message.ToScheduler reply = m.out.remove(0);
                        log.add("deliver " + reply);
                        s.receive(reply);
                        m.delivered(reply);
                        moved = true;
                    }
                }
                s.taskRecords();
                process();
                if (!moved) {
                    return;
                }
            }
            throw new AssertionError(describe("the replies never ran dry"));
        }

        private void finish() throws Exception {
            for (Map.Entry<String, CompletableFuture<Object>> e : held.entrySet()) {
                try {
                    assertThat(e.getValue().get(10, TimeUnit.SECONDS)).as("seed %d: the value of '%s'", seed, e.getKey())
                            .isEqualTo(e.getKey());
                } catch (ExecutionException failed) {
                    // failed for good: a task erred twice, a strict worker gone, too many workers lost under it
                } catch (TimeoutException never) {
                    String key = e.getKey();
                    String record = s.inspectTasks((tasks, ws) -> recordOf(tasks.get(key)));
                    throw new AssertionError(describe("the future of '" + key + "' never completed; its record: " + record));
                }
            }
            for (Map.Entry<String, CompletableFuture<Object>> e : released.entrySet()) {
                if (e.getValue().isDone() && !e.getValue().isCompletedExceptionally()) {
                    String key = e.getKey().substring(0, e.getKey().indexOf('#'));
                    assertThat(e.getValue().getNow(null)).as("seed %d: the value of '%s'", seed, key).isEqualTo(key);
                }
            }
            Map<Integer, Set<String>> counted = s.inspect((ws, d) -> {
                Map<Integer, Set<String>> m = new HashMap<>();
                for (WorkerState w : ws) {
                    if (w.alive) {
                        m.put(w.id, new TreeSet<>(w.holds));
                    }
                }
                return m;
            });
            Set<String>[] stores = currentStores(false);
            for (int id = 0; id < n; id++) {
                if (stores[id] != null) {
                    assertThat(counted.get(id)).as(describe("the keys counted on worker " + id)).isEqualTo(stores[id]);
                }
            }
            for (ClusterStats.WorkerStats w : s.stats().workers()) {
                if (stores[w.id()] != null) {
                    assertThat(w.keysHeld()).as(describe("the keys held by worker " + w.id() + " in the stats"))
                            .isEqualTo(stores[w.id()].size());
                }
            }
            for (String key : new ArrayList<>(held.keySet())) {
                release(key);
            }
            drain();
            check("all released");
            Map<String, Integer> left = s.retainedForTests();
            for (String what : List.of("inFlight", "withdrawals", "processing", "holds", "replicas", "fetchers")) {
                assertThat(left.getOrDefault(what, 0)).as(describe(what + " left once every future was released: " + left))
                        .isZero();
            }
            if (forget) {
                assertThat(left.get("tasks")).as(describe("records left: " + left)).isZero();
            }
            for (int id = 0; id < n; id++) {
                if (models[id].alive) {
                    assertThat(models[id].store).as(describe("copies left on worker " + id)).isEmpty();
                }
            }
            for (CompletableFuture<Void> r : retirements) {
                try {
                    r.get(10, TimeUnit.SECONDS);
                } catch (TimeoutException never) {
                    throw new AssertionError(describe("a retirement never completed"));
                }
            }
        }

        /** A record's state, for a failure's message: what it waits on, and where. */
        private static String recordOf(TaskState t) {
            if (t == null) {
                return "none";
            }
            List<String> deps = new ArrayList<>();
            for (TaskState d : t.dependencies) {
                deps.add(d + " holders " + d.holders + " fetchers " + d.fetchers + " on " + d.processingOn);
            }
            return t + " on " + t.processingOn + ", attempt " + t.attempt + ", waiting for a worker " + t.awaitingWorker
                    + ", inputs not in memory " + t.dependenciesNotInMemory + ", cancelled " + t.cancelled
                    + ", restrictions " + t.spec.restrictions() + ", inputs " + deps;
        }

        private String describe(String what) {
            return "seed " + seed + " (" + n + " workers of " + threads + " threads, forgetReleased " + forget
                    + ", stalls " + stalls + ", vanishing copies " + vanishing + ", replies reordered " + reordering + ", messages to workers slow " + slow
                    + ", tasks wait for a worker " + waiting + "): " + what + "\nlast steps:\n  "
                    + String.join("\n  ", log.subList(Math.max(0, log.size() - Integer.parseInt(System.getenv().getOrDefault("SPINDLE_HISTORY_STEPS", "80"))), log.size()));
        }
    }
}
