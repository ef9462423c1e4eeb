/*
 * Spindle: the parking protocol of the async runtime (spindle-async, dev.spindle.async:
 * IdleCoordinator (spindle-core, the pools' one idle protocol) as AsyncRuntime uses it,
 * AsyncWorker.loop/next/search/stopSearching/park/runCell/pushLocal,
 * AsyncRuntime.spawn/deliverWake/hasVisibleWork/shutdown, TaskCell.wake/schedule/startRun/
 * finishPending) as a Promela model.
 *
 * THE INVARIANT. No lost wake-up: while the runtime is open, a task that is made runnable
 * (spawned into the injector or a worker's local deque, woken into the wake channel of the
 * worker that polled it last, or re-queued after waking itself during its poll) is eventually
 * polled, although a producer wakes a parked worker only when nobody is searching ("without
 * waking every worker on every submit"). And a close reaches every worker: after shutdown()
 * every worker leaves its loop, parked or not, so shutdown's joins return.
 * The argument the Java code makes (IdleCoordinator's class comment): a producer publishes (offer)
 * and then reads the state word; a parker changes the state word and then, if it saw nobody
 * searching, re-reads every queue; a last searcher that found work re-reads the queues after
 * its decrement. Under sequential consistency one side sees the other.
 *
 * PROCESSES AND THE SCENARIO (fixed, small):
 *   - NW Worker processes (2 or 3) running AsyncWorker.loop();
 *   - Spawner, a thread outside the runtime: spawn(T0);
 *   - Waker, a thread outside the runtime (a timer or I/O thread): once T0 has registered its
 *     waker (in its first poll) it calls T0.wake(); with -DINSIDE_WAKE there is no Waker and
 *     T1 wakes T0 from inside its own poll instead (deliverWake on a worker thread,
 *     AsyncRuntime.deliverToOwner: T0 goes to the waking worker's own wake channel if that
 *     worker polled it last, with notifyWorkRacy, else to its last poller's channel with
 *     notifyWork(target); under -DHYBRID also if its last poller is parked, and then a cell
 *     that finds that channel empty wakes nobody);
 *   - Closer (only with -DCLOSE): shutdown() at any moment: closing = true, terminate();
 *   - Quiet: fires when no other process can move (Promela's timeout) and asserts that the
 *     system came to rest in the right place (see PROPERTIES); left out with -DNO_QUIET.
 *   The tasks' polls:
 *     T0  poll 1: spawn(T1) from inside (pushLocal), register the waker, Pending. poll 2: Ready.
 *     T1  poll 1: yields (wakes itself during its poll: counted, re-queued by the worker at the
 *         end of the poll into its yield queue, AsyncWorker.yielded, in both policies), Pending. poll 2: (-DINSIDE_WAKE: T0.wake()), Ready.
 *         With -DNOYIELD T1 has only the second poll.
 *   -DSTART_PARKED starts every worker parked with nothing queued (a runtime that has been
 *   idle) instead of running: the start-up churn of idle workers is most of the state space
 *   (with 3 workers, more than 60 million states), and the races between parking and
 *   producing still happen after the first wake-up. check.sh uses it for the 3-worker and the
 *   costlier liveness configurations; the 2-worker safety checks start from the beginning.
 *
 * MAP (each model line names, in a comment next to it, the Java statement it stands for):
 *   Worker: loop..exit        AsyncWorker.run/loop, next() (both kinds), search(), park()
 *                             (prepareToPark is the atomic block under `lock`, await is
 *                             `end_parked`)
 *   stopSearching             AsyncWorker.stopSearching with IdleCoordinator.stopSearching
 *   runCell, pushLocal        AsyncWorker.runCell/pushLocal, TaskCell.finishPending
 *   wake                      TaskCell.wake: schedule(true), then AsyncRuntime.deliverWake
 *   hasVisibleWork            AsyncRuntime.hasVisibleWork, AsyncWorker.hasStealable
 *   wakeOne, notifyWork,      IdleCoordinator's methods (notifyWork(preferred index))
 *     notifyWorkRacy
 *   spawnOutside (Spawner)    AsyncRuntime.spawn from a thread outside the runtime
 *   Closer                    AsyncRuntime.shutdown: closing = true; parking.terminate()
 *
 * WHAT IS MODELLED STEP BY STEP:
 *   - every access to the parking state word (get, CAS, addAndGet) is one step; the sections
 *     under IdleCoordinator's lock are steps that take the lock (a blocking test and set) and release
 *     it, split where wakeOne touches the state word twice (tryStartSearching and stopSearching
 *     of other workers do not take the lock and interleave there); a worker's wait on its
 *     `notified` flag and its read of `closing` after waking are steps of their own;
 *   - every queue operation (offer, poll, pop, stealOrNull, isEmpty) is one step;
 *   - TaskCell.schedule's CAS loop is one step (it linearizes at its successful CAS or its read
 *     of a state that needs no CAS); the start of a poll (runCell's read of the word and the
 *     owner write) is one step (nobody reads owner while the cell is polled); finishPending's
 *     closing CAS, or its failure and the re-queue decision, is one step (only the poller
 *     leaves a polled cell).
 *   - A poll leaves the word SCHEDULED (taking a cell's queue entry is the claim: TaskCell's
 *     overview). The model keeps two ghost bits per cell instead: pl (being polled: the entry
 *     was taken and the poll has not ended) and wk (woken or cancelled during that poll: the
 *     word differs from the one runCell read, so the closing CAS to IDLE fails and the poller
 *     re-queues). A wake of a SCHEDULED cell that is not being polled only counts, and the
 *     poll that follows reads it (TaskCellPollTests in the stress module races a wake and a
 *     cancel against the real read and CAS).
 *
 * WHAT IS ABSTRACTED:
 *   - Queues are sets of tasks (bits), taken from in any order: a take returns any element
 *     present, which covers FIFO (injector, wake channel, yield queue), LIFO (pop) and oldest
 *     first (steal). They are linearizable: their own correctness is checked by deque.pml and
 *     the jcstress tests (Injector.isEmpty() reports a completed offer until a consumer claims
 *     it, which the re-checks rely on). stealOrNull's null on a lost CAS is not modelled: the
 *     CAS is lost only to a thread that took an element, and what is left is visible to the
 *     re-check of the searcher when it parks.
 *   - Sequential consistency, as in park.pml: Promela interleaves steps. Every access the
 *     protocol hinges on is volatile, a CAS, or under the lock.
 *   - notifyWorkRacy's plain read may be stale: it either calls wakeOne (which re-checks under
 *     the lock) or does nothing.
 *   - Random victim order in search(): the first victim index is chosen nondeterministically,
 *     then every peer is probed once, as the Java loop does.
 *   - LockSupport.park/unpark: `await` is the guard `notified[me]`; spurious returns of park()
 *     only re-test the flag. Stray interrupts likewise.
 *   - The admitted cells (AsyncWorker.admitted): a pick from outside, admit(), takes the oldest
 *     admitted cell, else a run from the injector (pollShare into admitted) whose first it
 *     returns. In this scenario the injector holds at most one cell (T0 from outside), so the
 *     run is that cell alone and admitted stays empty: a take from the injector stands for
 *     admit(), and peers' admitted.steal() has nothing to find.
 *   - The LIFO slot (WORK_STEALING): a spawn or wake-up made during a poll goes to the polling
 *     worker's slot (offerLifo) when the slot is free, and nobody is woken for it: the worker
 *     takes it right after the poll (takeLifo, first in its round), and a searching peer may
 *     steal it. The model's spawn and wake from inside a poll take the other path, the one the
 *     Java takes when the slot is in use (unslot: pushLocal, deliverToOwner), which the slot's
 *     path only narrows down (the same worker runs it next, with no wake-up needed).
 *   - Not modelled: the GLOBAL_INTERVAL look at the injector (an order, not a wake-up), the
 *     local deque overflowing into the injector (capacity 4096, and the injector path is
 *     modelled anyway), cancellation (JoinHandle.cancel re-uses schedule/deliverWake), the
 *     statistics, live-task lists and cancelRemaining after the joins, and spawn/wake with a
 *     null owner (a cell is IDLE only after a poll, which sets its owner).
 *   - WORK_STEALING by default: the own deque, then the wake channel and the yield queue (taking
 *     turns while both hold cells: pollWakeOrYield, either order here), then the injector.
 *     -DHYBRID models the other loop: the private hot queue refilled from the own wake channel
 *     only when empty, then cold (local), then the yield queue, then the injector (the yields'
 *     periodic turn ahead of the hot queue only reorders picks from non-empty queues). In both,
 *     yields go to the yield queue, which searchers also steal from and the re-check counts.
 *
 * PROPERTIES:
 *   - safety: a cell taken from a queue is SCHEDULED and not being polled (no two workers poll
 *     it at once, although a poll begins without a CAS), a cell is
 *     in at most one queue at a time (TaskCell's "only the transitions into SCHEDULED enqueue"),
 *     the parked count in the state word agrees with the parked stack;
 *   - rest: when nothing can move any more (timeout), every task is done, or, after a close,
 *     every worker has left its loop. A lost wake-up that leaves every worker parked with a
 *     task queued fails here (a plain safety search finds it);
 *     with -DTWO_DRIVERS, also every worker is back on the parked stack and nobody is counted
 *     as searching (see there);
 *   - liveness, LTL `live`: without -DCLOSE, <> (ndone == NT): every task is eventually polled
 *     to completion; with -DCLOSE, <> (nexit == NW): every worker eventually exits. Checked
 *     with ./pan -a -f (weak fairness: a process that can move eventually does; a parked
 *     worker cannot move until notified), which also rejects runs that cycle forever.
 *
 * MUTANTS (each must make spin report an error; see check.sh --mutants):
 *   -DMUTANT_NO_RECHECK        park() does not re-check the queues after prepareToPark
 *   -DMUTANT_WAKE_NO_NOTIFY    deliverWake offers to the owner's wake channel but never calls
 *                              notifyWork(target) (a wake into a parked worker's channel
 *                              then wakes nobody)
 *   -DMUTANT_WAKE_NOTIFY_FIRST deliverWake calls notifyWork(target) before the offer
 *   -DMUTANT_RECHECK_NO_WAKE_CHANNELS  hasVisibleWork() (hasStealable) ignores wake channels
 *   -DMUTANT_PARK_AFTER_CLOSE  prepareToPark ignores `terminated` (with -DCLOSE): a worker that
 *                              parks after terminate() sleeps forever and shutdown never joins
 *   -DMUTANT_IDLE_DESPITE_WAKE finishPending's closing CAS expects the word as it is at the end
 *                              of the poll, not as runCell read it: a yield's self-wake during
 *                              the poll is lost, T1 stays IDLE for good
 * Each is caught by the rest assertion in a safety search, and MUTANT_NO_RECHECK and
 * MUTANT_PARK_AFTER_CLOSE also by the LTL claim alone (-DNO_QUIET: an acceptance cycle).
 * What spin reports for MUTANT_RECHECK_NO_WAKE_CHANNELS (2 workers): worker 1 is the only
 * searcher, has probed worker 0's queues and the injector in vain and heads for park();
 * worker 0 has just run T1 to completion, polled its own wake channel (empty) and is between
 * that and the injector; the Waker moves T0 to SCHEDULED,
 * offers it to worker 0's wake channel (worker 0 polled T0 last), reads the state word, sees a
 * searcher and wakes nobody; worker 0 finds nothing, fails tryStartSearching (one searcher of
 * two workers already) and parks without a re-check (worker 1 still searches); worker 1 parks
 * as the last searcher, and its re-check, blind to wake channels, sees nothing. Both sleep with
 * T0 queued: the wake channels must be part of the re-check.
 *
 * THE WATCHER, -DWATCH (LoneTaskWatch in spindle-core, AsyncWorker.park). A parked worker that
 * watches its busy peers leaves the parked stack by itself (cancelPark, under the lock, only if
 * no waker got there first) when a peer has held takeable work for an interval in which it
 * ran one poll on, and goes back to its loop neither parked nor searching. The model lets any
 * parked worker do so at any moment while a peer's deque, wake channel (or, HYBRID, yield
 * queue) is non-empty: the Java code's single watcher, its intervals and its progress test only
 * narrow that down. Under HYBRID a peer's hot queue counts too: a watcher may move a peer's hot
 * cells to that peer's wake channel at any moment the peer is not picking (AsyncWorker.stalled,
 * HotQueue's lock word, held by the owner from the start of its pick to the end of it). Safety and the rest assertion must hold with these extra moves, and so must
 * liveness under weak fairness (a watcher that leaves and parks again forever is a cycle the
 * LTL check would report). The LIFO slot is not modelled (no wake-up depends on it). The role
 * itself (WatcherRole: one watcher, passed on by nudges) is watch_role.pml's; what it adds here
 * is IdleCoordinator.sinkParked: a worker that takes the role moves itself to the bottom of the
 * parked stack, so that wakeOne picks it last. The async runtime's watcher no longer sinks (its
 * WatcherRole is built without; the pools' watcher does, on the same coordinator), but the model
 * keeps the move as an option: it lets any parked worker that is not at the bottom sink at any
 * moment, or never, so the stack orders wakeOne sees include the Java code's with the sink and
 * without it. -DNO_SINK leaves that move out (exactly the code's orders): check.sh uses it for
 * the 3-worker watch check, which with it no longer fits MEMLIM (more than 48 million states
 * compressed, against 30 million without); the 2-worker watch checks, safety and liveness, keep
 * it.
 *
 * THE SELECTOR-DRIVING WORKER, -DSELECTOR (AsyncRuntime.Builder.driveIo; DrivingParker,
 * IdleCoordinator.wakeSelf, the driven Reactor's select/dispatch/wakeup). The same runtime, but
 * a parked worker sleeps in DrivingParker.park: it consumes its permit, takes the one driver
 * (holder, a CAS) if it is free and then publishes drivingOf, re-reads the permit and only if it
 * is clear waits in select; otherwise it parks on LockSupport (its own sticky permit). Unpark
 * (now a step of its own after wakeOne's and terminate's lock) sets the permit and then reads
 * drivingOf: the driver's selector is woken (Reactor.wakeup: the wakeupPending CAS, then the
 * selector's sticky flag, which the next or current select consumes as it returns), anyone
 * else LockSupport-unparked. A select returns when its flag is set or (below) a watched channel
 * is ready or its timeout passed; then wakeupPending is cleared and queued interest changes
 * applied. A driver that finds events takes itself off the stack as searching (wakeSelf) and
 * wakes the tasks on its own thread, into its own wake channel (wakeDriven), then releases the
 * driver. What wakes T0:
 *   - by default the outside Waker, as above: the wake-up of a worker inside select;
 *   - -DIO_WAKE: the bytes of T0's connection (process Peer). T0's first poll adds its read
 *     interest and queues the change, calling Reactor.wakeup (a registration from a worker
 *     while another one selects must end that select, or the channel is never watched); the
 *     driver dispatches the readiness;
 *   - -DTIMER: T0's first poll schedules a timer on the runtime's heap, then wakes the driver
 *     if slot 0 is held (Timers.add: earlier.run()); the driver reads the heap after taking the
 *     slot and waits with a timeout only if an entry is there; time passes (process Clock) once
 *     the entry exists; the driver fires it on return.
 * Not modelled with one driver: pollNow of busy workers (workers here always come to park) and
 * the hand-over to workers that found no free slot (with one slot and no pollNow, a slot seen
 * held is held by a worker that comes back to park and takes it, so it cannot stay free while
 * every worker sleeps); both are modelled with -DTWO_DRIVERS below. Not modelled at all: the
 * TimerSleep driver (the same sticky-flag pattern with LockSupport). One shortcut: the driver
 * counts the keys it selected after applying the queued changes, so a channel keyed by this
 * very select counts as selected (the Java returns 0, and the driver, alone with its one slot,
 * takes it again and selects at once); -DTWO_DRIVERS counts them as the Java does.
 * Mutants: -DMUTANT_NO_SELECTOR_WAKEUP (unpark only LockSupport-unparks: the driver inside
 * select is never woken, the requirement that "unpark is not enough"),
 * -DMUTANT_NO_PERMIT_RECHECK (the driver selects without re-reading its permit after
 * publishing drivingOf), -DMUTANT_NO_REGISTER_WAKEUP (with -DIO_WAKE: an interest change
 * does not wake the selector), -DMUTANT_NO_TIMER_WAKEUP (with -DTIMER: a new earliest timer
 * does not wake the driver). Each leaves T0 waiting with every worker asleep: the rest
 * assertion fails.
 *
 * TWO DRIVERS AND BUSY WORKERS' POLLS, -DTWO_DRIVERS (with -DSELECTOR -DIO_WAKE, without
 * -DTIMER; DrivingParker's slots, sleep, anyFree, releaseSlot, drive and pollNow). Two driver
 * slots, each with its own holder, sticky selector flag and wakeupPending; drivingOf[w] is the
 * slot + 1, and unpark wakes the driver it names. T0's channel is on driver 1, the slot a sleeper
 * tries second, so a driver left with nobody in it shows as T0 waiting for ever. Step by step,
 * as the Java does it:
 *   - the sleeper's look: a CAS on slot 0, then, a step later, one on slot 1; the look is not a
 *     snapshot;
 *   - if neither was free: slotless[w] = 1, slotlessCount++, anyFree() (slot 0, then slot 1, a
 *     read each) and, only if it found none, the LockSupport park; then claimed =
 *     (slotless.getAndSet(w, 0) == 0), one step, and slotlessCount--. If it found no free slot
 *     and was not claimed, back to await's loop; otherwise it looks again, but first reads its
 *     permit (the check at the top of every iteration after the first) and goes back to await's
 *     loop if it is set: it was woken for work meanwhile;
 *   - releaseSlot(k, holderId): the holder back to FREE (one step). The release in drive() stops
 *     there (a driver back from its select is awake and comes back for a slot). The release in
 *     pollNow then hands over (handOverFreedSlot): it reads slotlessCount and, if it is not 0,
 *     scans the flags from worker (me + 1) % NW on: the Java's start, so the
 *     start is fixed per releaser, not a nondeterministic choice. Each flag read is a step; at
 *     a flag that is set, the claim (the CAS from 1 to 0) is a step of its own; a lost CAS goes
 *     on to the next flag; the claimed worker, and only it, is LockSupport-unparked, a step
 *     later, and the scan stops (wake one, not all);
 *   - LockSupport's permit is one bool per worker (lsPermit): the releaser's unpark and the
 *     coordinator's (unpark with drivingOf[w] = 0) coalesce into one, as in Java;
 *   - pollNow, in AsyncWorker.next() before it picks: the worker sweeps the slots in order 0, 1:
 *     takes a free one (a CAS), selects without waiting (with no key and no queued change the
 *     Reactor returns 0 and touches nothing; otherwise selectNow consumes a pending wake-up and
 *     selects the channel if it is keyed and ready, then wakeupPending is cleared and the change
 *     applied), dispatches what it selected on its own thread (into its own wake channel, as the
 *     driver does, but without wakeSelf: it is not parked), and releases the slot with the
 *     hand-over. Which pick is the periodic one is left open (any next() may sweep), and
 *     -DNPOLLNOW sweeps in a run (all workers together; default 2) bound the state space;
 *   - a select's count of ready keys is taken in the step in which it returns, before the
 *     changes are applied: a driver woken by the registration returns 0 and goes back to the
 *     look, which may now take slot 0 and leave slot 1 to the next sleeper.
 * The rest assertion is stronger here: every task done, and every worker back on the parked
 * stack with nobody counted as searching. A worker that sleeps through the coordinator's wake-up
 * stays counted as searching, so wakeOne never wakes anyone again and a later spawn from outside
 * would wait for ever (the Java stress test hung); in this scenario nothing needs a wake-up after
 * that (T1 runs on the worker that spawned it, T0's readiness on whoever drives driver 1), so the
 * tasks alone would not show the loss.
 * check.sh runs it with 2 workers started parked (-DSTART_PARKED: from the start, even one sweep
 * is more than 48 million states, past MEMLIM) and -DNOYIELD, for safety and the rest assertion;
 * the liveness search (-a -f) is left out as too slow: with one sweep it passes, 7.9 million
 * states in about 105 s.
 * Two sweeps, because one does not need the releaser's half: with 2 workers and one sweep, a
 * sleeper that saw both slots held by the sweep finds slot 0 free again when it looks once more
 * (MUTANT_NO_RELEASE_HANDOVER passes with -DNPOLLNOW=1). The sleeper's order is checked (one
 * that looks once more before it announces itself fails), the releaser's is not: with 2
 * workers, a sleeper whose second look finds no slot free saw both held by the other worker,
 * whose release of the second one comes after the announcement, so a releaser that read the
 * count before freeing its slot would pass too.
 * Three workers, where two can sleep without a slot and waking one differs from waking all, are
 * out of reach for a passing check: with one sweep and the current code, the search fills
 * MEMLIM at 44 million states (about 100 s), and a bitstate search had visited 422 million
 * states without an error and without finishing when it was stopped after 570 s (2 workers
 * with two sweeps: 22 million states, about 40 s). They are used for the mutant below, which
 * needs them.
 * Mutants:
 *   -DMUTANT_NO_SLOT_HANDOVER     the code before the hand-over (e404e10): a worker that finds no
 *                                 free slot parks on LockSupport at once; releaseSlot only frees;
 *   -DMUTANT_NO_RELEASE_HANDOVER  the announcement, the second look and the claim test, but
 *                                 pollNow's release does not hand over either, so no release
 *                                 does;
 *   -DMUTANT_NO_PERMIT_RECHECK_ON_LOOP  the sleeper looks again without reading its permit first
 *                                 (the current code without the check at the top of the loop).
 * The first two leave T0's bytes on driver 1 with nobody in it and both workers asleep (the
 * tasks are not done); the third leaves a worker asleep on LockSupport after the coordinator
 * woke it (the tasks are done, the stack is not full and searching is 1).
 * What spin reports for MUTANT_NO_SLOT_HANDOVER (-DNPOLLNOW=1), the stall the fix describes:
 * both workers start parked; the Spawner queues T0 and wakes worker 1 (LockSupport: neither is
 * in a driver yet). Worker 1's first next() sweeps and takes slot 0; worker 0, in park, finds
 * slot 0 held; worker 1 releases slot 0 and takes slot 1; worker 0 finds slot 1 held and parks
 * on LockSupport. Worker 1 releases slot 1, runs T0 (spawns T1, queues T0's read interest on
 * driver 1 and wakes that driver, in which nobody waits), runs T1, finds nothing, parks and
 * takes slot 0. The peer's bytes arrive on driver 1, which nobody selects: the change is never
 * applied, and both workers sleep with T0 waiting. For MUTANT_NO_RELEASE_HANDOVER it is the
 * same first look; worker 1 runs T0 and sweeps again; worker 0 announces itself, and its second
 * look finds slot 0 held by that sweep and then slot 1 (the sweep has moved on), so it parks;
 * worker 1 frees slot 1 with worker 0 announced, and hands over to nobody.
 * MUTANT_NO_PERMIT_RECHECK_ON_LOOP needs 3 workers: spin finds nothing with 2 (two sweeps, 22
 * million states; three sweeps, 35 million, both complete), and there is nothing to find. The
 * loss needs a LockSupport park, entered after anyFree() saw both slots held, that no unpark
 * ends. With 2 workers the other one held slot 0 when anyFree read it and slot 1 when it read
 * that. It gets from slot 0 to slot 1 only by a sweep that frees slot 0 and goes on: once it has
 * freed slot 0, whatever it does next (a look, a new sweep) tries slot 0 first, and nobody else
 * holds it. That release comes after the announcement, so it reads a count that is not 0 and
 * finds the flag set (only the sleeper clears it, after its park, and only this worker claims),
 * claims the sleeper and unparks it. So the park returns, on that unpark or before it on a stale
 * permit (then the sleeper either clears its flag itself and the claim fails, or is claimed and
 * looks again). With 3 workers the two others can each hold a slot in a select of their own.
 * check.sh runs it with 3 workers and one sweep, started parked. A plain depth-first search
 * fills MEMLIM (44 million states, about 100 s) before it reaches the error, and a bitstate one
 * (-w32) finds it only after 82 million states (about 115 s); so the check has pan try each
 * process's moves in the reverse order (-DT_REVERSE), which finds it after 1.8 million states,
 * in 2 to 3 s.
 * What spin reports for it: the three workers start parked; the Spawner queues T0 and wakes
 * worker 2 (permit and LockSupport unpark: nobody is in a driver yet; worker 2 sees notified
 * before it ever calls park, so both permits stay set). Worker 2 runs T0 (spawns T1 onto its own
 * deque, queues T0's read interest on driver 1 and wakes that driver, in which nobody waits
 * yet), then T1; the peer's bytes arrive. Worker 2's sweep takes and frees slot 0 (nobody
 * announced) and moves on to slot 1. Worker 0, in park, takes slot 0; worker 1 takes slot 1,
 * whose select returns at once on the registration's wake-up and applies the change, and frees
 * it without a hand-over. The sweep takes slot 1, selects T0's bytes and dispatches: T0 goes to
 * worker 2's wake channel, and notifyWorkRacy wakes worker 1, the top of the stack, which, back
 * from its select with notified clear, has just entered park again and consumed its (clear)
 * permit: permit[1] = 1, and a LockSupport unpark, as worker 1 is in no driver. Worker 1's look
 * finds slot 0 held by worker 0 and slot 1 by the sweep; the sweep frees slot 1; worker 1
 * announces itself; the sweep reads the count, claims worker 1 and unparks it: a second
 * LockSupport unpark, on a permit already set. Worker 2 runs T0 to the end, searches in vain and
 * parks without a re-check (worker 1 is counted as searching); its first park returns at once on
 * the permit the Spawner's wake-up left, its second takes slot 1. Worker 1's anyFree sees both
 * slots held; its park consumes the one LockSupport permit; its flag is 0, so it is claimed and
 * looks again, with no permit check: both slots held, it announces itself, anyFree sees both
 * held, and it parks with no permit left. Both tasks are done and workers 0 and 2 wait in their
 * selects, but worker 1 sleeps for good although the coordinator woke it: it is off the stack,
 * searching stays 1, and wakeOne would never wake anyone again. With the check, worker 1 reads
 * permit[1] = 1 before it looks again and returns to await's loop, which sees notified.
 *
 * NOT A MUTANT, -DEXPERIMENT_NO_HANDOFF: the last searcher that found work does not look for
 * more work to wake a peer for (stopSearching without hasVisibleWork/notifyWork). Spin finds no
 * lost wake-up without it (2 workers, and 3 started parked): the searcher runs its task and then comes back to
 * look, so the hand-off buys parallelism, not liveness. Likewise MUTANT_WAKE_NO_NOTIFY passes
 * with -DINSIDE_WAKE: a worker that wakes a task will look for work itself after its poll; which
 * is why deliverToOwner may adopt a task whose last poller is parked and wake nobody for the
 * first cell in its own wake channel (both modelled in wake()). So does -DEXPERIMENT_ADOPT_NO_MOVE
 * (with -DHYBRID -DINSIDE_WAKE: the adopted cell is queued at its sleeping owner after all, and
 * nobody is woken): the waking worker searches before it parks and takes it from there. The
 * adoption buys the hand-off's cost, not liveness.
 * Neither can be a check that fails, so neither is in check.sh.
 */

