/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import dev.spindle.internal.Parker;
import dev.spindle.internal.jfr.JfrGate;
import dev.spindle.internal.jfr.WorkerParkEvent;
import dev.spindle.internal.jfr.WorkerUnparkEvent;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

/**
 * The {@link Parker} of a runtime whose idle workers drive its I/O and timers
 * ({@link AsyncRuntime.Builder#driveIo}): a worker that the idle protocol ({@code IdleCoordinator})
 * puts to sleep waits in a free {@link IoDriver}'s {@code select} instead of on
 * {@link LockSupport}, one worker per driver; the others park on {@link LockSupport} as usual.
 * The coordinator still decides who sleeps and whom to wake; this class only decides where a
 * worker sleeps and how it is woken.
 *
 * <h2>Algorithm</h2>
 *
 * <ul>
 *   <li><b>Drivers.</b> Slot 0 also has the timer duty: its holder waits no longer than the
 *       runtime's earliest timer deadline and fires the due timers when it returns. Without I/O
 *       drivers, slot 0 is a {@link TimerSleep} (a {@link LockSupport} sleep with a sticky
 *       wake-up), so timers are still fired by a worker. {@code holder[k]} is the worker
 *       (index + 1) that holds slot {@code k}, 0 when free; a worker takes a slot by CAS, so a
 *       driver is driven by one thread at a time, and the CAS and the release (a volatile
 *       write) order one holder's use before the next one's.</li>
 *   <li><b>Parking.</b> {@code park(w)}: consume {@code w}'s permit (return if there was one);
 *       take the first free slot, trying 0 first, so the timer slot is held whenever anyone
 *       drives; then publish {@code drivingOf[w] = k + 1}, re-read the permit, and only if it is
 *       still clear {@code select} with the timeout. If no slot is free, announce a sleep
 *       without a slot ({@code slotless[w] = 1}), look for a free slot once more, and only then
 *       park on {@link LockSupport}. A busy worker whose {@link #pollNow} frees a slot while
 *       sleepers are announced claims one of them (a CAS of its flag from 1 to 0) and unparks
 *       it; a sleeper that finds its flag taken back when it wakes (its own clearing is a
 *       {@code getAndSet}) looks for a slot again. The first look is not a snapshot: a slot seen
 *       held may have been held for a moment by a busy worker's poll, which sweeps the slots one
 *       after another, so one sweep can hide several free slots. Without the hand-over a worker
 *       could sleep on {@link LockSupport} while a slot stayed free, and with every other worker
 *       asleep in a slot of its own that driver's readiness waited for ever (connections stalled
 *       for 10 s and more with 16 drivers on 16 workers on 2 cores).</li>
 *   <li><b>Why this is enough.</b> Count the free slots against the workers that are awake
 *       (a claimed sleeper counts as awake): an awake worker takes a slot when it parks (or,
 *       busy, serves the free drivers in its polls), so the free slots are safe while there are
 *       at least as many awake workers as free slots, plus those a poll holds for a moment. A
 *       worker that takes a slot in {@code park} leaves the awake workers as the slot leaves the
 *       free ones, and its release ({@code drive}'s, after events, a wake-up, a timeout, or no
 *       select at all) brings both back: neither changes the balance, so that release needs no
 *       hand-over (handing over there too woke a sleeper at every event, and half the echo
 *       server's throughput went into context switches). A poll borrows a free slot and gives
 *       it back, also without changing the balance, but a look that reads the slots while polls
 *       sweep them can miss every slot that is free, one after another, and that look is what
 *       puts a worker to sleep: the balance is lost only when a worker sleeps without a slot
 *       although one was free, and the slot it missed was then held by a poll. So the poll's
 *       release is where the hand-over happens, one sleeper per freed slot. The
 *       announcement and the releaser's check are the same Dekker pair as the permit and
 *       {@code drivingOf}: the sleeper writes its flag (and the count) then reads the slots, the
 *       releaser frees its slot then reads the count and the flags. So a sleeper that the
 *       releaser does not see sees the free slot in its second look and takes it. A sleeper the
 *       releaser sees is claimed, unless its flag is already 0: then another releaser claimed it
 *       (and this one goes on to the next flag), or it cleared the flag itself, which it does
 *       only awake, on its way to look again or back to the idle loop. Each claim is taken by
 *       exactly one CAS, so two releasers never count on the same sleeper, and a claimed sleeper
 *       looks again unless it has been woken for work meanwhile, and then it is awake. A sleeper
 *       that looks again checks its permit first: the releaser's unpark and the idle
 *       coordinator's may have reached it as one (LockSupport keeps a single permit), and parking
 *       again without that check slept through the coordinator's wake-up (caught by
 *       {@code DrivenWakeStressTest}). The model {@code async_park.pml -DTWO_DRIVERS} checks the
 *       hand-over with two drivers and busy workers' polls.</li>
 *   <li><b>Unparking.</b> {@code unpark(w)}: set {@code w}'s permit, then read
 *       {@code drivingOf[w]}: if {@code w} is (about to be) inside a driver's {@code select}, call
 *       that driver's {@link IoDriver#wakeup}; otherwise {@link LockSupport#unpark}. An unpark
 *       alone would not end a {@code select}, so the idle coordinator needs no other knowledge of
 *       which parked worker is the driver: it unparks by index, and this class routes it.</li>
 *   <li><b>Events.</b> When {@code select} finds events (or a timer is due), the driver first
 *       takes itself off the coordinator's parked stack, counted as searching as if woken
 *       ({@code IdleCoordinator.wakeSelf}), then wakes the ready tasks on its own thread with
 *       {@link AsyncWorker#driving} set, so their wake-ups go to its own wake channel
 *       ({@link AsyncRuntime#deliverWake}) and wake no other worker: it runs them itself, and
 *       the idle protocol's usual rule (the last searcher that finds work wakes another if more
 *       is visible) shares a burst. Then it releases the slot. A driver that woke tasks inside
 *       {@code select} itself (a reactor closing because its selector failed) may have put them
 *       in this worker's wake channel, outside any poll: the worker then takes itself off the
 *       stack too, or under HYBRID nobody would have looked there.</li>
 *   <li><b>Busy workers</b> look at the drivers every {@value AsyncWorker#GLOBAL_INTERVAL}
 *       picks without waiting ({@link #pollNow}), so I/O and timers are served while every
 *       worker is busy.</li>
 *   <li><b>A driver nobody waits in.</b> A worker held by a long poll (a computation, a call
 *       that blocks) picks nothing, so it neither polls nor parks, and the slot it would have
 *       taken stays free for as long as the poll runs. A holder that sees another slot free as
 *       it is about to select waits at most {@link #UNHELD_LOOK_NANOS}, and after a select that
 *       found nothing looks at the free drivers as a busy worker does ({@link #pollNow}, with its
 *       hand-over). With every worker parked no slot is free (no more drivers than workers), so
 *       an idle runtime sleeps as before.</li>
 *   <li><b>A driver that throws.</b> Nothing a driver's {@code select} or {@code dispatch}
 *       throws leaves a park or a poll: a worker that dies shuts its runtime down. It is
 *       reported, and the slot pauses for a while that grows while its turns keep failing
 *       ({@link #failed}); the driver keeps the events it did not dispatch for a later turn. The
 *       due timers of slot 0 still fire after a {@code select} that threw.</li>
 *   <li><b>Flight recorder.</b> A sleep in a driver's {@code select} is a worker's park as much
 *       as one on {@link LockSupport}, and a driver's wake-up by {@code unpark} a wake-up: they
 *       are recorded here ({@code dev.spindle.WorkerPark}, {@code dev.spindle.WorkerUnpark}), as
 *       the thread parker records the others. A look without waiting ({@code select(0)}, and
 *       {@link #pollNow}'s) is not a sleep and is not recorded.</li>
 * </ul>
 *
 * <h2>Why no wake-up is lost</h2>
 *
 * <p>The unparker writes the permit, then reads {@code drivingOf[w]}; the parker writes
 * {@code drivingOf[w]}, then reads the permit. Both are volatile, so one sees the other's write:
 * either the parker sees the permit and does not select, or the unparker sees the driver and
 * wakes it. The driver's wake-up is sticky ({@link IoDriver#wakeup}), so it works even if it
 * comes before the {@code select} starts. Before taking a slot, the parker has consumed any
 * earlier permit, and a {@link LockSupport} park keeps its own permit, so an unpark that finds
 * {@code drivingOf[w] = 0} is not lost either. A stale wake-up (a driver woken after its holder
 * returned) only makes a later {@code select} return early, which the coordinator's loop on its
 * own flag absorbs. The same argument covers a timer that becomes the earliest while the driver
 * sleeps with a longer timeout: the scheduler publishes the deadline, then reads
 * {@code holder[0]} and wakes the driver; the driver takes slot 0, then reads the deadline. The
 * Promela model {@code spindle-stress/model/async_park.pml -DSELECTOR} checks this protocol
 * with the coordinator and the runtime's worker loop (an outside wake-up, I/O readiness with the
 * registration's wake-up, a timer), and fails without the selector wake-up in {@code unpark},
 * without the permit re-read, or without the registration's or the timer's wake-up.
 */
