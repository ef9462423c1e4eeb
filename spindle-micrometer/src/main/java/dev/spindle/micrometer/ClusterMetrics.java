/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.micrometer;

import dev.spindle.cluster.ClusterStats;
import dev.spindle.cluster.ClusterView;
import dev.spindle.internal.observe.BoundedReads;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.ToDoubleFunction;

/**
 * Meters for a cluster, read from its {@link ClusterView#stats()} whenever the registry asks,
 * tagged {@code cluster=<name>}: a {@code LocalCluster}, a {@code ClusterCoordinator}, or the
 * coordinator of a transport ({@code HazelcastCoordinator}, {@code PekkoCoordinator}), whose
 * figures are what its scheduler knows (see {@code ClusterCoordinator.stats()}):
 *
 * <ul>
 *   <li>{@code spindle.cluster.workers} (gauge): workers alive;</li>
 *   <li>{@code spindle.cluster.tasks} (gauge) by {@code state}: {@code processing} (assigned to a
 *       worker and not yet finished), {@code memory} (result held by a worker), {@code erred}
 *       (failed for good), {@code awaiting-worker} (ready, but no live worker may run it: waiting
 *       for one to join, see {@code CoordinatorSettings.noWorkerTimeout});</li>
 *   <li>{@code spindle.cluster.tasks.executed}, {@code spindle.cluster.tasks.released} and
 *       {@code spindle.cluster.tasks.cancelled} (counters): tasks the workers ran, results freed,
 *       tasks cancelled by the client and forgotten before they started
 *       ({@code ClusterStats.tasksCancelled});</li>
 *   <li>{@code spindle.cluster.steals} (counter) by {@code outcome}: {@code requested},
 *       {@code confirmed}, {@code rejected}, {@code stale};</li>
 *   <li>{@code spindle.cluster.transferred} (counter, bytes): moved between workers by
 *       dependency fetches;</li>
 *   <li>{@code spindle.cluster.memory} (gauge, bytes): held in the workers' data stores;</li>
 *   <li>{@code spindle.cluster.stats.age} (gauge, seconds): how old the figures the other meters
 *       read are: the time since the read of the cluster's stats that gave them returned. About
 *       0 while the cluster answers (each reading reads it); growing while it does not (below),
 *       so a stuck cluster shows, although its other meters repeat its last figures; NaN when
 *       the gauges read NaN (before the first answer, once closed).</li>
 * </ul>
 *
 * <pre>{@code
 * new ClusterMetrics(localCluster, "local").bindTo(registry);
 * new ClusterMetrics(hazelcastCoordinator, "grid").bindTo(registry);
 * }</pre>
 *
 * <p>Once the cluster is closed its stats can no longer be read (it throws
 * {@link IllegalStateException} or {@link RejectedExecutionException}) and every gauge reads NaN,
 * while every counter reads the latest figure the cluster gave, as a function counter whose object
 * was collected reads its last value (a counter is a running total: a NaN reading made a step
 * registry lose the increments of the step it fell in and of the next, and a cumulative one show
 * the total as NaN). So too while {@code stats()} throws anything else (a scheduler failing in its
 * stats, an {@code Error}): that is logged once, as a warning on the {@code System.Logger} of this
 * class, each time the cluster starts to fail, and not thrown to the registry, whose scrape it
 * would fail, every other meter with it.
 * A cluster whose {@code stats()} has not answered within a second (its scheduler thread stuck,
 * or slow) does not hold up the scrape: the meters are read on the registry's scraping thread,
 * which waits no longer (one daemon thread waits for the cluster). Meanwhile every meter reads
 * the latest figures the cluster gave, as a gauge of any value does, and NaN only until its first
 * answer to this binder's meters, or (a gauge) once its latest answer was that it is closed (or
 * {@code stats()} threw). A read that answers after its second is not lost: its figures are the
 * latest from then on, so a cluster that always takes longer than a second reads, at each scrape,
 * the figures its read started by an earlier scrape returned. While a cluster stays stuck its
 * meters so repeat the figures of its last answer, and {@code spindle.cluster.stats.age} grows:
 * alert on it (a cluster whose figures stay older than a few seconds is not answering).
 * The cluster is held weakly by the meters, as Micrometer holds the objects of function-based
 * meters. A closed cluster's meters (its gauges reading NaN, its counters their last figures) stay registered until the binder is
 * {@linkplain #close() closed}, which removes them from every registry it was bound to; see
 * {@link SchedulerMetrics} ("Removing the meters").
 *
 * <p>Names tell the clusters apart, as they tell schedulers apart (see {@link SchedulerMetrics}):
 * {@code bindTo} throws {@link IllegalArgumentException} for a cluster named like another one
 * already bound to that registry with the same tags, unless that one is closed or collected, whose
 * meters it then replaces; a refused bind registers no meter. Whether the other one is closed
 * is asked of it ({@code stats()}), on a reader thread as a scrape reads it, and waited for at
 * most a second: one that has not answered by then (stuck, or slow) is taken as live, and the
 * bind is refused, the exception saying it did not answer, rather than held for as long as that
 * cluster is stuck. Once its stuck call returns saying it is closed, a bind replaces it. A
 * coordinator stuck for good never says so (its {@code close()} waits for its scheduler thread
 * too, and the stuck read holds it, so it is not collected either): bind its replacement under
 * another name, or with an extra tag.
 */