#ifndef NW
#define NW 2                 /* workers: 2 (one searcher at a time) or 3 (two) */
#endif
#define NT 2                 /* tasks: T0, T1 */

#define BIT(i)   (1 << (i))

/* TaskCell states */
#define IDLE     0
#define SCHED    1
#define DONE     4

/* queues: bit sets of tasks */
byte inj = 0;                /* runtime.injector */
byte dq[NW];                 /* worker.local (the cold deque under HYBRID) */
byte wc[NW];                 /* worker.wakeChannel */
byte yq[NW];                 /* worker.yielded: a poll's yields, in both policies */
#ifdef HYBRID
byte hot[NW];                /* worker.hot: its worker's, and a watcher's to spill */
#ifdef WATCH
bool hlock[NW];              /* worker.hot's lock word: held while its owner picks */
#endif
#endif

/* the cells */
byte st[NT];                 /* TaskCell.state; a cell starts SCHEDULED */
bool pl[NT];                 /* ghost: being polled (its entry taken, the poll not ended) */
bool wk[NT];                 /* ghost: woken or cancelled during that poll */
byte owner[NT];              /* TaskCell.owner: worker + 1, 0 = null */
byte npoll[NT];              /* polls so far (the task's own progress) */
bool reg0 = false;           /* T0 has registered its waker with the Waker */