final class DrivingParker implements Parker {

    private static final int FREE = 0;
    /** A slot whose driver was closed: nobody takes it again. */
    private static final int DEAD = -1;

    private final AsyncRuntime runtime;
    private final Parker threads;
    private final AtomicReferenceArray<IoDriver> drivers;
    private final AtomicIntegerArray holder;
    private final AtomicIntegerArray drivingOf;
    private final AtomicIntegerArray permit;
    /** 1 while worker {@code w} sleeps on {@link LockSupport} because it found no free slot. */
    private final AtomicIntegerArray slotless;
    /** How many workers are in that state: a releaser reads only this when none is. */
    private final AtomicInteger slotlessCount = new AtomicInteger();
    /** The runtime's own timer, fired by whoever holds slot 0. */
    final Timers timers;
    /**
     * The drivers as the builder claimed them ({@code drivers} replaces a closed one), given back
     * by {@link #unclaimAll} once the runtime has terminated.
     */
    private final List<IoDriver> claimed;
    /**
     * Per slot: the pause after its driver's last failed turn (its {@code select} or
     * {@code dispatch} threw), in milliseconds; 0 once a turn worked. Read and written only by
     * the slot's holder (the CAS that takes a slot and the write that frees it order one
     * holder's use before the next one's), as {@link #pausedUntil} is.
     */
    private final long[] failurePause;
    /** Per slot: when that pause ends ({@link System#nanoTime}); meaningful while it is not 0. */
    private final long[] pausedUntil;
    /** The longest pause after a driver's failed turn (see {@link #failed}). */
    static final long MAX_FAILURE_PAUSE_MILLIS = 100;