public final class ClusterMetrics implements MeterBinder, AutoCloseable {

    /** The longest a reading waits for the cluster: its scheduler answers in far less when not stuck. */
    static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(1);

    /**
     * The threads that read every binder's cluster, JVM-wide, and that ask a cluster whether it is
     * closed for a bind that meets its meters ({@code Meters}): one per slot whose read is in
     * flight, plus idle ones that end after a minute; never shut down (daemon threads).
     */
    static final BoundedReads READERS = new BoundedReads("spindle-metrics-cluster-reader", WAIT_NANOS);

    private final ClusterView cluster;
    private final Tags tags;
    /** The meters this binder's binds registered, per registry, for {@link #close()}. */
    private final Meters.Bound bound = new Meters.Bound();
    /** This binder's reads of the cluster: one in flight at a time, shared by all its meters. */
    private final Reads reads;

    /**
     * Meters for {@code cluster}, tagged {@code cluster=<name>}.
     *
     * @param cluster the cluster or coordinator whose snapshots the meters read
     * @param name the value of the {@code cluster} tag
     * @throws NullPointerException if an argument is null
     */
    public ClusterMetrics(ClusterView cluster, String name) {
        this(cluster, name, Tags.empty());
    }

    /**
     * Meters for {@code cluster}, with extra tags on every meter.
     *
     * @param cluster the cluster or coordinator whose snapshots the meters read
     * @param name the value of the {@code cluster} tag
     * @param tags added to every meter, after the object's own tag (Micrometer's {@code Tags.of(...)})
     * @throws NullPointerException if an argument is null
     */
    public ClusterMetrics(ClusterView cluster, String name, Iterable<Tag> tags) {
        this(cluster, name, tags, System::nanoTime);
    }

    /** Tests: with {@code nanoClock} in place of {@link System#nanoTime()} for the stats' age. */
    ClusterMetrics(ClusterView cluster, String name, Iterable<Tag> tags, LongSupplier nanoClock) {
        this.cluster = Objects.requireNonNull(cluster, "cluster");
        this.tags = Tags.of("cluster", Objects.requireNonNull(name, "name"))
                .and(Objects.requireNonNull(tags, "tags"));
        this.reads = new Reads(nanoClock, this.tags);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Meters m = new Meters(registry, tags, bound);
        m.gauge("spindle.cluster.workers", "Workers alive", cluster,
                read(s -> s.workers().stream().filter(ClusterStats.WorkerStats::alive).count()));
        m.gauge("spindle.cluster.tasks", "Tasks assigned to a worker and not yet finished", null, cluster,
                read(s -> s.workers().stream().mapToLong(ClusterStats.WorkerStats::processing).sum()),
                Tags.of("state", "processing"));
        m.gauge("spindle.cluster.tasks", "Tasks whose result a worker holds", null, cluster,
                read(ClusterStats::tasksInMemory), Tags.of("state", "memory"));
        m.gauge("spindle.cluster.tasks", "Tasks failed for good", null, cluster,
                read(ClusterStats::tasksErred), Tags.of("state", "erred"));
        m.gauge("spindle.cluster.tasks", "Tasks ready that no live worker may run, waiting for one to join", null,
                cluster, read(ClusterStats::tasksAwaitingWorker), Tags.of("state", "awaiting-worker"));
        m.counter("spindle.cluster.tasks.executed", "Tasks the workers ran to completion", cluster,
                count(ClusterStats::tasksExecuted));   // never down: a worker restarted under its id starts at 0
        m.counter("spindle.cluster.tasks.released", "Results freed on their workers", cluster,
                count(ClusterStats::tasksReleased));
        m.counter("spindle.cluster.tasks.cancelled", "Tasks cancelled and forgotten before they started", cluster,
                count(ClusterStats::tasksCancelled));
        steals(m, "requested", count(ClusterStats::stealsRequested));
        steals(m, "confirmed", count(ClusterStats::stealsConfirmed));
        steals(m, "rejected", count(ClusterStats::stealsRejected));
        steals(m, "stale", count(ClusterStats::stealsStale));
        m.counter("spindle.cluster.transferred", "Bytes moved between workers by dependency fetches", "bytes",
                cluster, count(ClusterStats::bytesTransferred), Tags.empty());
        m.gauge("spindle.cluster.memory", "Bytes held in the workers' data stores", "bytes", cluster,
                read(ClusterStats::memoryBytes), Tags.empty());
        m.gauge("spindle.cluster.stats.age", "Seconds since the read of the cluster's stats the meters show returned",
                "seconds", cluster, age(), Tags.empty());
        m.register();
    }