/* IdleCoordinator: the state word (searching, parked), the lock, the stack, the flags */
byte searching = 0;
byte parked = 0;
bool lock = false;
byte stack[NW];
byte sp = 0;                 /* parkedCount */
bool terminated = false;
bool notified[NW];           /* AsyncWorker.notified */
#ifdef CLOSE
bool closing = false;        /* AsyncRuntime.closing */
#else
#define closing false        /* never closed: its reads fold to constants, and POR treats them as local */
#endif

#ifdef SELECTOR
/* DrivingParker (spindle-async) with one driver, or two with -DTWO_DRIVERS, each a driven
 * Reactor: see "THE SELECTOR-DRIVING WORKER" in the header */
#ifdef TWO_DRIVERS
#if !defined(IO_WAKE) || defined(TIMER)
#error "-DTWO_DRIVERS is checked with -DIO_WAKE and without -DTIMER"
#endif
#define NSLOT 2
#define IOSLOT 1             /* T0's channel is on driver 1, the one a sleeper tries second */
#ifndef NPOLLNOW
#define NPOLLNOW 2           /* pollNow sweeps in a run, all workers together */
#endif
#else
#define NSLOT 1
#define IOSLOT 0
#endif
byte holder[NSLOT];          /* DrivingParker.holder[k]: worker + 1, 0 = free */
byte drivingOf[NW];          /* DrivingParker.drivingOf[w]: k + 1, 0 = none */
bool permit[NW];             /* DrivingParker.permit[w] */
bool lsPermit[NW];           /* LockSupport's permit of each worker thread */
bool selFlag[NSLOT];         /* each selector's sticky wake-up (Selector.wakeup) */
bool pending[NSLOT];         /* each Reactor.wakeupPending */
#ifdef TWO_DRIVERS
bool slotless[NW];           /* DrivingParker.slotless[w] */
byte slotlessCount = 0;      /* DrivingParker.slotlessCount */
byte npolls = 0;             /* pollNow sweeps so far (the bound, not the runtime's state) */
#endif
#ifdef IO_WAKE
bool ioReady = false;        /* T0's channel is readable (level-triggered) */
bool change = false;         /* T0's interest change is queued on driver IOSLOT (Reactor.changes) */
bool keyed = false;          /* ... and applied: that selector watches the channel */
#endif
#ifdef TIMER
bool tset = false;           /* T0's timer entry is in the runtime's heap */
bool due = false;            /* its deadline has passed */
#endif
#endif