    DrivingParker(AsyncRuntime runtime, int workers, Parker threads, List<? extends IoDriver> io) {
        this.runtime = runtime;
        this.threads = threads;
        this.claimed = List.copyOf(io);
        int n = Math.max(1, io.size());
        this.drivers = new AtomicReferenceArray<>(n);
        for (int k = 0; k < n; k++) {
            drivers.set(k, io.isEmpty() ? new TimerSleep() : io.get(k));
        }
        this.holder = new AtomicIntegerArray(n);
        this.drivingOf = new AtomicIntegerArray(workers);
        this.permit = new AtomicIntegerArray(workers);
        this.slotless = new AtomicIntegerArray(workers);
        this.failurePause = new long[n];
        this.pausedUntil = new long[n];
        this.timers = new Timers(this::earlierDeadline);
    }

    @Override
    public void park(int worker) {
        sleep(worker, -1);
    }

    @Override
    public void parkNanos(int worker, long nanos) {
        sleep(worker, Math.max(0, nanos));
    }

    @Override
    public void unpark(int worker) {
        permit.set(worker, 1);
        int k = drivingOf.get(worker);
        if (k != 0) {
            // recorded here, as the thread parker records the wake-ups it delivers
            if (JfrGate.open() && WorkerUnparkEvent.enabled()) {
                WorkerUnparkEvent.emit(runtime.name, worker);
            }
            drivers.get(k - 1).wakeup();
        } else {
            threads.unpark(worker);
        }
    }

