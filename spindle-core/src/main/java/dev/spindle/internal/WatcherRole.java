/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.internal;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * The watcher role of a pool of workers that keep work no parked peer is woken for: one parked
 * worker at a time does not sleep for good while a peer may hold such work, but watches the peers
 * with its {@link LoneTaskWatch} and takes work from one whose task runs on for a whole interval.
 * Used by spindle-async's workers (a task in a worker's LIFO slot wakes nobody), by
 * {@code WorkSharingPool} (nor does a task in a worker's slot), and by {@code WorkStealingPool}'s
 * core workers (whose chains' slot fills wake nobody while the role is held, {@link #isHeld}). One
 * watcher is enough: it keeps
 * the cost at one timed wake-up an interval while a peer holds work; while none does it backs
 * off to the watch's sleep cap, and either watches on for good (the async runtime) or gives the
 * role up after a few looks in a row found every peer parked, and sleeps until woken or nudged
 * (the pools: an idle pool costs nothing, and the first worker to wake nudges a parked one to
 * watch it; the work-stealing pool's only once a peer is awake too, see below). Not part of the
 * public API: the package is exported only to Spindle's own modules.
 *
 * <h2>Passing the role on</h2>
 *
 * <p>The role is a flag that a parked worker takes with a CAS; a parked worker that finds it
 * taken sleeps unwatching ({@link IdleCoordinator#sleep}). The invariant is: <em>while any worker
 * sleeps unwatching, the flag is held by a parked worker, or a nudge is on its way to a parked
 * worker, which will try to take the flag</em>. (A {@code WorkStealingPool}'s spares never take
 * it, and {@link IdleCoordinator#nudgeParked} passes them over: the invariant holds for its core
 * workers; a spare watches the queued work it sees when it parks, and a core worker leaving its
 * wait with no core worker parked takes its peers' slot tasks itself.) Without it, a watcher woken for work (often the
 * one woken first) left its peers asleep unwatching, and the task it then ran could block on
 * what it queued for good. So every worker leaving the parked state checks the flag after it
 * released any it held, and if it is free and a worker is still parked, nudges the most recently
 * parked one ({@link IdleCoordinator#nudgeParked}), whose sleep returns so that it tries the CAS
 * again. A nudge is never lost: the releaser writes the flag (volatile) and then reads the parked
 * count (the state word) and the stack (under its lock); a parker registers in both (under the
 * lock) and then reads the flag (the CAS), so one of the two sees the other, and an unpark before
 * the park makes the park return. A nudged worker that is woken before it takes the flag passes
 * the nudge on in the same way when it leaves. With a sleep cap the flag is free with workers
 * parked only between a watcher's leaving and the nudged worker's CAS, so nudges are rare: none
 * while the watcher sleeps. (The variants below weaken this.)
 *
 * <p><b>A watcher that gives up</b> leaves a weaker invariant, as nothing needs watching while every
 * worker is parked: <em>while a worker is awake and another sleeps unwatching, the flag is held
 * by a parked worker, or a nudge is on its way</em>. A watcher that finds every peer parked frees
 * the flag and looks at the peers once more before it sleeps unwatching; a worker waking races
 * with that, and the order of the two pairs (the waker takes the worker off the stack, then the
 * worker reads the flag; the watcher frees the flag, then reads whether the worker is parked)
 * makes one of them see the other: the watcher watches on, or the woken worker nudges. A worker
 * that cancels its own park (its re-check found work) leaves through {@link #leave} in the same
 * way. The model {@code watch_role.pml -DGIVE_UP} in spindle-stress checks this variant.
 *
 * <p><b>Watching only while a peer is awake</b> (the work-stealing pool, constructed with
 * {@code onlyWhilePeersActive}). There a slot fill skips its wake-up only while the role is held
 * (and only a chain's link skips it, a task that itself came out of the slot: a subset of the
 * fills this argument covers).
 * A fill made while it is free makes the racy notification of a deque push, which wakes a
 * parked peer unless a worker is searching (that one will look, and if it finds nothing it
 * parks, and watches, with the filler awake); but a searcher may instead find other work and
 * block in it. So what needs a watcher is a task in the slot of an <em>awake</em> worker (the
 * filler left the parked state, a volatile write of the idle protocol's {@code parked} entry, or
 * started, before it filled), and only while some worker is awake. A parking worker takes the
 * role only if a look finds a peer {@linkplain LoneTaskWatch#anyPeerActive active}; a leaving
 * worker that finds the role free nudges only if such a look does; and a worker that starts
 * (a spare, mostly) or retires passes the role on as a leaving worker does. The invariant is:
 * <em>while two workers are awake, or one is awake with a task it filled silently, and another
 * sleeps unwatching, the flag is held by a parked worker, or a nudge is on its way</em>. (A lone
 * awake worker with the role free wakes a parked peer for each fill, nobody else searching.) Two
 * workers that wake at once each have their {@code parked} entry cleared and then read the
 * other's, so at least one sees the other awake and nudges. Why a silent fill is covered: it read
 * the flag held, by some holder. That holder lets go either as a watcher that gives up, which
 * frees the flag and looks once more (above), or woken or resuming: it frees the flag and then
 * looks, and the filler's leaving came before its read of the flag, which came before the
 * holder's freeing write (the read saw the flag still held), so the look sees the filler awake
 * (or parked again, after it ran its own slot's task) and the holder nudges. The nudged worker
 * takes the role, the filler being awake, or, woken first, leaves and nudges on for the same
 * reason. And once a second worker wakes or starts while one is awake, its leave sees the first
 * awake and nudges. What it saves: a pool idle between one submission and the next has no
 * watcher, so the submission's wake-up meets no timed look and makes no nudge (the submit →
 * start latency's p99, docs/BENCHMARKS.md, Session 47). The model
 * {@code watch_role.pml -DACTIVE_ONLY} checks the hand-over for silent fills.
 *
 * <p><b>The pools' watcher is woken last.</b> Where the constructor asks for it (the pools), a
 * worker that takes the role moves itself to the bottom of the parked stack
 * ({@link IdleCoordinator#sinkParked}), so a wake-up for work picks any other parked worker first.
 * Otherwise the watcher, often the most recently parked, was the one woken, and since it left
 * with the role free while a peer was still parked, it nudged that peer: two wake-ups for one
 * piece of work, which on 2 workers doubled the wake-ups of message-passing actors. The async
 * runtime's watcher does not sink: it never gives the role up, so the nudge that the sink saves
 * is rare there, and with the sink its ping_pong took 10-14 % longer and spawn_many 4 % (five
 * builds interleaved in each of 6 JVMs, session 36: the sink is the one difference that
 * accounts for it). Which parked worker a wake-up picks is a matter of cache warmth and wake-up
 * count, never of correctness.
 *
 * <p>The idle protocol's argument is untouched: a watcher is a parked worker that wakes up by
 * itself now and then, and a nudged one returns from a sleep spuriously, both of which
 * {@link IdleCoordinator} allows (see {@link LoneTaskWatch}).
 */
public final class WatcherRole {

    private final AtomicBoolean held = new AtomicBoolean();
    private final IdleCoordinator idle;
    private final BooleanSupplier closing;
    private final boolean sinkWatcher;
    private final boolean onlyWhilePeersActive;

    /**
     * @param idle the idle protocol the workers park in
     * @param closing whether the pool closes: then a leaving worker nudges nobody (every parked
     *     worker is being woken for good)
     * @param sinkWatcher whether a worker that takes the role moves to the bottom of the parked
     *     stack, to be woken last (see the class overview)
     */
    public WatcherRole(IdleCoordinator idle, BooleanSupplier closing, boolean sinkWatcher) {
        this(idle, closing, sinkWatcher, false);
    }

    /**
     * @param idle the idle protocol the workers park in
     * @param closing whether the pool closes: then a leaving worker nudges nobody (every parked
     *     worker is being woken for good)
     * @param sinkWatcher whether a worker that takes the role moves to the bottom of the parked
     *     stack, to be woken last (see the class overview)
     * @param onlyWhilePeersActive whether the role is needed only while a peer is awake: a parked
     *     worker takes it, and a leaving one nudges a peer to take it, only while some peer is
     *     {@linkplain LoneTaskWatch#anyPeerActive active} (see <i>Watching only while a peer is
     *     awake</i> in the class overview: for a pool whose workers skip a wake-up only while
     *     the role is held)
     */
    public WatcherRole(IdleCoordinator idle, BooleanSupplier closing, boolean sinkWatcher,
                       boolean onlyWhilePeersActive) {
        this.idle = idle;
        this.closing = closing;
        this.sinkWatcher = sinkWatcher;
        this.onlyWhilePeersActive = onlyWhilePeersActive;
    }

    /**
     * Waits as worker {@code w}, registered as parked in the idle protocol, until it is woken or
     * the protocol terminates, watching the peers with {@code watch} while it holds the role (see
     * {@link LoneTaskWatch#watch(IdleCoordinator, BooleanSupplier, long, long, int)} for the
     * arguments; {@code idleLooks} of {@link Integer#MAX_VALUE} keeps the role while parked).
     * Before it returns, the role is passed on if it is free (see the class overview).
     *
     * @return {@link LoneTaskWatch.Outcome#RESUME} or {@link LoneTaskWatch.Outcome#EXIT} if the
     *     watch ended so (the worker is no longer registered as parked, nor searching); else
     *     {@link LoneTaskWatch.Outcome#WOKEN}: woken, or the protocol terminated
     *     ({@link IdleCoordinator#isTerminated})
     */
    public LoneTaskWatch.Outcome await(int w, LoneTaskWatch watch, BooleanSupplier mustExit,
                                       long intervalNanos, long sleepCapNanos, int idleLooks) {
        try {
            boolean mayWatch = true;
            while (!idle.isNotified(w) && !idle.isTerminated()) {
                // The flag read before the CAS: a failed CAS would take the flag's cache line from
                // every thread reading it (the work-stealing pool's slot fills, isHeld).
                if (mayWatch && !held.get() && (!onlyWhilePeersActive || watch.anyPeerActive())
                        && held.compareAndSet(false, true)) {
                    if (sinkWatcher) {
                        idle.sinkParked(w);    // woken last: see the class overview
                    }
                    LoneTaskWatch.Outcome o;
                    try {
                        o = watch.watch(idle, mustExit, intervalNanos, sleepCapNanos, idleLooks);
                    } finally {
                        held.set(false);
                    }
                    switch (o) {
                        case RESUME, EXIT:
                            return o;          // neither parked nor searching: go and look
                        case WOKEN:
                            break;             // the loop ends
                        case NOTHING_TO_WATCH:
                            // Only when giving up: no peer was awake at the last looks. One
                            // may have woken since and found the role held (so it nudged
                            // nobody): look again now that the role is free. The peer left the
                            // parked stack and then read the flag; this worker freed the flag and
                            // then reads the peers; one of the two sees the other.
                            mayWatch = watch.anythingToWatch();
                            break;
                    }
                } else {
                    idle.sleep(w);             // until woken, or nudged to try for the role
                    mayWatch = true;
                }
            }
            return LoneTaskWatch.Outcome.WOKEN;
        } finally {
            leave(watch);
        }
    }

    /**
     * Whether a parked worker holds the role now (a volatile read). {@code WorkStealingPool} skips
     * the wake-up for a task its worker put in its own LIFO slot while this is {@code true}: the
     * holder watches that worker, and if the role passes on meanwhile, the worker that takes it
     * next looks at the peers first.
     */
    public boolean isHeld() {
        return held.get();
    }

    /**
     * Called by a worker that leaves the parked state by itself ({@link #await} does so as it
     * returns; a worker that cancels its park after its re-check found work calls it itself): if
     * the role is free while a peer is still parked, nudges that peer to take it (see the class
     * overview).
     */
    public void leave() {
        leave(null);
    }

    /**
     * As {@link #leave()}, for the worker whose watch is {@code watch}: where the role is needed
     * only while a peer is active, a nudge is made only if one is (see the class overview).
     *
     * @param watch the leaving worker's watch, or {@code null} to nudge whenever the role is free
     */
    public void leave(LoneTaskWatch watch) {
        if (!held.get() && !closing.getAsBoolean()
                && (!onlyWhilePeersActive || watch == null || watch.anyPeerActive())) {
            idle.nudgeParked();
        }
    }
}