    /**
     * Removes from every registry this binder was bound to the meters its binds registered there
     * and that registry still holds as registered, as {@link SchedulerMetrics#close()} does; a
     * closed cluster's meters stay until then (or until one of its name is bound in its place).
     * Closing again removes nothing more, and a later {@code bindTo} registers the meters again.
     *
     * @throws RuntimeException what a registry threw removing a meter (a listener of its own), once
     *     the other meters are removed
     */
    @Override
    public void close() {
        bound.close();
    }

    private void steals(Meters m, String outcome, ToDoubleFunction<ClusterView> read) {
        m.counter("spindle.cluster.steals", "Steal requests by outcome", null, cluster, read,
                Tags.of("outcome", outcome));
    }

    /**
     * A reading of the cluster's stats, for a gauge; NaN once the cluster is closed, or until it first
     * answers (see {@link #stats}).
     */
    private ToDoubleFunction<ClusterView> read(ToDoubleFunction<ClusterStats> counter) {
        // not this binder: the meter holds the cluster weakly only
        Reads reads = this.reads;
        return c -> {
            Returned r = stats(reads, c);
            return r == null ? Double.NaN : counter.applyAsDouble(r.stats);
        };
    }

    /**
     * A reading of one of the cluster's running totals, for a counter: the latest figures a read
     * returned, whatever happened since; NaN only until the cluster first answers. Read as the
     * gauges are ({@link #stats}), but where they read NaN (the cluster closed, or its
     * {@code stats()} threw) a counter keeps its last figure: a registry takes a counter's
     * increase from two readings, and a step registry added the NaN reading less the one before
     * to its step, then the next reading less the NaN, so the increments of both steps were lost
     * although the cluster had counted them; a cumulative one showed the total as NaN, and a
     * closed cluster's totals, for which its meters are kept, were gone.
     */
    private ToDoubleFunction<ClusterView> count(ToDoubleFunction<ClusterStats> counter) {
        Reads reads = this.reads;
        return c -> {
            Returned r = stats(reads, c);
            if (r == null) {
                r = reads.lastAnswer;
            }
            return r == null ? Double.NaN : counter.applyAsDouble(r.stats);
        };
    }

    /**
     * The age of the stats the meters read, in seconds: from when the read that returned them
     * returned to now. It reads the cluster as every meter does, so it is the age of what a meter
     * read at the same moment shows: about 0 while the cluster answers in time (the reading's own
     * read has just returned), growing from the latest read that returned while the cluster does
     * not; NaN when the meters read NaN. Without a read of its own it would show the age as of
     * the previous reading of any meter, which the order of a scrape decides.
     */
    private ToDoubleFunction<ClusterView> age() {
        Reads reads = this.reads;
        return c -> {
            Returned r = stats(reads, c);
            // never below 0: a read may return on a reader thread between the two calls here
            return r == null ? Double.NaN : Math.max(0, reads.clock.getAsLong() - r.at) / 1e9;
        };
    }