    private void sleep(int w, long nanos) {
        if (permit.getAndSet(w, 0) != 0) {
            return;
        }
        for (boolean again = false; ; again = true) {
            if (again && permit.get(w) != 0) {
                // Woken for work while looking again. Checked here because the unpark that
                // carried it may have been spent on the park below together with a releaser's
                // (LockSupport keeps one permit): parking again would sleep through it.
                return;
            }
            for (int k = 0; k < holder.length(); k++) {
                if (holder.get(k) == FREE && holder.compareAndSet(k, FREE, w + 1)) {
                    drive(w, k, nanos);
                    return;
                }
            }
            // No free slot seen. The look above is not a snapshot: a slot it saw held may have
            // been held only for a moment (a busy worker's pollNow, a driver on its way out).
            // Announce this sleep without a slot, then look once more; a slot freed after the
            // look is handed over by its releaser, which claims one announced sleeper (see
            // handOverFreedSlot).
            slotless.set(w, 1);
            slotlessCount.incrementAndGet();
            boolean free = anyFree();
            if (!free) {
                if (nanos < 0) {
                    threads.park(w);
                } else {
                    threads.parkNanos(w, nanos);
                }
            }
            boolean claimed = slotless.getAndSet(w, 0) == 0;
            slotlessCount.decrementAndGet();
            if (!free && !claimed) {
                return;                        // woken, timed out or spurious: the idle loop decides
            }
            // A slot was seen free, or a releaser handed this worker one: look again.
        }
    }

    /**
     * Longest wait in a driver's {@code select} while another driver has nobody waiting in it
     * (see {@link #anotherSlotFree}).
     */
    static final long UNHELD_LOOK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    /**
     * Whether a slot other than {@code k} is free as its holder is about to select: a driver
     * nobody waits in. The balance in the class overview holds while every worker that is not
     * asleep comes back to park or to poll, and a busy worker polls only between picks: one that
     * runs a long poll (a computation, a call that blocks) holds back the driver it would have
     * waited in, and the readiness of that driver's sockets waited for that poll to end. With
     * two workers and two reactors, one worker blocked in a task and the other asleep in slot 0's
     * {@code select}, an accept on the second reactor never completed, however long the wait. So
     * a holder that sees such a slot waits at most {@link #UNHELD_LOOK_NANOS} and then looks at
     * the free drivers without waiting ({@link #pollNow}, as a busy worker does): their
     * readiness is late by at most that wait, never held back for good. Only while a slot is
     * free, which needs a worker that is not parked: with every worker asleep, each driver has
     * its own (there are at most as many drivers as workers), and nothing changes.
     */
    private boolean anotherSlotFree(int k) {
        for (int j = 0; j < holder.length(); j++) {
            if (j != k && holder.get(j) == FREE) {
                return true;
            }
        }
        return false;
    }

    private boolean anyFree() {
        for (int k = 0; k < holder.length(); k++) {
            if (holder.get(k) == FREE) {
                return true;
            }
        }
        return false;
    }

    /** Frees slot {@code k} held by worker index {@code holderId - 1}; false if it was not. */
    private boolean releaseSlot(int k, int holderId) {
        return holder.compareAndSet(k, holderId, FREE);
    }

