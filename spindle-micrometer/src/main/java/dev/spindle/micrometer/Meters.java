/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.micrometer;

import dev.spindle.actor.ActorSystem;
import dev.spindle.async.AsyncRuntime;
import dev.spindle.cluster.ClusterView;
import dev.spindle.internal.observe.BoundedReads;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * Registers the binders' meters one way: every meter reads its value from the monitored object
 * when the registry asks, through a function of that object. A binder queues its meters here and
 * then {@linkplain #register() registers} them together: all of them, or none. Micrometer holds
 * the object weakly, so a binder never keeps a closed scheduler alive; once it is collected its
 * gauges read NaN and its counters their last value.
 *
 * <p>The snapshot behind each reading is racy (see {@code dev.spindle.SchedulerStats}): each
 * meter takes its own, so two meters read at one scrape need not add up while work runs.
 *
 * <h2>One object per meter</h2>
 *
 * <p>Micrometer identifies a meter by its name and tags, and registering an id it already holds
 * returns the meter it holds, whatever object that one reads. Two schedulers with one name (a
 * user's choice: the defaults are numbered)
 * would so share the first one's meters, and a scheduler named like a collected one would get
 * that one's dead meters, which repeat their last reading for ever. So each registration notes,
 * per registry, which object its id reads (weakly), and before registering an id:
 *
 * <ul>
 *   <li>noted for the same object, or not noted: registers as Micrometer does (binding an object
 *       twice is harmless);</li>
 *   <li>noted for an object since collected, or since shut down or closed ({@link #stopped}):
 *       removes the old meter and registers anew;</li>
 *   <li>noted for another live object, not shut down, whose meter is still registered: refuses
 *       with {@link IllegalArgumentException}, telling to name the two apart or tag them.</li>
 * </ul>
 *
 * <h2>Composite registries</h2>
 *
 * <p>A meter registered in a {@link CompositeMeterRegistry} is registered in each registry under
 * it too: there it is any meter of its id that registry already held, and a meter of its id
 * registered there later, straight, is the composite's. So a bind treats as its own registry's the
 * notes of every registry that reaches one of the same registries, composites set aside: a
 * composite's notes count for a registry under it, a registry's for a composite above it, and
 * those of two composites sharing one for each other. An id noted there for another live object
 * refuses the bind as above; one noted there for a stopped or collected object has its meter
 * removed from that registry (from a composite, Micrometer removes it from the registries under it
 * too) before the bind registers its own.
 *
 * <p>The ids compared are those the meters land under, in each registry that holds meters
 * ({@link Landing}; the composite bound to among them, which holds its own whether or not any
 * registry is under it yet): a registry's filters applied, and for a composite's meter the
 * composite's then those of the registry under it, as Micrometer maps them ({@link #mapped}).
 * Compared as the
 * binders build them, a filter of a composite that renamed its meters (a common prefix) refused a
 * pool bound straight to a registry under it for a same-named one bound to the composite, whose
 * meters land there under other ids; and a filter that dropped the tag telling two pools apart let
 * the second bind silently read the first one's meters.
 *
 * <p>A registry added to a composite after the binds is not checked: Micrometer
 * gives the composite's meters those it holds of their ids. A bind to a composite that is rolled
 * back (below) puts back, too, the meters that registries under it held for the objects it binds:
 * a meter it added to the composite may be theirs there, and Micrometer removes a composite's
 * meter from the registries under it as well.
 *
 * <p>A stopped object counts as gone although it may not have been collected yet: restarting a
 * component closes its scheduler and builds one of the same name, and whether the old one was
 * still reachable (a field not yet overwritten, a collection not yet run) must not decide
 * whether the new one can bind.
 *
 * <p>Every id a bind queued is checked before any is registered (an id queued earlier in the same
 * bind counts as noted for its object), so a refused bind leaves the registry and the notes of its
 * meters as they were. That check also refuses an id that a registry it lands in holds for a meter of
 * another kind (an application's counter where the bind registers a function counter; not a
 * stopped or collected object's, which goes as above, the composite bound to included), which the
 * registry would refuse in the middle of the bind: rolling a bind to a composite back removes its
 * composite meters, and Micrometer removes each from the registries under it by id, whatever meter
 * it is there, so the rollback took along a meter an application had registered in a registry
 * under the composite (one the composite's meter had reused), which nothing could put back. What
 * is left to roll back is a refusal the check cannot foresee (a filter or listener that throws, a
 * meter of another kind registered meanwhile by another thread). A union's bind queues its
 * members' meters with its own ({@link #with}): a member named like a bound scheduler, or like
 * another member, used to be refused after the members before it were registered.
 *
 * <p>A note outlives its meter only until the next bind to its registry, which first drops the
 * notes of meters the registry no longer holds (removed by the application): no check above looks
 * at them.
 *
 * <h2>Removing a binder's meters</h2>
 *
 * <p>Each binder keeps, per registry, the meters its binds got ({@link Bound}), and its
 * {@code close()} removes those that registry still holds as the very meter the bind got, and
 * their notes. So it removes neither a meter of the same id registered since by someone else (the
 * application, or a bind that replaced a stopped object's meters) nor any meter it did not
 * register. Nothing removes a stopped object's meters by itself: see {@code SchedulerMetrics}.
 *
 * <p>Binding is rare, so the notes sit behind one lock; reading a meter does not touch them.
 * Whether a cluster holding an id is closed is asked of the cluster ({@code stats()}, a call to
 * a coordinator that may be slow or stuck) outside that lock: a bind that meets a cluster it has
 * not asked yet lets the lock go before changing anything, asks, and starts again with the
 * answer. A closed cluster stays closed, so an answer stays true; one that was live and has
 * closed since is taken as live, as if the bind had come a little earlier. The ask is read as a
 * scrape reads a cluster ({@link #ask}: on a reader thread, waited for at most a second): a
 * cluster that has not answered by then is taken as live, so the bind is refused, saying why,
 * rather than held for as long as the cluster is stuck.
 */
final class Meters {

    /**
     * Per registry (weakly, by identity), which object each id registered here reads (weakly).
     * By identity, not the registry's own {@code equals}: a registry is the user's, and keyed by
     * its {@code equals}, one that called itself equal to another shared that one's notes (a bind
     * to it dropped them, as they named meters it does not hold), and one whose hash changed as
     * meters were added found none of its own at its next bind; either way a second live object
     * of an id already bound was not refused, and read the first one's meters under its name.
     */
    private static final WeakIdentityMap<MeterRegistry, Map<Key, Note>> READS = new WeakIdentityMap<>();

    /** Tests only: how many ids {@code registry}'s notes hold. */
    static int notesOf(MeterRegistry registry) {
        synchronized (READS) {
            Map<Key, Note> notes = READS.get(registry);
            return notes == null ? 0 : notes.size();
        }
    }

    /** {@code MeterRegistry.getMappedId(Meter.Id)}, or null where it cannot be reached: see {@link #mapped}. */
    private static final MethodHandle MAPPED_ID = mappedIdHandle();

    /** A meter's id as the binders build it: its name and all its tags. */
    private record Key(String name, Tags tags) {
    }

    /**
     * The object a registered meter reads, the id the registry gave it (after its filters), and
     * how to register it again (a bind that removed it and then failed puts it back). The id, not
     * the meter, and a registration given the registry and object when called: a meter may hold
     * on to its registry, which would never leave the map, and the object is held weakly.
     */
    private record Note(WeakReference<Object> target, Meter.Id id, Registration registration) {
    }

    /** Registers one meter reading {@code target} in {@code registry}. */
    @FunctionalInterface
    private interface Registration {
        Meter register(MeterRegistry registry, Object target);
    }

    /**
     * A meter queued by a bind: its id (as a key, and as the builder gives it to the registry,
     * before filters), the kind of meter it is, the object it reads, and how to register it.
     */
    private record Queued(Key key, Meter.Id id, Class<? extends Meter> type, Object target,
            Registration registration) {
    }

    /**
     * Where a meter lands: a registry that holds meters itself (not a composite), or the composite
     * a bind is to, compared by identity, and the id that registry gives it, after the filters on
     * the way. The composite counts as well because it holds its meters itself, with registries
     * under it or none, and hands each to a registry added later: bound to a composite with none
     * yet ({@code Metrics.globalRegistry} before an application adds one), two schedulers of one
     * name shared a meter there that no registry under it showed, and the replacement of a stopped
     * one got that one's meters.
     */
    private record Landing(MeterRegistry leaf, Meter.Id id) {
    }

    /** A note, the registry whose it is and its key there: what lands where a queued meter would. */
    private record Held(Notes owner, Key key, Note note) {
    }

    private final MeterRegistry registry;
    private final Tags tags;
    /** The meters of one bind, shared with the {@link #with} of this one, until {@link #register()}. */
    private final List<Queued> queued;
    /** Where the meters this bind registers are kept for the binder's {@code close()}. */
    private final Bound bound;

    /**
     * Meters of a new bind to {@code registry}.
     *
     * @throws NullPointerException if {@code registry} is null: checked here, since every binder's
     *     {@code bindTo} comes this way: a null registry would get notes of its own, kept for good
     *     (a null key is never collected), before the bind failed on its way without a message
     */
    Meters(MeterRegistry registry, Tags tags, Bound bound) {
        this(Objects.requireNonNull(registry, "registry"), tags, new ArrayList<>(), Objects.requireNonNull(bound));
    }

    private Meters(MeterRegistry registry, Tags tags, List<Queued> queued, Bound bound) {
        this.registry = registry;
        this.tags = tags;
        this.queued = queued;
        this.bound = bound;
    }

    /** Meters of the same bind with other tags: {@link #register()} on either registers both's. */
    Meters with(Tags other) {
        return new Meters(registry, other, queued, bound);
    }

    /** A monotonic count (Micrometer {@link FunctionCounter}). */
    <T> void counter(String name, String description, T target, ToDoubleFunction<T> read) {
        counter(name, description, null, target, read, Tags.empty());
    }

    /** A monotonic count with a base unit and extra tags. */
    <T> void counter(String name, String description, String baseUnit, T target, ToDoubleFunction<T> read,
            Tags extra) {
        Tags all = tags.and(extra);
        Meter.Id id = new Meter.Id(name, all, baseUnit, description, Meter.Type.COUNTER);
        queue(id, FunctionCounter.class, target, (r, t) -> {
            @SuppressWarnings("unchecked")
            T typed = (T) t;                   // the target queued with it, or the one noted with it
            return FunctionCounter.builder(name, typed, read)
                    .description(description)
                    .baseUnit(baseUnit)
                    .tags(all)
                    .register(r);
        });
    }

    /** A value that goes up and down (Micrometer {@link Gauge}). */
    <T> void gauge(String name, String description, T target, ToDoubleFunction<T> read) {
        gauge(name, description, null, target, read, Tags.empty());
    }

    /** A value that goes up and down, with a base unit and extra tags. */
    <T> void gauge(String name, String description, String baseUnit, T target, ToDoubleFunction<T> read,
            Tags extra) {
        Tags all = tags.and(extra);
        Meter.Id id = new Meter.Id(name, all, baseUnit, description, Meter.Type.GAUGE);
        queue(id, Gauge.class, target, (r, t) -> {
            @SuppressWarnings("unchecked")
            T typed = (T) t;
            return Gauge.builder(name, typed, read)
                    .description(description)
                    .baseUnit(baseUnit)
                    .tags(all)
                    .register(r);
        });
    }

    private void queue(Meter.Id id, Class<? extends Meter> type, Object target, Registration registration) {
        Key key = new Key(id.getName(), Tags.of(id.getTagsAsIterable()));
        queued.add(new Queued(key, id, type, target, registration));
    }

    /**
     * Registers every meter queued so far, unless another object's meter holds one of their ids:
     * see the class comment.
     *
     * @throws IllegalArgumentException if one id is held for another live object, or by a meter
     *     of another kind, or the registry refuses a meter; then none is registered
     */
    void register() {
        Map<ClusterView, Answer> asked = new IdentityHashMap<>();
        while (true) {
            ClusterView ask;
            try {
                register(asked);
                return;
            } catch (MustAsk m) {
                ask = m.cluster;               // thrown before the bind registered or removed a meter
            }
            // outside the lock: a slow or stuck coordinator held up every bind in the JVM
            asked.put(ask, ask(ask));
        }
    }

    /**
     * Thrown out of {@link #register(Map)}, before it has registered or removed a meter (it has at
     * most dropped notes of meters already gone, as it will again), for a cluster whose
     * state the bind must know and has not asked yet.
     */
    private static final class MustAsk extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient ClusterView cluster;

        MustAsk(ClusterView cluster) {
            super(null, null, false, false);
            this.cluster = cluster;
        }
    }

    /** {@link #register()} under the lock, the clusters it needs in {@code asked}, else {@link MustAsk}. */
    private void register(Map<ClusterView, Answer> asked) {
        synchronized (READS) {
            Map<Key, Note> notes = READS.computeIfAbsent(registry, HashMap::new);
            forgetRemoved(notes);
            List<Notes> reached = reached(notes);
            Set<MeterRegistry> mine = holders(registry);
            Map<Landing, List<Held>> held = held(reached, mine);
            Map<Landing, Queued> bound = new HashMap<>();    // by this bind, so far
            List<List<Landing>> landed = new ArrayList<>();   // each queued meter's, in order
            for (Queued q : queued) {
                // a composite is among its own landings, so its meter of another kind is checked
                // below as any other: refused unless a stopped or collected object's, which goes
                List<Landing> landings = landings(registry, mapped(registry, q.id), mine);
                landed.add(landings);
                for (Landing l : landings) {
                    List<Held> notedThere = held.getOrDefault(l, List.of());
                    Queued earlier = bound.get(l);
                    Object other = earlier != null ? earlier.target : liveHolder(notedThere, q.target, asked);
                    if (other != null && other != q.target) {
                        throw new IllegalArgumentException("meter " + q.key.name + q.key.tags + " is already"
                                + " registered for " + other + ", not " + q.target + ": give the two different"
                                + " names, or tell them apart with extra tags" + silent(other, asked));
                    }
                    // the registry would refuse it, after the meters before it were registered:
                    // refused now, no rollback has to take out a meter a registry held before
                    Meter holding = earlier != null ? null : meterAt(l.leaf, l.id);
                    if (earlier != null && earlier.type != q.type) {
                        throw otherKind(q, l.leaf, null);
                    } else if (holding != null && !q.type.isInstance(holding) && !freed(notedThere, q.target, asked)) {
                        throw otherKind(q, l.leaf, holding);
                    }
                    bound.put(l, q);
                }
            }
            // a registry may still refuse one (a filter or listener that throws, a meter of
            // another kind registered meanwhile): then the meters this bind added go again, those
            // it removed (a stopped object's) come back, and the notes stay as they were
            Set<Meter> before = Collections.newSetFromMap(new IdentityHashMap<>());
            before.addAll(registry.getMeters());
            List<Meter> added = new ArrayList<>();
            List<Runnable> removed = new ArrayList<>();   // each puts one back; holds its object until done
            Map<Key, Note> noted = new HashMap<>();
            List<Runnable> kept = keptUnder(reached);
            Set<Note> gone = Collections.newSetFromMap(new IdentityHashMap<>());
            List<Held> dropped = new ArrayList<>();       // notes of the meters removed, once done
            List<Meter> got = new ArrayList<>();          // this bind's meters, for the binder's close
            try {
                for (int i = 0; i < queued.size(); i++) {
                    Queued q = queued.get(i);
                    for (Landing l : landed.get(i)) {
                        for (Held h : held.getOrDefault(l, List.of())) {
                            Object old = h.note.target.get();
                            MeterRegistry r = h.owner.registry;
                            if (old != q.target && !gone.contains(h.note) && isHeld(r, h.note)) {
                                // it read an object since collected, which would repeat its last
                                // value, or one since stopped (a live one refused the bind above)
                                gone.add(h.note);
                                dropped.add(h);
                                r.remove(h.note.id);
                                if (old != null) {
                                    removed.add(() -> h.note.registration.register(r, old));
                                }
                            }
                        }
                    }
                    Meter meter = q.registration.register(registry, q.target);
                    if (!before.contains(meter)) {
                        added.add(meter);
                    }
                    got.add(meter);
                    noted.put(q.key, new Note(new WeakReference<>(q.target), meter.getId(), q.registration));
                }
            } catch (RuntimeException | Error e) {
                added.forEach(registry::remove);
                removed.forEach(back -> {
                    try {
                        back.run();
                    } catch (RuntimeException | Error again) {
                        e.addSuppressed(again);
                    }
                });
                kept.forEach(back -> {
                    try {
                        back.run();
                    } catch (RuntimeException | Error again) {
                        e.addSuppressed(again);
                    }
                });
                throw e;
            }
            // a note of another key whose meter went (a filter mapped the two keys to one id)
            // would look held again once this bind's meter of that id is there
            dropped.forEach(h -> h.owner.notes.remove(h.key, h.note));
            notes.putAll(noted);
            this.bound.add(registry, got);
            queued.clear();
        }
    }

    /**
     * The meters one binder's binds registered, per registry, so that its {@code close()} removes
     * them, and only them: from every registry it was bound to, each meter that registry still
     * holds as the very meter the bind got (by identity, under the id the registry gave it). A
     * meter since removed by the application, or replaced by another binder's (this binder's
     * object was stopped and a same-named one bound: see the class comment), is left alone. Two
     * binders of one object share its meters (a bind of an id its object already holds gets the
     * meter there), so closing either removes them.
     *
     * <p>Registries are held weakly and by identity ({@link WeakIdentityMap}), the meters weakly:
     * a binder kept for long does not keep the registries it was bound to, nor the meters they
     * have dropped (a meter may hold its registry, so a strongly held one would keep its key). A
     * meter still registered is reachable from its registry, so its reference is not cleared
     * while {@code close()} has anything to remove. Guarded by the lock of the binds' notes, so
     * that a close and a bind of the same binder do not interleave.
     */
    static final class Bound {
        private final WeakIdentityMap<MeterRegistry, List<WeakReference<Meter>>> meters = new WeakIdentityMap<>();

        /** Keeps {@code got}, registered in {@code registry} by a bind that succeeded; under the lock. */
        void add(MeterRegistry registry, List<Meter> got) {
            List<WeakReference<Meter>> kept = meters.computeIfAbsent(registry, ArrayList::new);
            kept.removeIf(ref -> ref.get() == null);   // binding again and again does not grow it
            for (Meter m : got) {
                if (kept.stream().noneMatch(ref -> ref.get() == m)) {   // the same binder bound again
                    kept.add(new WeakReference<>(m));
                }
            }
        }

        /**
         * Removes the meters kept, from every registry they were registered in, and forgets them:
         * a later bind registers them anew, and a second close removes nothing more.
         */
        void close() {
            RuntimeException failed = null;
            synchronized (READS) {
                List<Map.Entry<MeterRegistry, List<WeakReference<Meter>>>> all = new ArrayList<>();
                meters.forEach((registry, kept) -> all.add(Map.entry(registry, kept)));
                meters.clear();                // forgotten even if a registry throws below
                for (Map.Entry<MeterRegistry, List<WeakReference<Meter>>> e : all) {
                    MeterRegistry registry = e.getKey();
                    Map<Key, Note> notes = READS.get(registry);
                    for (WeakReference<Meter> ref : e.getValue()) {
                        Meter meter = ref.get();
                        // the very meter, not another one of its id: see above
                        if (meter == null || meterAt(registry, meter.getId()) != meter) {
                            continue;
                        }
                        try {
                            registry.remove(meter);
                        } catch (RuntimeException x) {   // a listener that throws: the others still go
                            if (failed == null) {
                                failed = x;
                            } else {
                                failed.addSuppressed(x);
                            }
                            continue;
                        }
                        if (notes != null) {   // no longer held: dropped now, not at the next bind
                            notes.values().removeIf(note -> note.id.equals(meter.getId()) && !isHeld(registry, note));
                        }
                    }
                }
            }
            if (failed != null) {
                throw failed;
            }
        }
    }

    /**
     * Drops the notes of meters this bind's registry no longer holds: the application removed
     * them (a pool per job, its meters removed when the job is done). Every check of a bind looks
     * only at notes whose meter is still registered ({@link #isHeld}), so such a note decides
     * nothing; kept, it stayed for as long as the registry lived, one for every meter ever
     * removed, and a registry whose binds came and went held ever more of them.
     */
    private void forgetRemoved(Map<Key, Note> notes) {
        if (notes.isEmpty()) {
            return;
        }
        Set<Meter.Id> held = new HashSet<>();     // as isHeld compares them: name and tags
        for (Meter m : registry.getMeters()) {
            held.add(m.getId());
        }
        notes.values().removeIf(note -> !held.contains(note.id));
    }

    /**
     * For a bind to a composite: what puts back, after a rollback, the meters that the registries
     * under it held before the bind for the objects it binds. A meter the bind added to the
     * composite may be, in a registry under it, the one that registry already held (the same object
     * bound straight to it, or through another composite): removing the composite's meter,
     * Micrometer removes it from the registries under it too, and the rollback of a bind refused by
     * one of them took the other's earlier meters along. Each puts back the meters of one of
     * {@code queued} in one registry under the composite, if that registry lost any meter it held.
     */
    private List<Runnable> keptUnder(List<Notes> reached) {
        List<Runnable> kept = new ArrayList<>();
        if (!(registry instanceof CompositeMeterRegistry)) {
            return kept;                       // the rollback removes from this registry only
        }
        for (MeterRegistry leaf : leaves(registry)) {
            Set<Meter> had = Collections.newSetFromMap(new IdentityHashMap<>());
            had.addAll(leaf.getMeters());
            List<Queued> its = new ArrayList<>();   // bound to it before, as now
            for (Queued q : queued) {
                for (Notes n : reached) {
                    Note note = n.notes.get(q.key);
                    if (note != null && note.target.get() == q.target && isHeld(n.registry, note)
                            && leaves(n.registry).contains(leaf)) {
                        its.add(q);
                        break;
                    }
                }
            }
            if (!its.isEmpty()) {
                kept.add(() -> {
                    Set<Meter> now = Collections.newSetFromMap(new IdentityHashMap<>());
                    now.addAll(leaf.getMeters());
                    if (!now.containsAll(had)) {
                        its.forEach(q -> q.registration.register(leaf, q.target));
                    }
                });
            }
        }
        return kept;
    }

    /** A registry and its notes. */
    private record Notes(MeterRegistry registry, Map<Key, Note> notes) {
    }

    /**
     * This registry's notes ({@code own}) first, then those of every other registry that reaches
     * one of the registries this one reaches (see "Composite registries" above).
     */
    private List<Notes> reached(Map<Key, Note> own) {
        List<Notes> reached = new ArrayList<>();
        reached.add(new Notes(registry, own));
        Set<MeterRegistry> mine = leaves(registry);
        READS.forEach((r, notes) -> {
            if (r != registry && !Collections.disjoint(mine, leaves(r))) {
                reached.add(new Notes(r, notes));
            }
        });
        return reached;
    }

    /**
     * The registries that hold a meter registered in {@code registry} (see {@link Landing}): those
     * it lands in ({@link #leaves}), and a composite itself.
     */
    private static Set<MeterRegistry> holders(MeterRegistry registry) {
        Set<MeterRegistry> holders = leaves(registry);
        holders.add(registry);
        return holders;
    }

    /**
     * The registries a meter registered in {@code registry} lands in, composites set aside: those
     * under it, for a composite (Micrometer refuses a composite that contains itself), else itself.
     */
    private static Set<MeterRegistry> leaves(MeterRegistry registry) {
        Set<MeterRegistry> leaves = Collections.newSetFromMap(new IdentityHashMap<>());
        List<MeterRegistry> todo = new ArrayList<>(List.of(registry));
        while (!todo.isEmpty()) {
            MeterRegistry r = todo.remove(todo.size() - 1);
            if (r instanceof CompositeMeterRegistry composite) {
                todo.addAll(composite.getRegistries());
            } else {
                leaves.add(r);
            }
        }
        return leaves;
    }

    /**
     * What lands in each of {@code mine}: the notes of {@code reached}, by where their meters land
     * (see {@link #landings}), those of this bind's registry first.
     */
    private static Map<Landing, List<Held>> held(List<Notes> reached, Set<MeterRegistry> mine) {
        Map<Landing, List<Held>> held = new HashMap<>();
        for (Notes n : reached) {
            n.notes.forEach((key, note) -> {
                for (Landing l : landings(n.registry, note.id, mine)) {
                    held.computeIfAbsent(l, k -> new ArrayList<>()).add(new Held(n, key, note));
                }
            });
        }
        return held;
    }

    /**
     * Where a meter that {@code registry} gave the id {@code id} (its own filters applied) lands
     * among {@code mine}: in {@code registry} itself, and, for a composite, in each registry under
     * it, which registers the composite's meter under the composite's id and applies its own
     * filters to it (a composite registers its meters straight into the registries that hold
     * meters, so the filters of a composite between the two are not applied).
     */
    private static List<Landing> landings(MeterRegistry registry, Meter.Id id, Set<MeterRegistry> mine) {
        List<Landing> landings = new ArrayList<>();
        if (mine.contains(registry)) {
            landings.add(new Landing(registry, id));   // a composite here is the one bound to
        }
        if (!(registry instanceof CompositeMeterRegistry)) {
            return landings;
        }
        for (MeterRegistry leaf : leaves(registry)) {
            if (mine.contains(leaf)) {
                landings.add(new Landing(leaf, mapped(leaf, id)));
            }
        }
        return landings;
    }

    /**
     * The object other than {@code target} that the first of {@code held} reads, if it is live,
     * not {@linkplain #stopped stopped}, and its meter still registered; else null.
     */
    private static Object liveHolder(List<Held> held, Object target, Map<ClusterView, Answer> asked) {
        for (Held h : held) {
            Object holder = h.note.target.get();
            if (holder != null && holder != target && !stopped(holder, asked) && isHeld(h.owner.registry, h.note)) {
                return holder;
            }
        }
        return null;
    }

    /**
     * Whether the bind removes a meter of {@code held} first: one still registered for a stopped
     * or collected object.
     */
    private static boolean freed(List<Held> held, Object target, Map<ClusterView, Answer> asked) {
        for (Held h : held) {
            Object holder = h.note.target.get();
            if (holder != target && (holder == null || stopped(holder, asked)) && isHeld(h.owner.registry, h.note)) {
                return true;
            }
        }
        return false;
    }

    /** The meter {@code registry} holds under {@code id} (filters applied), or null. */
    private static Meter meterAt(MeterRegistry registry, Meter.Id id) {
        return registry.find(id.getName()).meters().stream().filter(m -> m.getId().equals(id)).findFirst()
                .orElse(null);
    }

    private static IllegalArgumentException otherKind(Queued q, MeterRegistry registry, Meter there) {
        return new IllegalArgumentException("meter " + q.key.name + q.key.tags + " is already registered in "
                + registry + " as another kind of meter" + (there == null ? "" : " (" + there.getClass().getSimpleName() + ")")
                + ", not a " + q.type.getSimpleName() + ": the registry would refuse it");
    }

    /**
     * The id {@code registry} gives a meter registered under {@code id}: its filters applied (a
     * renaming, common tags, ignored tags), or the id of the meter it already holds for
     * {@code id}, as Micrometer maps it. Micrometer keeps that mapping package-private
     * ({@code MeterRegistry.getMappedId}, what its {@code MultiGauge} uses), and the filters
     * themselves private: it is called through a handle. Where the JVM refuses that handle (a
     * Micrometer whose method is gone or closed off), the id is compared as the binder built
     * it, before filters, as before.
     */
    static Meter.Id mapped(MeterRegistry registry, Meter.Id id) {
        if (MAPPED_ID == null) {
            return id;
        }
        try {
            return (Meter.Id) MAPPED_ID.invokeExact(registry, id);
        } catch (RuntimeException | Error e) {
            throw e;                           // a filter that throws: the registry would throw too
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    private static MethodHandle mappedIdHandle() {
        try {
            return MethodHandles.privateLookupIn(MeterRegistry.class, MethodHandles.lookup()).findVirtual(
                    MeterRegistry.class, "getMappedId", MethodType.methodType(Meter.Id.class, Meter.Id.class));
        } catch (ReflectiveOperationException | RuntimeException unreachable) {
            return null;
        }
    }

    /**
     * Whether {@code target} has been shut down or closed, so that its name is free for its
     * replacement: a pool or union ({@link ExecutorService#isShutdown()}), an async runtime, an
     * actor system, or a cluster whose stats can no longer be read: one in {@code asked}, as it
     * answered there, else {@link MustAsk} (under the lock, a cluster is not asked: see
     * {@link #register()}).
     */
    private static boolean stopped(Object target, Map<ClusterView, Answer> asked) {
        if (target instanceof ExecutorService pool) {
            return pool.isShutdown();
        } else if (target instanceof AsyncRuntime runtime) {
            return runtime.isShutdown();
        } else if (target instanceof ActorSystem system) {
            return system.isClosed();
        } else if (target instanceof ClusterView cluster) {
            Answer answer = asked.get(cluster);
            if (answer == null) {
                throw new MustAsk(cluster);
            }
            return answer == Answer.CLOSED;
        }
        return false;
    }

    /** What a cluster answered a bind that asked whether it is closed ({@link #ask}). */
    private enum Answer {
        /** Its stats could be read. */
        LIVE,
        /** Its stats can no longer be read. */
        CLOSED,
        /** Its read had not returned by its deadline: taken as live. */
        SILENT
    }

    /**
     * Per cluster (weakly), the reads that ask it whether it is closed: one in flight at a time,
     * whatever the binds that ask, so a stuck cluster holds one reader thread for them however
     * often they ask, and costs the binds one wait per stuck episode ({@link BoundedReads}). Apart
     * from the slots of its binders' meters, which are the binders' own: a bind meets the cluster
     * only, not the binder that registered the meter. A slot holds its cluster only while a read
     * of it runs (the reader thread holds it then anyway). Keyed by identity: a view is the
     * user's, and keyed by its {@code equals}, a view that called itself equal to a stuck one was
     * answered with that one's read (taken as live when closed, or as closed when live), and one
     * whose hash changed added a slot each time it was asked about.
     */
    private static final WeakIdentityMap<ClusterView, BoundedReads.Slot<Boolean>> ASKS = new WeakIdentityMap<>();

    /**
     * Whether {@code cluster}'s stats can no longer be read; called without the lock. Read on a
     * reader thread of {@link ClusterMetrics}'s and waited for as a scrape waits for it (at most
     * {@link ClusterMetrics#WAIT_NANOS} from the read's start): called on the bind's thread, a
     * coordinator whose scheduler thread was stuck held the bind's caller for good, as it held the
     * scrape before its reads were bounded. A cluster that has not answered by then is taken as
     * live ({@link Answer#SILENT}): taken as closed, a cluster slow for a moment lost its meters to
     * a same-named one, which read its figures under its name, and nobody was told; refused, the
     * caller is told, and nothing is registered or removed. A bind interrupted while it waits takes
     * it so too, its interrupt kept.
     *
     * @throws RuntimeException what {@code stats()} threw other than saying it is closed, as
     *     before
     */
    private static Answer ask(ClusterView cluster) {
        BoundedReads.Slot<Boolean> slot;
        synchronized (ASKS) {
            slot = ASKS.computeIfAbsent(cluster, BoundedReads.Slot::new);
        }
        BoundedReads.Outcome<Boolean> outcome;
        try {
            outcome = ClusterMetrics.READERS.read(slot, () -> closed(cluster));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Answer.SILENT;
        }
        if (outcome.stuck()) {
            return Answer.SILENT;
        }
        Throwable thrown = outcome.thrown();
        if (thrown == null) {
            return outcome.value() ? Answer.CLOSED : Answer.LIVE;
        }
        throw ClusterMetrics.rethrown(thrown);
    }

    /** Whether {@code cluster}'s stats can no longer be read, read now: on a reader thread. */
    private static boolean closed(ClusterView cluster) {
        try {
            cluster.stats();
            return false;
        } catch (IllegalStateException | RejectedExecutionException closed) {
            return true;
        }
    }

    /** For a refusal: why {@code holder} counts as live if it did not answer, else nothing. */
    private static String silent(Object holder, Map<ClusterView, Answer> asked) {
        if (!(holder instanceof ClusterView cluster) || asked.get(cluster) != Answer.SILENT) {
            return "";
        }
        return "; " + holder + " has not answered within " + TimeUnit.NANOSECONDS.toMillis(ClusterMetrics.WAIT_NANOS)
                + " ms whether it is closed (its stats() is slow or stuck), so it is taken as live: close it"
                + " (a closed cluster answers so), or bind again once it answers";
    }

    /**
     * Whether the meter {@code note} registered is still in {@code registry}. Looked up by the name
     * the registry gave it: a filter may have renamed it (a common prefix), and under the name the
     * binder asked for the registry holds nothing.
     */
    private static boolean isHeld(MeterRegistry registry, Note note) {
        return registry.find(note.id.getName()).meters().stream().anyMatch(m -> m.getId().equals(note.id));
    }
}