#ifdef WATCH
#ifdef SELECTOR
#error "-DWATCH is checked without -DSELECTOR"
#endif
/* AsyncWorker.holdsWork() of worker x, as a watcher sees it: what a peer may take, and (HYBRID)
 * its hot queue, which the watcher spills before it takes (the LIFO slot is not modelled) */
#ifdef HYBRID
#define HOLDS(x) (dq[x] != 0 || wc[x] != 0 || yq[x] != 0 || hot[x] != 0)
/* AsyncWorker.stalled() on peer x: if its owner is not picking (tryLock), its hot queue's cells
 * move to its wake channel, in one step under the lock */
#define SPILLABLE(x) (!hlock[x] && hot[x] != 0)
inline spill(x) {
    wc[x] = wc[x] | hot[x]; hot[x] = 0
}
#else
#define HOLDS(x) (dq[x] != 0 || wc[x] != 0 || yq[x] != 0)
#endif
#if NW > 2
#define PEER_HOLDS(m) ((m != 0 && HOLDS(0)) || (m != 1 && HOLDS(1)) || (m != 2 && HOLDS(2)))
#else
#define PEER_HOLDS(m) ((m != 0 && HOLDS(0)) || (m != 1 && HOLDS(1)))
#endif
#endif

/* ghost */
byte inq = 0;                /* the cells that are in some queue */
byte ndone = 0;
byte nexit = 0;

#ifdef CLOSE
ltl live { <> (nexit == NW) }
#else
ltl live { <> (ndone == NT) }
#endif

/* t := some cell in queue q, plus 1, removed from q; 0 if q is empty (any order: see header) */
inline take(q, t) {
    if
    :: (q & 1) != 0 -> t = 1
    :: (q & 2) != 0 -> t = 2
    :: q == 0 -> t = 0
    fi;
    if
    :: t != 0 -> q = q & ~BIT(t - 1); inq = inq & ~BIT(t - 1)
    :: else
    fi
}