    /**
     * After a busy worker's {@link #pollNow} freed a slot: if workers sleep without a slot, hands
     * it to one of them. The first whose announcement this releaser takes back (a CAS of its flag
     * from 1 to 0) is unparked and comes back for a slot. Only the poll's release hands over (see
     * the class overview for why a driver's own release need not), and to one sleeper per freed
     * slot, not all of them: with fewer drivers than workers most idle workers sleep without a
     * slot, and waking them all at every release cost 3.5 times the context switches and over
     * half the throughput of an echo server (8 workers, 2 drivers, 2 cores).
     */
    private void handOverFreedSlot(int releaser) {
        if (slotlessCount.get() == 0) {
            return;
        }
        int n = slotless.length();
        for (int i = 1; i <= n; i++) {
            int v = (releaser + i) % n;        // the releaser's neighbour first: spread the hand-overs
            if (slotless.get(v) != 0 && slotless.compareAndSet(v, 1, 0)) {
                threads.unpark(v);
                return;
            }
        }
    }

    /** Holding slot {@code k}: waits in its driver, then handles what it found. */
    private void drive(int w, int k, long nanos) {
        IoDriver d = drivers.get(k);
        int ready = 0;
        try {
            drivingOf.set(w, k + 1);
            boolean unheld = false;
            if (permit.get(w) == 0) {          // see the class overview: the pair of this and unpark
                long t = k == 0 ? earliest(nanos, timers.nanosToNext()) : nanos;
                unheld = runtime != null && anotherSlotFree(k);
                if (unheld) {
                    t = earliest(t, UNHELD_LOOK_NANOS);  // see anotherSlotFree
                }
                try {
                    ready = select(d, w, t);
                } catch (Throwable e) {
                    drivingOf.set(w, 0);       // the pause is a thread's park: unpark must reach it
                    failed(k, e);
                    pauseAfterFailure(w, k);
                    if (k == 0 && timers.anyDue()) {
                        runtime.parking.wakeSelf(w);  // as for events: the wake-ups then wake nobody else
                        handle(runtime.workers[w], k, d, false, true);  // see failed
                    } else {
                        lookIfWokenInSelect(w);  // it may have woken tasks before it threw
                    }
                    return;
                }
            }
            drivingOf.set(w, 0);
            if (ready < 0) {
                retire(k);
                lookIfWokenInSelect(w);        // a reactor that failed woke its tasks as it closed
                return;
            }
            boolean due = k == 0 && timers.anyDue();
            if (ready > 0 || due) {
                runtime.parking.wakeSelf(w);   // first: the wake-ups below then wake nobody else
                if (!handle(runtime.workers[w], k, d, ready > 0, due)) {
                    pauseAfterFailure(w, k);
                }
            } else {
                if (unheld) {
                    pollNow(w);                // the drivers nobody waits in: see anotherSlotFree
                }
                lookIfWokenInSelect(w);        // after the look: it may have woken tasks here
            }
        } finally {
            drivingOf.set(w, 0);
            releaseSlot(k, w + 1);            // no hand-over: this worker is awake and comes back
        }
    }

    /**
     * Takes worker {@code w} off the parked stack, as events do, if its own wake channel holds
     * work after a {@code select} that found no events. A driver may wake tasks inside
     * {@code select} rather than {@link IoDriver#dispatch}: a reactor whose selector fails closes
     * and wakes every task waiting on it there (and returns -1), and one whose channel was closed
     * while its interest change was applied wakes that channel's tasks. Those wake-ups ran on
     * this worker, parked and outside any poll; under HYBRID one that lands in its own empty wake
     * channel wakes nobody (the waker is expected to look there after its poll), so the worker
     * went back to sleep beside it, and a task waiting on a failed reactor never failed. Work a
     * peer queued here is harmless to look at: its unpark was on its way anyway. (No runtime:
     * the parker's own tests drive it with test threads, and no task is woken.)
     */
    private void lookIfWokenInSelect(int w) {
        if (runtime != null && !runtime.workers[w].wakeChannel.isEmpty()) {
            runtime.parking.wakeSelf(w);
        }
    }

