/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.micrometer;

import dev.spindle.Scheduler;
import dev.spindle.SchedulerStats;
import dev.spindle.async.AsyncRuntime;
import dev.spindle.pool.PinnedPool;
import dev.spindle.pool.PriorityPool;
import dev.spindle.pool.SchedulerUnion;
import dev.spindle.pool.WorkSharingPool;
import dev.spindle.pool.WorkStealingPool;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Meters for one Spindle scheduler: any pool of {@code dev.spindle.pool} or an
 * {@link AsyncRuntime}, read from its {@code stats()} snapshot whenever the registry asks.
 *
 * <pre>{@code
 * MeterRegistry registry = new SimpleMeterRegistry();
 * SchedulerMetrics.of(pool).bindTo(registry);       // spindle.pool.*, tagged pool=<its name>
 * SchedulerMetrics.of(runtime).bindTo(registry);    // spindle.async.*, tagged runtime=<its name>
 * }</pre>
 *
 * <p>A pool's meters are named {@code spindle.pool.*} and tagged {@code pool} with the name
 * given to its builder (the prefix of its threads' names):
 *
 * <table>
 *   <caption>meters of a pool</caption>
 *   <tr><th>name</th><th>kind</th><th>what</th></tr>
 *   <tr><td>{@code spindle.pool.workers}</td><td>gauge</td><td>workers able to run tasks now,
 *       spares included</td></tr>
 *   <tr><td>{@code spindle.pool.workers.active}</td><td>gauge</td><td>workers running a task
 *       now: neither parked nor searching for work ({@link SchedulerStats#activeWorkers()})</td></tr>
 *   <tr><td>{@code spindle.pool.parallelism}</td><td>gauge</td><td>workers the pool aims to keep
 *       running</td></tr>
 *   <tr><td>{@code spindle.pool.workers.spare}</td><td>gauge</td><td>spare workers now running
 *       beyond the parallelism, started for blocking sections</td></tr>
 *   <tr><td>{@code spindle.pool.workers.blocked}</td><td>gauge</td><td>workers inside a blocking
 *       section</td></tr>
 *   <tr><td>{@code spindle.pool.tasks.queued}</td><td>gauge</td><td>tasks waiting, tagged
 *       {@code queue=shared} (the injector or shared queue) and {@code queue=local} (the
 *       workers' own queues)</td></tr>
 *   <tr><td>{@code spindle.pool.tasks.completed}</td><td>counter</td><td>tasks run to their
 *       end</td></tr>
 *   <tr><td>{@code spindle.pool.steals}</td><td>counter</td><td>tasks taken from other
 *       workers</td></tr>
 *   <tr><td>{@code spindle.pool.parks}</td><td>counter</td><td>times a worker parked</td></tr>
 *   <tr><td>{@code spindle.pool.unparks}</td><td>counter</td><td>times a parked worker was woken
 *       to look for work</td></tr>
 *   <tr><td>{@code spindle.pool.tasks.rejected}</td><td>counter</td><td>tasks refused after
 *       shutdown</td></tr>
 *   <tr><td>{@code spindle.pool.tasks.failed}</td><td>counter</td><td>task exceptions handed to
 *       the uncaught-exception handler</td></tr>
 * </table>
 *
 * <p>An async runtime's are named {@code spindle.async.*} and tagged {@code runtime}:
 * {@code workers}, {@code workers.active}, {@code tasks.queued} (shared and local), {@code tasks.live} (spawned and
 * not yet done), {@code polls}, {@code wakeups}, {@code steals}, {@code parks} and {@code unparks}. A {@link SchedulerUnion} gets
 * {@code spindle.union.tasks.routed} per member (tags {@code union} and {@code member}, the
 * index) and its members their own meters ({@link #ofUnion}).
 *
 * <p>The values come from a racy snapshot ({@link SchedulerStats}): estimates while tasks run,
 * exact once the scheduler is quiet. Once the scheduler has terminated, its worker gauges
 * ({@code workers}, {@code workers.active}, {@code workers.spare}) read 0. The scheduler is held
 * weakly by the meters, as Micrometer holds the objects of function-based meters: binding does
 * not keep a pool alive (the binder itself holds it, as long as the application keeps the binder).
 *
 * <h2>Removing the meters</h2>
 *
 * <p>{@link #close()} removes the meters this binder registered, from every registry it was bound
 * to, as Micrometer's own binders that hold resources do ({@code KafkaClientMetrics} is
 * {@link AutoCloseable} for that): an application that makes pools with unique names (one per
 * batch of requests, per tenant) closes each pool's binder when it is done with the pool, and the
 * registry holds the meters of the pools it has now, not of every pool it ever had:
 *
 * <pre>{@code
 * WorkSharingPool pool = WorkSharingPool.builder().name("batch-" + id).build();
 * SchedulerMetrics metrics = SchedulerMetrics.of(pool);
 * metrics.bindTo(registry);
 * try {
 *     runBatch(pool);
 * } finally {
 *     pool.close();          // shut down, wait for its tasks
 *     metrics.close();       // its spindle.pool.* meters tagged pool=batch-<id> go
 * }
 * }</pre>
 *
 * <p>A closed scheduler's meters are not removed by themselves: the registry would lose the final
 * counts (the tasks completed and failed since its last scrape) before any scrape or publish saw
 * them, and nothing tells Spindle when the registry has read them. So they stay, the counters at
 * their last value, until the binder is closed, or a scheduler of its name is bound in its place
 * (see below). Close the binder after the pool has ended and, where the final figures matter,
 * after the registry's next scrape or step. {@code close()} removes only the meters this binder's
 * binds registered and a registry still holds as they were registered: not a meter the application
 * removed and registered again under the same id, nor those of a same-named scheduler that
 * replaced this one's, nor any other meter. Two binders of one scheduler share its meters (the
 * second bind gets the first's), so closing either removes them. A union's binder
 * ({@link #ofUnion}) removes its members' meters too. Closing again removes nothing more; binding
 * a closed binder again registers its meters again.
 *
 * <p>Names tell the schedulers apart: {@code bindTo} throws {@link IllegalArgumentException} for a
 * scheduler named like another live one already bound to that registry with the same tags (its
 * meters would be the other's; bound to a {@code CompositeMeterRegistry} over it, or to one under
 * it, counts as bound to it, as the meters are registered there too; the ids are compared as the
 * registries' filters make them), and replaces the meters of
 * one that was collected or shut down. Binding the same scheduler twice is harmless. A bind is
 * all or nothing: refused, it registers no meter (a union's, none for any member).
 */
public final class SchedulerMetrics implements MeterBinder, AutoCloseable {

    private enum Kind {
        POOL("spindle.pool", "pool"),
        ASYNC("spindle.async", "runtime");

        final String prefix;
        final String tagKey;

        Kind(String prefix, String tagKey) {
            this.prefix = prefix;
            this.tagKey = tagKey;
        }
    }

    /**
     * Queues this binder's meters on a bind's {@link Meters}: a scheduler's, or a union's and its
     * members'. Holds the scheduler (or union), as the binder always has; the meters' functions
     * capture neither it nor this binder.
     */
    private final Consumer<Meters> queue;
    /** The meters this binder's binds registered, per registry, for {@link #close()}. */
    private final Meters.Bound bound = new Meters.Bound();

    private SchedulerMetrics(Consumer<Meters> queue) {
        this.queue = queue;
    }

    private static SchedulerMetrics ofScheduler(Object scheduler, Function<Object, SchedulerStats> stats, Kind kind,
            Iterable<Tag> tags) {
        String name = stats.apply(scheduler).name();
        Tags all = Tags.of(kind.tagKey, name).and(Objects.requireNonNull(tags, "tags"));
        return new SchedulerMetrics(m -> queue(m, scheduler, stats, kind, all));
    }

    /**
     * Meters for a pool of {@code dev.spindle.pool} ({@link WorkStealingPool},
     * {@link WorkSharingPool}, {@link PriorityPool} or {@link PinnedPool}), tagged
     * {@code pool=<its name>}.
     *
     * @param pool the pool whose {@code stats()} the meters read
     * @return the binder, to {@code bindTo} a registry
     * @throws IllegalArgumentException if {@code pool} is none of those (a union: see
     *     {@link #ofUnion}); the async runtime has an overload of its own
     * @throws NullPointerException if {@code pool} is null
     */
    public static SchedulerMetrics of(Scheduler pool) {
        return of(pool, Tags.empty());
    }

    /**
     * Meters for a pool, with extra tags on every meter.
     *
     * @param pool the pool whose {@code stats()} the meters read
     * @param tags added to every meter, after the object's own tag (Micrometer's {@code Tags.of(...)})
     * @return the binder, to {@code bindTo} a registry
     * @throws IllegalArgumentException if {@code pool} is not a pool of {@code dev.spindle.pool}
     * @throws NullPointerException if an argument is null
     */
    public static SchedulerMetrics of(Scheduler pool, Iterable<Tag> tags) {
        Objects.requireNonNull(pool, "pool");
        return ofScheduler(pool, statsReader(pool), Kind.POOL, tags);
    }

    /**
     * Meters for an async runtime, tagged {@code runtime=<its name>}.
     *
     * @param runtime the runtime whose {@code stats()} the meters read
     * @return the binder, to {@code bindTo} a registry
     * @throws NullPointerException if {@code runtime} is null
     */
    public static SchedulerMetrics of(AsyncRuntime runtime) {
        return of(runtime, Tags.empty());
    }

    /**
     * Meters for an async runtime, with extra tags on every meter.
     *
     * @param runtime the runtime whose {@code stats()} the meters read
     * @param tags added to every meter, after the object's own tag (Micrometer's {@code Tags.of(...)})
     * @return the binder, to {@code bindTo} a registry
     * @throws NullPointerException if an argument is null
     */
    public static SchedulerMetrics of(AsyncRuntime runtime, Iterable<Tag> tags) {
        Objects.requireNonNull(runtime, "runtime");
        return ofScheduler(runtime, r -> ((AsyncRuntime) r).stats(), Kind.ASYNC, tags);
    }

    /**
     * Meters for a union: the tasks routed to each member, tagged {@code union=<name>} and
     * {@code member=<index>}, and each member's own meters where the member is a pool or a union
     * (a nested union is named {@code <name>.<index>}); other members get only the routed count.
     *
     * @param union the union whose routed counts and members the meters read
     * @param name the value of the {@code union} tag
     * @param tags added to every meter, after the object's own tag (Micrometer's {@code Tags.of(...)})
     * @return the binder, to {@code bindTo} a registry; its {@code bindTo} registers every meter
     *     of the union and its members, or (throwing {@link IllegalArgumentException}) none, and its
     *     {@link #close()} removes them
     * @throws NullPointerException if an argument is null
     */
    public static SchedulerMetrics ofUnion(SchedulerUnion union, String name, Iterable<Tag> tags) {
        Objects.requireNonNull(union, "union");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(tags, "tags");
        // the members' with the union's, in one bind: all or none
        return new SchedulerMetrics(m -> queueUnion(m, union, name, tags));
    }

    /** Queues the meters of {@code union} and of its members, nested unions' included, on {@code meters}. */
    private static void queueUnion(Meters meters, SchedulerUnion union, String name, Iterable<Tag> tags) {
        Meters m = meters.with(Tags.of("union", name).and(tags));
        for (int i = 0; i < union.size(); i++) {
            int index = i;
            m.counter("spindle.union.tasks.routed", "Tasks the union routed to this member", null,
                    union, u -> u.routedCounts().get(index), Tags.of("member", Integer.toString(i)));
            Scheduler member = union.member(i);
            if (member instanceof SchedulerUnion nested) {
                queueUnion(meters, nested, name + "." + i, tags);
            } else if (statsReaderOrNull(member) != null) {
                of(member, tags).queue.accept(meters);
            }
        }
    }

    /**
     * The stats of a pool of {@code dev.spindle.pool}, which share no public supertype with a
     * {@code stats()} method (their lifecycle core is package-private).
     */
    static Function<Object, SchedulerStats> statsReader(Scheduler pool) {
        Function<Object, SchedulerStats> reader = statsReaderOrNull(pool);
        if (reader == null) {
            throw new IllegalArgumentException("not a pool of dev.spindle.pool: " + pool.getClass().getName()
                    + (pool instanceof SchedulerUnion ? " (bind a union with SchedulerMetrics.ofUnion)" : ""));
        }
        return reader;
    }

    private static Function<Object, SchedulerStats> statsReaderOrNull(Scheduler pool) {
        if (pool instanceof WorkStealingPool) {
            return p -> ((WorkStealingPool) p).stats();
        } else if (pool instanceof WorkSharingPool) {
            return p -> ((WorkSharingPool) p).stats();
        } else if (pool instanceof PriorityPool) {
            return p -> ((PriorityPool) p).stats();
        } else if (pool instanceof PinnedPool) {
            return p -> ((PinnedPool) p).stats();
        }
        return null;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Meters m = new Meters(registry, Tags.empty(), bound);
        queue.accept(m);
        m.register();
    }

    /**
     * Removes from every registry this binder was bound to the meters its binds registered there
     * and that registry still holds as registered (see "Removing the meters" above). Closing does
     * not stop the scheduler, and may come before or after it ends; closing again removes nothing
     * more, and a later {@code bindTo} registers the meters again.
     *
     * @throws RuntimeException what a registry threw removing a meter (a listener of its own), once
     *     the other meters are removed; the binder has forgotten them all
     */
    @Override
    public void close() {
        bound.close();
    }

    /** Queues {@code scheduler}'s meters on {@code meters}, with {@code tags}. */
    private static void queue(Meters meters, Object scheduler, Function<Object, SchedulerStats> read, Kind kind,
            Tags tags) {
        Meters m = meters.with(tags);
        String p = kind.prefix + ".";
        m.gauge(p + "workers", "Workers able to run tasks now", scheduler, s -> read.apply(s).liveWorkers());
        m.gauge(p + "workers.active", "Workers running a task now (neither parked nor searching for work)",
                scheduler, s -> read.apply(s).activeWorkers());
        m.gauge(p + "tasks.queued", "Tasks waiting in the shared queue", null, scheduler,
                s -> read.apply(s).sharedQueued(), Tags.of("queue", "shared"));
        m.gauge(p + "tasks.queued", "Tasks waiting in the workers' own queues", null, scheduler,
                s -> localQueued(read.apply(s)), Tags.of("queue", "local"));
        m.counter(p + "steals", "Tasks taken from other workers' queues", scheduler,
                s -> read.apply(s).steals());
        m.counter(p + "parks", "Times a worker parked for want of work", scheduler,
                s -> read.apply(s).parks());
        m.counter(p + "unparks", "Times a parked worker was woken to look for work", scheduler,
                s -> read.apply(s).unparks());
        if (kind == Kind.ASYNC) {
            m.counter(p + "polls", "Polls of async tasks", scheduler, s -> read.apply(s).polls());
            m.counter(p + "wakeups", "Woken tasks taken from a worker's own wake channel", scheduler,
                    s -> read.apply(s).wakeups());
            m.gauge(p + "tasks.live", "Tasks spawned and not yet done", scheduler,
                    s -> ((AsyncRuntime) s).liveTasks());
            return;
        }
        m.gauge(p + "parallelism", "Workers the pool aims to keep running", scheduler,
                s -> read.apply(s).parallelism());
        m.gauge(p + "workers.spare", "Spare workers running beyond the parallelism", scheduler,
                s -> spare(read.apply(s)));
        m.gauge(p + "workers.blocked", "Workers inside a blocking section", scheduler,
                s -> read.apply(s).blockedWorkers());
        m.counter(p + "tasks.completed", "Tasks run to their end", scheduler, s -> read.apply(s).completed());
        m.counter(p + "tasks.rejected", "Tasks refused because the pool was shut down", scheduler,
                s -> read.apply(s).rejected());
        m.counter(p + "tasks.failed", "Task exceptions handed to the uncaught-exception handler", scheduler,
                s -> read.apply(s).failed());
    }

    private static long localQueued(SchedulerStats s) {
        return s.queued() - s.sharedQueued();
    }

    /**
     * Spares are started only beyond the parallelism, to stand in for blocked workers. None once
     * the scheduler has terminated: its snapshot then reads no live worker.
     */
    private static int spare(SchedulerStats s) {
        return Math.max(0, s.liveWorkers() - s.parallelism());
    }
}