/* q.offer(cell c) */
inline offer(q, c) {
    assert((inq & BIT(c)) == 0);                  /* a cell is in at most one queue */
    q = q | BIT(c);
    inq = inq | BIT(c)
}

#ifdef SELECTOR
/* Reactor.wakeup() of driver dk (a constant): the CAS of wakeupPending, then
 * Selector.wakeup() (a sticky flag) */
inline selWakeup(dk) {
    atomic {
        if
        :: !pending[dk] -> pending[dk] = true; sw = true  /* wakeupPending.compareAndSet(false, true) */
        :: else -> sw = false
        fi
    };
    if
    :: sw -> sw = false; selFlag[dk] = true       /* selector.wakeup() */
    :: else
    fi
}

/* DrivingParker.unpark(x) */
inline unpark(x) {
    permit[x] = true;                             /* permit.set(w, 1) */
    if                                            /* k = drivingOf.get(w), read once: */
#ifdef MUTANT_NO_SELECTOR_WAKEUP
    :: false -> skip
#elif defined(TWO_DRIVERS)
    :: drivingOf[x] == 1 -> selWakeup(0)          /* k != 0: drivers.get(k - 1).wakeup() */
    :: drivingOf[x] == 2 -> selWakeup(1)
#else
    :: drivingOf[x] != 0 -> selWakeup(0)          /* k != 0: drivers.get(k - 1).wakeup() */
#endif
    :: else -> lsPermit[x] = true                 /* threads.unpark(w): LockSupport.unpark */
    fi
}

/* TaskCell.wake() of cell c on worker me while it handles its driver's events: deliverWake
 * sends it to this worker (AsyncWorker.driving), CURRENT == target: notifyWorkRacy */
inline wakeDriven(c) {
    d_step {
        if
        :: st[c] == IDLE -> st[c] = SCHED; ok = true
        :: st[c] == SCHED && pl[c] -> wk[c] = true; ok = false
        :: else -> ok = false
        fi
    };
    if
    :: ok -> ok = false; atomic { offer(wc[me], c) }; notifyWorkRacy()
    :: else
    fi
}

/* IdleCoordinator.wakeSelf(me): off the stack, counted as searching, no unpark */
inline wakeSelf() {
    atomic {
        !lock -> lock = true;
        if
        :: !notified[me] && !terminated ->        /* parked.get(w) != 0 && !terminated */
            w = 0;
            do                                    /* remove(w) */
            :: stack[w] != me -> w++
            :: else -> break
            od;
            do
            :: w + 1 < sp -> stack[w] = stack[w + 1]; w++
            :: else -> break
            od;
            sp--; stack[sp] = 0; w = 0;
            searching++; parked--;                /* addState(SEARCHING_ONE - PARKED_ONE) */
            notified[me] = true
        :: else
        fi;
        lock = false
    }
}

#ifdef TWO_DRIVERS
/* DrivingParker.handOverFreedSlot(me), after pollNow's releaseSlot (the holder's CAS to FREE): the
 * hand-over of the freed slot to one worker that found no free slot. The scan starts where the
 * Java's does, at (me + 1) % NW; each flag read and each claim (the CAS of the flag from 1 to 0)
 * is a step of its own; the claimed worker is LockSupport-unparked and the scan stops. v and w
 * are 0 on entry and on exit. */
inline handOver() {
#if defined(MUTANT_NO_SLOT_HANDOVER) || defined(MUTANT_NO_RELEASE_HANDOVER)
    skip                                          /* the mutants: no hand-over */
#else
    if
    :: slotlessCount != 0 ->                      /* slotlessCount.get() != 0: for (i < n), */
        do                                        /* v = (start + i) % n, start = holderId % n: */
        :: atomic { v < NW && !slotless[(me + 1 + v) % NW] -> v++ }  /* slotless.get(v) == 0: next */
        :: atomic { v < NW && slotless[(me + 1 + v) % NW] -> w = (me + 1 + v) % NW };  /* != 0 && */
            atomic {                              /* slotless.compareAndSet(v, 1, 0) */
                got = slotless[w];
                slotless[w] = false;
                if
                :: !got -> v++; w = 0             /* taken back already: the next flag */
                :: else
                fi
            };
            if
            :: got -> got = false;                /* claimed: */
                lsPermit[w] = true;               /* threads.unpark(v); return */
                v = 0; w = 0; break
            :: else
            fi
        :: atomic { v == NW -> v = 0; break }     /* none claimed */
        od
    :: else
    fi
#endif
}

/* DrivingParker.pollNow(me), a busy worker's sweep (slot is 0 on entry): each free driver is
 * taken, selected without waiting and released, one slot after the other, so a sleeper's look
 * at the slots interleaves with the sweep */
inline pollNow() {
    do
    :: slot < NSLOT ->
        atomic {                                  /* holder.get(k) == FREE && */
            got = (holder[slot] == 0);            /*   holder.compareAndSet(k, FREE, me), else continue */
            if
            :: got -> holder[slot] = me + 1
            :: else
            fi
        };
        if
        :: got ->
            got = false;
            if                                    /* ready = d.select(0): */
            :: slot == IOSLOT && (keyed || change) ->
                atomic {                          /* selector.selectNow(): ends a pending wake-up, */
                    selFlag[slot] = false;        /* selects the ready keys */
                    rdy = keyed && ioReady
                };
                pending[slot] = false;            /* wakeupPending.set(false) */
                atomic { if :: change -> change = false; keyed = true :: else fi }  /* applyChanges() */
            :: else                               /* no keys, no changes: return 0 */
            fi;
            if
            :: rdy ->                             /* handle(self, d, true, false): no wakeSelf, */
                rdy = false;                      /* this worker is not parked */
                if                                /* dispatch(): read-ahead, wake the readers */
                :: ioReady -> ioReady = false; wakeDriven(0)
                :: else
                fi
            :: else
            fi;
            holder[slot] = 0;                     /* releaseSlot(k, me): the CAS to FREE, */
            handOver()                            /* then the hand-over */
        :: else
        fi;
        slot++
    :: else -> slot = 0; break
    od
}
#endif