    /**
     * {@code d.select(t)} for worker {@code w} asleep in it. Recorded as a park
     * ({@code dev.spindle.WorkerPark}) as the thread parker records one: this is where a driving
     * worker sleeps instead, and without it a recording showed none of its sleeps (with as many
     * drivers as workers, or one worker and the timer slot, no park of the runtime at all).
     */
    private int select(IoDriver d, int w, long t) {
        if (t == 0 || !JfrGate.open() || !WorkerParkEvent.enabled()) {
            return d.select(t);                // a look without waiting is no sleep
        }
        WorkerParkEvent e = WorkerParkEvent.begin(runtime.name, w, Math.max(0, t));
        try {
            return d.select(t);
        } finally {
            e.parked();
        }
    }

    /**
     * A busy worker's look at the drivers, without waiting: every free one is selected now and
     * its events handled on this worker ({@code w}, by index); the timers fire if due.
     */
    void pollNow(int w) {
        int me = w + 1;
        for (int k = 0; k < holder.length(); k++) {
            if (holder.get(k) != FREE || !holder.compareAndSet(k, FREE, me)) {
                continue;
            }
            try {
                if (pausedAfterFailure(k)) {
                    continue;                  // a busy worker does not wait out the pause: it skips
                }
                IoDriver d = drivers.get(k);
                int ready;
                try {
                    ready = d.select(0);
                } catch (Throwable e) {
                    failed(k, e);
                    if (k == 0 && timers.anyDue()) {
                        handle(runtime.workers[w], k, d, false, true);  // see failed
                    }
                    continue;
                }
                if (ready < 0) {
                    retire(k);
                    continue;
                }
                boolean due = k == 0 && timers.anyDue();
                if (ready > 0 || due) {
                    handle(runtime.workers[w], k, d, ready > 0, due);
                }
            } finally {
                if (releaseSlot(k, me)) {
                    handOverFreedSlot(w);
                }
            }
        }
    }

    /**
     * Wakes the tasks of slot {@code k}'s events ({@code d}'s dispatch) and fires the due
     * timers, on {@code self}; never throws. A dispatch that throws (a driver's defect, or no
     * memory left) is reported and pauses the slot ({@link #failed}), and the timers still fire;
     * returns false then.
     */
    private boolean handle(AsyncWorker self, int k, IoDriver d, boolean events, boolean due) {
        boolean worked = true;
        self.driving = true;
        try {
            if (events) {
                try {
                    d.dispatch();
                    if (failurePause[k] != 0) {
                        failurePause[k] = 0;   // read first: the common case writes nothing
                    }
                } catch (Throwable e) {
                    failed(k, e);
                    worked = false;
                }
            }
            if (due) {
                timers.fireDueOrBackOff();     // an error of the round backs off; this worker goes on
            }
        } finally {
            self.driving = false;
        }
        return worked;
    }

    /**
     * Slot {@code k}'s driver threw out of {@code select} or {@code dispatch} (its holder is the
     * caller): reports it to this worker's uncaught-exception handler and pauses the slot, 1 ms
     * after the first failure and twice as long after each next, up to
     * {@value #MAX_FAILURE_PAUSE_MILLIS} ms; a dispatch that works ends it. Never throws. The
     * error once went out of the worker's park, and a worker that dies shuts its runtime down:
     * every task of a driven runtime failed because one dispatch of ready keys did, as timers
     * did when a round of firing failed ({@link Timers#fireDueOrBackOff}). The driver keeps the
     * events it did not dispatch (a reactor's ready keys stay selected, level-triggered), so a
     * later turn delivers them; the pause keeps a failure that recurs (events that stay ready,
     * memory that stays exhausted) from turning the drivers' turns into a spin that reports it
     * each time: the worker that drove it waits the pause out holding the slot, and busy workers'
     * polls skip the slot until it ends. Its I/O and, in slot 0, its timers are late by at most
     * that pause, and only while turns keep failing.
     *
     * <p>The timers do not depend on the driver: a failed
     * {@code select} in slot 0 is followed by a firing of the due timers, as one that returned
     * is. Without it, a driver whose {@code select} kept throwing held back every sleep and
     * timeout of the runtime for good, the timeout meant to bound a wait on that very driver
     * too ({@code TimersOutliveAFailingDriverTest}).
     */
    private void failed(int k, Throwable e) {
        AsyncRuntime.reportStray(e);           // never throws
        long pause = Math.min(MAX_FAILURE_PAUSE_MILLIS, Math.max(1, 2 * failurePause[k]));
        failurePause[k] = pause;
        pausedUntil[k] = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(pause);
    }