    /**
     * The cluster's stats now, with when their read returned, read on a reader thread and
     * waited for at most {@link #WAIT_NANOS}
     * ({@link BoundedReads}); if the read has not returned by then, the latest stats a read
     * returned, in time or late ({@link Reads#latest}); null if the cluster is closed
     * ({@link IllegalStateException}, {@link RejectedExecutionException}) or its read threw
     * anything else, or it has not answered within the wait and no read of it has returned
     * stats yet.
     *
     * <p>A registry reads a gauge or function counter on the thread that scrapes it (a Prometheus
     * endpoint's request thread, a push registry's publisher), one meter after another. A
     * cluster's {@code stats()} is answered by its scheduler thread, and the caller waits for that
     * without heeding interrupts: read on the scraping thread, a coordinator whose scheduler
     * thread was stuck (a transport's callback waiting on a network that is gone) held every
     * scrape for good, the registry's other meters with it, and each later scrape stuck one more
     * thread. Now a stuck cluster holds one reader thread and costs one scrape one wait.
     *
     * <p>Until its read returns, its meters read the latest stats known, not NaN: a gauge reads
     * the latest value it knows. {@link BoundedReads} hands a read's outcome only to the calls
     * that waited for it and got it by its deadline, and drops one that comes later; so with NaN
     * for a read not returned in time, a cluster whose {@code stats()} took a little longer than
     * the wait read NaN at every scrape for good (each scrape started a read, gave up on it, and
     * the next one dropped its answer), and one that answered just after a scrape's deadline read
     * NaN although its figures had come. The read itself now keeps what it returned, whenever it
     * returns. Each reading whose read returns in time still takes its own snapshot, as before.
     *
     * <p>What {@code stats()} threw other than that it is closed was rethrown here, as a direct
     * call would throw it, when the read answered in time (and read NaN when it answered late):
     * Micrometer's gauges catch it, but not its function counters, and the scrape of the whole
     * registry failed with it, every other meter unreported, for as long as the cluster failed.
     * {@link Reads#read} logs it instead.
     */
    private static Returned stats(Reads reads, ClusterView cluster) {
        BoundedReads.Outcome<Returned> outcome;
        try {
            outcome = READERS.read(reads.slot, () -> reads.read(cluster));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return reads.latest;
        }
        if (outcome.stuck()) {
            return reads.latest;               // that read's own figures, if it has returned since
        }
        // null if it threw: closed, or failed (logged by the read)
        return outcome.thrown() == null ? outcome.value() : null;
    }

    /** Whether {@code thrown}, out of a cluster's {@code stats()}, says the cluster is closed. */
    static boolean closed(Throwable thrown) {
        return thrown instanceof IllegalStateException || thrown instanceof RejectedExecutionException;
    }

    /**
     * What a read of a cluster's {@code stats()} threw, to be thrown on the caller's thread as a
     * direct call would throw it: itself if unchecked, else wrapped (no signature declares one).
     * For a bind's ask ({@code Meters}), whose caller is told; the meters read NaN instead.
     */
    static RuntimeException rethrown(Throwable thrown) {
        if (thrown instanceof RuntimeException re) {
            return re;
        }
        if (thrown instanceof Error e) {
            throw e;
        }
        return new IllegalStateException("the cluster's stats() threw a checked exception", thrown);
    }

    /** The stats a read returned, and when it returned them (the binder's clock, nanoseconds). */
    private record Returned(ClusterStats stats, long at) {
    }

    /**
     * One binder's reads of its cluster, and the latest stats one returned. Holds no reference
     * to the cluster (its meters hold that weakly): a read is given it when it starts.
     */
    private static final class Reads {
        private static final System.Logger LOG = System.getLogger(ClusterMetrics.class.getName());

        /** One read in flight at a time, shared by the binder's meters. */
        final BoundedReads.Slot<Returned> slot = new BoundedReads.Slot<>();
        /** {@link System#nanoTime()}, or a test's clock: when a read returned, for the stats' age. */
        final LongSupplier clock;
        /**
         * What the latest read that has returned gave: its stats and when, or null if it threw (the
         * cluster closed) or none has returned yet. Set on the reader thread as the read returns,
         * whether or not a caller still waits for it, so that an answer that came after its
         * deadline is not lost. The slot's reads follow one another (a read starts only once the
         * one before has returned), so an older read never overwrites a newer one's stats.
         */
        volatile Returned latest;
        /**
         * What the latest read that returned stats gave, kept when a later one throws: the
         * figures the counters read from then on ({@link ClusterMetrics#count}). Written as
         * {@link #latest} is, by the reads, which follow one another.
         */
        volatile Returned lastAnswer;
        /** The meters' tags, to say whose stats failed. */
        private final Tags tags;
        /**
         * Whether the latest read threw other than that the cluster is closed, so that a failure
         * is logged once as it starts, not at each reading; written by the reads only, which
         * follow one another.
         */
        private volatile boolean failing;

        Reads(LongSupplier clock, Tags tags) {
            this.clock = clock;
            this.tags = tags;
        }

        /**
         * Reads {@code cluster}'s stats, on a reader thread, and keeps the outcome as {@link #latest};
         * logs what it threw, other than that the cluster is closed, if the read before did not.
         */
        Returned read(ClusterView cluster) {
            try {
                Returned r = new Returned(cluster.stats(), clock.getAsLong());
                latest = r;
                lastAnswer = r;
                failing = false;
                return r;
            } catch (Throwable t) {
                latest = null;                 // closed or failed: the gauges read NaN, not the old figures
                if (!closed(t) && !failing) {
                    failing = true;
                    LOG.log(System.Logger.Level.WARNING, "the stats() of the cluster metered with " + tags
                            + " threw; its gauges read NaN (its counters their last figures) until it answers", t);
                }
                throw t;
            }
        }
    }
}