/* DrivingParker.park(me), called by IdleCoordinator.await while notified[me] is clear */
inline driverPark() {
    atomic { got = permit[me]; permit[me] = false };        /* permit.getAndSet(w, 0) != 0 */
    if
    :: got -> got = false                         /* return */
    :: else ->
#ifdef TWO_DRIVERS
scan:   atomic {                                  /* k = 0: holder.get(k) == FREE && */
            got = (holder[0] == 0);               /*   holder.compareAndSet(k, FREE, w + 1) */
            if
            :: got -> holder[0] = me + 1
            :: else
            fi
        };
        if                                        /* k = 1, a step of its own: the look is */
        :: !got ->                                /* not a snapshot of the slots */
            atomic {
                got = (holder[1] == 0);
                if
                :: got -> holder[1] = me + 1; slot = 1
                :: else
                fi
            }
        :: else
        fi;
#else
        atomic {                                  /* holder.compareAndSet(0, FREE, w + 1) */
            got = (holder[0] == 0);
            if
            :: got -> holder[0] = me + 1
            :: else
            fi
        };
#endif
        if
        :: got ->                                 /* drive(w, k, -1) */
            got = false;
            drivingOf[me] = slot + 1;             /* drivingOf.set(w, k + 1) */
#ifdef MUTANT_NO_PERMIT_RECHECK
            rdy = false;
#else
            rdy = permit[me];                     /* if (permit.get(w) == 0) select */
#endif
            if
            :: rdy -> rdy = false
            :: else ->
#ifdef TIMER
                timed = tset;                     /* timeout = timers.nanosToNext() */
#endif
end_select:     atomic {                          /* selector.select(timeout) returns when */
                    (selFlag[slot]                /* woken (the sticky flag, consumed), */
#ifdef IO_WAKE
                     || (slot == IOSLOT && keyed && ioReady)  /* a watched channel is ready, */
#endif
#ifdef TIMER
                     || (timed && due)            /* or the timeout passed */
#endif
                    ) -> selFlag[slot] = false
#ifdef TWO_DRIVERS
                    ; rdy = (slot == IOSLOT && keyed && ioReady)  /* the keys it selected */
#endif
                };
                pending[slot] = false;            /* wakeupPending.set(false) */
#ifdef IO_WAKE
                atomic { if :: slot == IOSLOT && change -> change = false; keyed = true :: else fi }  /* applyChanges() */
#endif
            fi;
            drivingOf[me] = 0;                    /* drivingOf.set(w, 0) */
#if defined(IO_WAKE) && !defined(TWO_DRIVERS)
            rdy = keyed && ioReady;               /* ready = selectedKeys().size() > 0 (a shortcut: see the header) */
#endif
#ifdef TIMER
            rdy = rdy || (tset && due);           /* || timers.anyDue() */
            timed = false;
#endif
            if
            :: rdy ->
                rdy = false;
                wakeSelf();                       /* parking.wakeSelf(w), before the wakes */
#ifdef IO_WAKE
                if                                /* dispatch(): read-ahead, wake the readers */
                :: ioReady -> ioReady = false; wakeDriven(0)
                :: else
                fi;
#endif
#ifdef TIMER
                if                                /* timers.fireDue() */
                :: atomic { tset && due -> tset = false }; wakeDriven(0)
                :: else
                fi
#endif
            :: else
            fi;
#ifdef TWO_DRIVERS
            atomic { holder[slot] = 0; slot = 0 }   /* releaseSlot(k, w + 1): the CAS to FREE, */
                                                  /* no hand-over: this worker is awake */
#else
            holder[0] = 0                         /* releaseSlot(0, w + 1): holder.compareAndSet(k, w + 1, FREE) */
#endif
        :: else ->                                /* no free slot seen */
#if defined(TWO_DRIVERS) && !defined(MUTANT_NO_SLOT_HANDOVER)
            slotless[me] = true;                  /* slotless.set(w, 1) */
            slotlessCount++;                      /* slotlessCount.incrementAndGet() */
            got = (holder[0] == 0);               /* free = anyFree(): holder.get(0) == FREE */
            if
            :: !got -> got = (holder[1] == 0)     /*   || holder.get(1) == FREE */
            :: else
            fi;
            if
            :: !got ->
end_lspark:     atomic { lsPermit[me] -> lsPermit[me] = false }  /* threads.park(w) */
            :: else
            fi;
            atomic {                              /* claimed = slotless.getAndSet(w, 0) == 0 */
                clm = !slotless[me];
                slotless[me] = false
            };
            slotlessCount--;                      /* slotlessCount.decrementAndGet() */
            if
            :: got || clm ->                      /* free || claimed: look again */
                got = false; clm = false;
#ifdef MUTANT_NO_PERMIT_RECHECK_ON_LOOP
                goto scan
#else
                if                                /* again && permit.get(w) != 0: */
                :: permit[me]                     /*   return (woken for work meanwhile) */
                :: else -> goto scan
                fi
#endif
            :: else                               /* !free && !claimed: return; await's loop parks again */
            fi
#else
end_lspark: atomic { lsPermit[me] -> lsPermit[me] = false }  /* threads.park(w) */
#endif
        fi
    fi
}
#endif

/* IdleCoordinator.wakeOne(preferred); pref = preferred worker + 1, 0 = null */
inline wakeOne(pref) {
    atomic {
        !lock -> lock = true;                     /* synchronized (lock) */
        assert(parked == sp);                     /* the state word agrees with the stack */
        /* if (searching(state.get()) != 0 || parkedCount == 0 || terminated) return; */
        ok = (searching == 0 && sp != 0 && !terminated);
        if
        :: !ok -> lock = false
        :: else
        fi
    };
    if
    :: ok ->
        d_step {
            w = sp - 1;                           /* i = parkedCount - 1 */
            if                                    /* preferred, if it is on the stack */
            :: pref != 0 ->
                do
                :: stack[w] == (pref) - 1 -> break
                :: stack[w] != (pref) - 1 && w > 0 -> w--
                :: stack[w] != (pref) - 1 && w == 0 -> w = sp - 1; break
                od
            :: else
            fi;
            ok = false;
            u = stack[w];                         /* w = parked[i] */
            do                                    /* System.arraycopy: close the gap */
            :: w + 1 < sp -> stack[w] = stack[w + 1]; w++
            :: else -> break
            od;
            sp--; stack[sp] = 0;                  /* parked[--parkedCount] = null */
            searching++; parked--;                /* state.addAndGet(SEARCHING_ONE - PARKED_ONE) */
            notified[u] = true;                   /* w.notified = true (see below) */
            lock = false;                         /* end of synchronized (lock) */
#ifdef SELECTOR
            w = 0
        };
        unpark(u);                                /* parker.unpark(w), after the lock */
        u = 0
#else
            u = 0; w = 0
        }
#endif
        /* LockSupport.unpark(w.thread): the worker waits on notified[w]. The notified write is
         * in the step of the addAndGet: nothing but the woken worker reads it, and that worker
         * may take any time to notice, so a separate step would add only stuttering. */
    :: else
    fi
}

/* IdleCoordinator.notifyWork(preferred) */
inline notifyWork(pref) {
    ok = (searching == 0 && parked != 0);         /* s = state.get(); searching(s) == 0 && parked(s) != 0 */
    if
    :: ok -> wakeOne(pref)
    :: else
    fi
}

/* IdleCoordinator.notifyWorkRacy(): a plain read, may be stale; wakeOne re-checks everything */
inline notifyWorkRacy() {
    if
    :: wakeOne(0)
    :: skip
    fi
}

/* IdleCoordinator.isParked(x): one read of worker x's parked flag, which is set exactly while
 * it is on the stack (both change together under the lock) */
#if NW > 2
#define ONSTACK(x) ((sp > 0 && stack[0] == (x)) || (sp > 1 && stack[1] == (x)) || (sp > 2 && stack[2] == (x)))
#else
#define ONSTACK(x) ((sp > 0 && stack[0] == (x)) || (sp > 1 && stack[1] == (x)))
#endif

/* TaskCell.wake() of cell c by a thread that is worker cur - 1 (cur = 0: not a worker) */
inline wake(c, cur) {
    d_step {                                      /* schedule(true), one CAS loop */
        if
        :: st[c] == IDLE -> st[c] = SCHED; ok = true     /* CAS IDLE -> SCHEDULED: enqueue */
        :: st[c] == SCHED && pl[c] -> wk[c] = true; ok = false /* counted during the poll */
        :: else -> ok = false                            /* queued, woken or done: count only */
        fi
    };
    if
    :: ok ->                                      /* runtime.deliverWake(this) */
        ok = false;
        assert(owner[c] != 0);                    /* IDLE only after a poll, which set owner */
#ifdef MUTANT_WAKE_NOTIFY_FIRST
        if
        :: owner[c] == cur -> notifyWorkRacy()
        :: else -> notifyWork(owner[c])
        fi;
        atomic { offer(wc[owner[c] - 1], c) };
#else
        tgt = owner[c];                           /* target = c.owner */
#ifdef HYBRID
        if                                        /* its last poller is parked: adopt it */
#ifdef EXPERIMENT_ADOPT_NO_MOVE
        :: cur != 0 && tgt != cur && ONSTACK(tgt - 1) -> lone = true   /* decided, not moved */
#else
        :: cur != 0 && tgt != cur && ONSTACK(tgt - 1) -> tgt = cur
#endif
        :: else
        fi;
#endif
        if
        :: tgt == cur ->                          /* target == current */
#ifdef HYBRID
            lone = (wc[cur - 1] == 0);            /* wakeChannel.isEmpty() */
#endif
            atomic { offer(wc[cur - 1], c) };     /* current.wakeChannel.offer(c) */
            if
            :: lone -> lone = false               /* HYBRID: wakes nobody, it looks there after its poll */
            :: else -> notifyWorkRacy()
            fi
        :: else ->
            atomic { offer(wc[tgt - 1], c) };     /* target.wakeChannel.offer(c) */
#if defined(MUTANT_WAKE_NO_NOTIFY)
            skip
#elif defined(EXPERIMENT_ADOPT_NO_MOVE)
            if
            :: lone -> lone = false               /* the adopted cell left with its sleeping owner */
            :: else -> notifyWork(tgt)
            fi
#else
            notifyWork(tgt)                       /* parking.notifyWork(target) */
#endif
        fi;
        tgt = 0
#endif
    :: else
    fi
}

/* AsyncRuntime.hasVisibleWork(): the injector, then each worker's hasStealable(), one
 * queue per step */