    /** Whether slot {@code k} (held by the caller) is in the pause after a failed turn. */
    private boolean pausedAfterFailure(int k) {
        return failurePause[k] != 0 && pausedUntil[k] - System.nanoTime() > 0;
    }

    /**
     * Worker {@code w}, holding slot {@code k} after its driver's turn failed, waits out the
     * pause ({@link #failed}) on its thread's park, not in the driver: an unpark (work for it)
     * ends the wait early, and its permit is still there for the idle loop.
     */
    private void pauseAfterFailure(int w, int k) {
        long left = pausedUntil[k] - System.nanoTime();
        if (left > 0) {
            threads.parkNanos(w, left);
        }
    }

    /**
     * Gives back the builder's claims on the drivers. Called once, when every worker has exited:
     * nobody selects or dispatches in them any more, and without this a reactor group that
     * outlived its runtime (a server restarted in-process) could never be driven again, its
     * listeners and streams left waiting for a selector nobody runs. Never throws: what a
     * driver's {@code unclaim} throws, an {@link Error} too (a driver's defect; a reactor's
     * release of its closed sockets that finds no memory for its ready keys), is reported and
     * the others are still given back. An error let through here left the termination's last
     * step half done: the drivers after it stayed claimed, the runtime never read as terminated,
     * and every {@code close()} waited for good (the last worker to exit, running the step, died
     * of it), or the closing thread threw it and any other's waited for good
     * ({@code ADriverWhoseUnclaimThrowsAnErrorLetsTheRuntimeTerminateTest}).
     */
    void unclaimAll() {
        for (IoDriver d : claimed) {
            try {
                d.unclaim();
            } catch (Throwable e) {
                AsyncRuntime.reportStray(e);   // never throws; the others are still given back
            }
        }
    }

    /**
     * Slot {@code k}'s driver was closed (its holder is the caller). The timer slot goes on as a
     * {@link TimerSleep}, published before the slot is released; any other slot is dropped.
     */
    private void retire(int k) {
        if (k == 0) {
            drivers.set(0, new TimerSleep());
        } else {
            holder.set(k, DEAD);
        }
    }

    /** A timer became the earliest: the worker waiting in slot 0 must wait less. */
    private void earlierDeadline() {
        if (holder.get(0) > 0) {
            drivers.get(0).wakeup();
        }
    }

    private static long earliest(long a, long b) {
        if (a < 0) {
            return b;
        }
        return b < 0 ? a : Math.min(a, b);
    }

    /**
     * The timer slot's driver when the runtime drives no I/O: a {@link LockSupport} sleep with a
     * sticky wake-up. {@code select} publishes its thread, then consumes the flag; {@code wakeup}
     * sets the flag, then unparks the published thread: one of the two sees the other.
     */
    static final class TimerSleep implements IoDriver {
        private final AtomicBoolean woken = new AtomicBoolean();
        private volatile Thread sleeper;

        @Override
        public void claim() {
            // created by the parker for itself
        }

        @Override
        public int select(long timeoutNanos) {
            if (timeoutNanos == 0) {
                woken.set(false);
                return 0;
            }
            sleeper = Thread.currentThread();
            if (!woken.getAndSet(false)) {
                if (timeoutNanos < 0) {
                    LockSupport.park(this);
                } else {
                    LockSupport.parkNanos(this, timeoutNanos);
                }
                woken.set(false);              // a wake-up during the sleep was for this one
            }
            sleeper = null;
            return 0;
        }

        @Override
        public void dispatch() {
            // no events: only the timers, which the parker fires
        }

        @Override
        public void wakeup() {
            woken.set(true);
            Thread t = sleeper;
            if (t != null) {
                LockSupport.unpark(t);
            }
        }
    }
}