inline hasVisibleWork(vis, v) {
    vis = (inj != 0);                             /* !injector.isEmpty() */
    do
    :: atomic {
           !vis && v < NW ->
#ifdef MUTANT_RECHECK_NO_WAKE_CHANNELS
           vis = (dq[v] != 0
#else
           vis = (dq[v] != 0 || wc[v] != 0
#endif
                  || yq[v] != 0                   /* !yielded.isEmpty() */
                 );
           v++
       }
    :: atomic { else -> v = 0; break }
    od
}

/* AsyncWorker.stopSearching() */
inline stopSearching() {
    if
    :: srch ->
        d_step { srch = false; searching--; vis = (searching == 0) };  /* state.addAndGet(-SEARCHING_ONE) */
        if
#ifdef EXPERIMENT_NO_HANDOFF
        :: vis -> vis = false
#else
        :: vis -> hasVisibleWork(vis, v);         /* the last searcher: && runtime.hasVisibleWork() */
#endif
            if
            :: vis -> vis = false; notifyWork(0)
            :: else
            fi
        :: else
        fi
    :: else
    fi
}

/* AsyncWorker.pushLocal(c): spawn from inside a task */
inline pushLocal(c) {
    atomic { offer(dq[me], c) };                  /* local.offer(c) */
    notifyWorkRacy()                              /* runtime.parking.notifyWorkRacy() */
}

/* AsyncWorker.runCell(cell t - 1) and the task's poll */
inline runCell() {
    t--;
    d_step {
        assert(st[t] == SCHED && !pl[t]);         /* long before = c.word(): no CAS, the entry */
        pl[t] = true;                             /* taken is the claim (TaskCell's overview) */
        owner[t] = me + 1                         /* c.owner = this */
    };
    /* c.task.poll(c); ready = the Poll it returns */
    if
    :: t == 0 && npoll[0] == 0 ->
        if
        :: closing ->                             /* spawn(): if (closing) reject; the poll throws */
            d_step { st[1] = DONE; ready = true } /* T1 withdrawn; runCell retires T0 */
        :: else ->
            pushLocal(1);                         /* spawn(T1) on this worker */
#if defined(SELECTOR) && defined(IO_WAKE)
            change = true;                        /* Reactor.await: interest added, enqueue(reg): */
#ifndef MUTANT_NO_REGISTER_WAKEUP
            selWakeup(IOSLOT);                    /* changes.add, then wakeup() */
#endif
#endif
#if defined(SELECTOR) && defined(TIMER)
            tset = true;                          /* Timers.add: the entry is published, then */
            if                                    /* earlierDeadline(): holder[0] != 0: wakeup() */
#ifdef MUTANT_NO_TIMER_WAKEUP
            :: false -> skip
#else
            :: holder[0] != 0 -> selWakeup(0)
#endif
            :: else
            fi;
#endif
            reg0 = true;                          /* T0's waker registered with whoever wakes it */
            ready = false
        fi
    :: t == 0 && npoll[0] != 0 -> ready = true
#ifndef NOYIELD
    :: t == 1 && npoll[1] == 0 ->
        wake(1, me + 1);                          /* a yield: the cell wakes itself */
        ready = false
    :: t == 1 && npoll[1] != 0 ->
#else
    :: t == 1 ->
#endif
#ifdef INSIDE_WAKE
        wake(0, me + 1);                          /* T1 wakes T0 from inside its poll */
#endif
        ready = true
    fi;
    npoll[t]++;
    if
    :: ready ->                                   /* runtime.retire(c): finish(), DONE */
        d_step { ready = false; st[t] = DONE; pl[t] = false; wk[t] = false; ndone++ }
    :: else ->
        d_step {                                  /* c.finishPending(live, before) */
            assert(st[t] == SCHED && pl[t]);
            pl[t] = false;
            if
            :: !wk[t] -> st[t] = IDLE; ok = false         /* CAS before -> IDLE */
#ifdef MUTANT_IDLE_DESPITE_WAKE
            :: wk[t] -> wk[t] = false; st[t] = IDLE; ok = false   /* CAS from the word as it is now */
#endif
            :: else -> wk[t] = false; ok = true           /* changed: stays SCHEDULED, re-queue */
            fi
        };
        if
        :: ok ->
            ok = false;
            atomic { offer(yq[me], t) };          /* yielded.offer(c), both policies */
            notifyWorkRacy()                      /* runtime.parking.notifyWorkRacy() */
        :: else
        fi
    fi;
    t = 0
}

proctype Worker(byte me) {
    byte tgt = 0;            /* deliverToOwner's target + 1 */
    bool lone = false;
    bool srch = false;       /* AsyncWorker.searching */
    bool vis = false;
    bool ok = false;
    bool ready = false;
    byte t = 0;              /* the cell in hand + 1; 0 = null */
    byte w = 0;
    byte u = 0;
    byte v = 0;
    byte k = 0;
#ifdef SELECTOR
    bool got = false;
    bool rdy = false;
    bool timed = false;
    bool sw = false;
    byte slot = 0;           /* DrivingParker's k: the driver slot in hand */
#endif
#ifdef TWO_DRIVERS
    bool clm = false;        /* DrivingParker.sleep's claimed */
#endif

#ifdef START_PARKED
    goto end_parked;                              /* registered by init: see there */
#endif
loop:
    if
    :: closing -> goto exit                       /* while (!runtime.closing) */
    :: else
    fi;
    /* next() */
#ifdef TWO_DRIVERS
    if                                            /* if (++tick >= GLOBAL_INTERVAL): any pick may */
    :: atomic { npolls < NPOLLNOW -> npolls++ };  /* be the periodic one, NPOLLNOW in all */
        pollNow()                                 /* runtime.driver.pollNow(index) */
    :: skip
    fi;
#endif
#ifdef HYBRID
#ifdef WATCH
    atomic { !hlock[me] -> hlock[me] = true };    /* hot.lock(): waits out a spill */
#endif
    if
    :: hot[me] == 0 ->                            /* if (hot.isEmpty()) collectWakeups() */
        do
        :: atomic { wc[me] != 0 -> take(wc[me], t); hot[me] = hot[me] | BIT(t - 1);  /* wakeChannel.poll(); hot.add(c) */
                    inq = inq | BIT(t - 1); t = 0 }
        :: atomic { else -> break }
        od
    :: else
    fi;
    atomic { take(hot[me], t) };                  /* hot.poll() */
    if
    :: t == 0 -> atomic { take(dq[me], t) }       /* local.pop() */
    :: else
    fi;
    if
    :: t == 0 -> atomic { take(yq[me], t) }       /* yielded.poll() */
    :: else
    fi;
#ifdef WATCH
    hlock[me] = false;                            /* hot.unlock(): before the poll */
#endif
#else
    atomic { take(dq[me], t) };                   /* local.pop() */
    if                                            /* pollWakeOrYield(): yieldNext says which */
    :: t == 0 ->                                  /* first; either, as the turns alternate */
        if
        :: atomic { take(wc[me], t) };            /* pollWakeChannel() */
           if
           :: t == 0 -> atomic { take(yq[me], t) } /* yielded.poll() */
           :: else
           fi
        :: atomic { take(yq[me], t) };            /* yielded.poll() */
           if
           :: t == 0 -> atomic { take(wc[me], t) } /* pollWakeChannel() */
           :: else
           fi
        fi
    :: else
    fi;
#endif
    if                                            /* admit(): admitted.poll(), else */
    :: t == 0 -> atomic { take(inj, t) }          /* runtime.injector.pollShare(admitted, n) */
    :: else
    fi;
    if
    :: t != 0 -> stopSearching()                  /* if (c != null) stopSearching() */
    :: else ->
        /* search() */
        if
        :: !srch ->                               /* searching = tryStartSearching(workers.length) */
            d_step {
                if
                :: 2 * searching >= NW -> srch = false    /* state.get(): half are searching */
                :: else -> searching++; srch = true       /* state.compareAndSet(s, s + 1) */
                fi
            }
        :: else
        fi;
        if
        :: srch ->
            if                                    /* start = random.nextInt(n) */
            :: k = 0
            :: NW > 2 -> k = 1
            :: NW > 2 -> k = 2
            fi;
            do                                    /* for (k < n && c == null): v = ws[(start + k) % n] */
            :: v < NW && t == 0 ->
                w = (k + v) % NW;
                if
                :: w != me ->                     /* if (v == this) continue */
                    atomic { take(dq[w], t) };    /* v.local.stealOrNull() */
                    if
                    :: t == 0 -> atomic { take(wc[w], t) }  /* v.wakeChannel.poll() */
                    :: else
                    fi;
                    if                            /* (v.stealLifo(): not modelled) */
                    :: t == 0 -> atomic { take(yq[w], t) }  /* v.yielded.steal() */
                    :: else
                    fi;
                :: else
                fi;
                v++
            :: else -> v = 0; w = 0; k = 0; break
            od;
            if
            :: t == 0 -> atomic { take(inj, t) }  /* admit(): the injector, as in next() */
            :: else
            fi;
            if
            :: t != 0 -> stopSearching()          /* if (c != null) stopSearching() */
            :: else
            fi
        :: else
        fi
    fi;
    if
    :: t != 0 -> runCell(); goto loop             /* runCell(c); continue */
    :: else
    fi;

    /* park() */
    atomic {
        !lock -> lock = true;                     /* prepareToPark: synchronized (lock) */
#ifdef MUTANT_PARK_AFTER_CLOSE
        notified[me] = false;
        if
        :: false -> skip
#else
        notified[me] = terminated;                /* w.notified = terminated */
        if
        :: terminated -> vis = false              /* if (terminated) return false */
#endif
        :: else ->
            stack[sp] = me; sp++;                 /* parked[parkedCount++] = w */
            parked++;                             /* state.addAndGet(PARKED_ONE - (wasSearching ? SEARCHING_ONE : 0)) */
            if
            :: srch -> searching--
            :: else
            fi;
            vis = (searching == 0)                /* return searching(s) == 0 */
        fi;
        lock = false;
        srch = false                              /* searching = false */
    };
#ifndef MUTANT_NO_RECHECK
    if
    :: vis -> hasVisibleWork(vis, v);             /* nobodySearching && runtime.hasVisibleWork() */
        if
        :: vis -> vis = false; notifyWork(me + 1)  /* parking.notifyWork(this) */
        :: else
        fi
    :: else
    fi;
#endif
    vis = false;
end_parked:
#ifdef SELECTOR
    do                                            /* parking.await(this): */
    :: notified[me] -> break                      /* while (notified.get(w) == 0) */
    :: else ->
        if
        :: terminated -> break                    /* if (terminated) return false */
        :: else -> driverPark()                   /* parker.park(w) */
        fi
    od;
#elif defined(WATCH)
    do                                            /* LoneTaskWatch.watch, then parking.await: */
    :: notified[me] -> break                      /* woken (WOKEN, or await returns) */
#ifndef NO_SINK
    :: atomic {                                   /* WatcherRole.await: the role taken, */
        !lock && !notified[me] && stack[0] != me ->  /* idle.sinkParked(w): to the bottom */
        w = 0;                                    /* of the stack, so wakeOne picks it */
        do                                        /* last; any parked worker not there */
        :: stack[w] == me -> break
        :: else -> w++
        od;
        do                                        /* System.arraycopy(stack, 0, stack, 1, i) */
        :: w > 0 -> stack[w] = stack[w - 1]; w--
        :: else -> break
        od;
        stack[0] = me                             /* stack[0] = w */
       }
#endif
#ifdef HYBRID
    :: atomic { !notified[me] && me != 0 && SPILLABLE(0) -> spill(0) }  /* Peer.stalled(), */
    :: atomic { !notified[me] && me != 1 && SPILLABLE(1) -> spill(1) }  /* which precedes the */
#if NW > 2
    :: atomic { !notified[me] && me != 2 && SPILLABLE(2) -> spill(2) }  /* leave just below */
#endif
#endif
    :: atomic {                                   /* after an interval in which a peer held */
        !lock && !notified[me] && PEER_HOLDS(me) ->  /* work and ran on: cancelPark(this), */
        lock = true;                              /* which fails once a waker got there */
        w = 0;
        do                                        /* remove(w) */
        :: stack[w] == me -> break
        :: else -> w++
        od;
        do
        :: w + 1 < sp -> stack[w] = stack[w + 1]; w++
        :: else -> break
        od;
        sp--; stack[sp] = 0; w = 0;
        parked--;                                 /* state.addAndGet(-PARKED_ONE) */
        lock = false;
        srch = false                              /* RESUME: neither parked nor searching */
       };
       goto loop                                  /* go and look */
    od;
#else
    notified[me];                                 /* parking.await(this) */
#endif
    srch = !closing;                              /* searching = !runtime.closing */
    goto loop;
exit:
    atomic { srch = false; nexit++ }              /* the thread ends: shutdown's join returns */
}

/* spawn(c) from a thread outside the runtime */
inline spawnOutside(c) {
    if
    :: closing -> st[c] = DONE                    /* if (closing) { c.finish(); throw } */
    :: else ->
        atomic { offer(inj, c) };                 /* injector.offer(c) */
        notifyWork(0)                             /* parking.notifyWork(null) */
    fi
}

proctype Spawner() {
    bool ok = false;
    byte w = 0;
    byte u = 0;
#ifdef SELECTOR
    bool sw = false;
#endif
    spawnOutside(0)
}

#if !defined(INSIDE_WAKE) && !defined(IO_WAKE) && !defined(TIMER)
proctype Waker() {
    byte tgt = 0;
    bool lone = false;
    bool ok = false;
    byte w = 0;
    byte u = 0;
#ifdef SELECTOR
    bool sw = false;
#endif
end_waiting:
    reg0;                                         /* the event T0 waits for happens */
    wake(0, 0)                                    /* T0.wake() on this thread */
}
#endif

#ifdef IO_WAKE
/* The peer of T0's connection: once T0 waits for it, its bytes arrive */
proctype Peer() {
end_waiting:
    reg0;
    ioReady = true
}
#endif

#ifdef TIMER
/* Time passes: once T0's timer entry exists, its deadline comes */
proctype Clock() {
end_waiting:
    tset;
    due = true
}
#endif

#ifdef CLOSE
proctype Closer() {
    byte i = 0;
#ifdef SELECTOR
    byte mask = 0;
    bool sw = false;
#endif
    closing = true;                               /* shutdown(): closing = true */
    atomic {                                      /* parking.terminate() */
        !lock -> lock = true;
        terminated = true;
        do                                        /* w.notified = true for each parked w */
        :: i < sp -> notified[stack[i]] = true;
#ifdef SELECTOR
            mask = mask | BIT(stack[i]);          /* toWake = copyOf(stack) */
#endif
            i++
        :: else -> break
        od;
        i = 0;
        lock = false
    };
#ifdef SELECTOR
    do                                            /* parker.unpark(w) for each */
    :: i < NW && (mask & BIT(i)) != 0 -> unpark(i); i++
    :: i < NW && (mask & BIT(i)) == 0 -> i++
    :: else -> break
    od;
#endif
    /* LockSupport.unpark each; then the joins: the property <> (nexit == NW) */
}
#endif

/* When nothing can move: every task done, or after a close every worker gone. */
proctype Quiet() {
end_quiet:
    timeout ->
#ifdef CLOSE
    assert(closing);                              /* the Closer cannot be blocked */
    assert(nexit == NW)
#else
    assert(ndone == NT)
#ifdef TWO_DRIVERS
    ;                                             /* and nobody slept through a wake-up: every */
    assert(sp == NW && searching == 0)            /* worker is back on the stack, none counted searching */
#endif
#endif
}

init {
    byte i = 0;
    atomic {
        do
        :: i < NT -> st[i] = SCHED; i++           /* new TaskCell: state = SCHEDULED */
        :: else -> break
        od;
        i = 0;
#ifdef START_PARKED
        /* The runtime has been idle: every worker has parked (in index order) and nothing is
         * queued. Skips the start-up churn of NW idle workers, which with NW = 3 costs more
         * states than the rest of the scenario; parking races still happen after the wake. */
        do
        :: i < NW -> stack[i] = i; i++
        :: else -> break
        od;
        sp = NW; parked = NW;
        i = 0;
#endif
        do
        :: i < NW -> run Worker(i); i++
        :: else -> break
        od;
        i = 0;
        run Spawner();
#if !defined(INSIDE_WAKE) && !defined(IO_WAKE) && !defined(TIMER)
        run Waker();
#endif
#ifdef IO_WAKE
        run Peer();
#endif
#ifdef TIMER
        run Clock();
#endif
#ifdef CLOSE
        run Closer();
#endif
#ifndef NO_QUIET
        run Quiet()
#endif
    }
}
