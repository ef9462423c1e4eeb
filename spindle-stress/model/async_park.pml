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
 *     T1 wakes T0 from inside its own poll instead (deliverWake on a worker thread: the
 *     notifyWorkRacy branch when that worker polled T0 last, notifyWork(target) otherwise);
 *   - Closer (only with -DCLOSE): shutdown() at any moment: closing = true, terminate();
 *   - Quiet: fires when no other process can move (Promela's timeout) and asserts that the
 *     system came to rest in the right place (see PROPERTIES); left out with -DNO_QUIET.
 *   The tasks' polls:
 *     T0  poll 1: spawn(T1) from inside (pushLocal), register the waker, Pending. poll 2: Ready.
 *     T1  poll 1: yields (wakes itself: RUNNING -> RUNNING_WOKEN, re-queued by the worker at the
 *         end of the poll), Pending. poll 2: (-DINSIDE_WAKE: T0.wake()), Ready.
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
 *   runCell, pushLocal        AsyncWorker.runCell/pushLocal, TaskCell.startRun/finishPending
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
 *     of a state that needs no CAS); startRun's CAS and the owner write are one step (nobody
 *     reads owner while the cell is RUNNING); finishPending's failed CAS and its write of
 *     SCHEDULED are one step (only the poller leaves RUNNING_WOKEN).
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
 *   - Not modelled: the GLOBAL_INTERVAL look at the injector (an order, not a wake-up), the
 *     local deque overflowing into the injector (capacity 4096, and the injector path is
 *     modelled anyway), cancellation (JoinHandle.cancel re-uses schedule/deliverWake), the
 *     statistics, live-task lists and cancelRemaining after the joins, and spawn/wake with a
 *     null owner (a cell is IDLE only after a poll, which sets its owner).
 *   - WORK_STEALING by default; -DHYBRID models the other loop: the private hot queue refilled
 *     from the own wake channel only when empty, then cold (local), then the yield queue, then
 *     the injector; yields go to the yield queue, which searchers also steal from.
 *
 * PROPERTIES:
 *   - safety: a cell taken from a queue is SCHEDULED (startRun's CAS never fails), a cell is
 *     in at most one queue at a time (TaskCell's "only the transitions into SCHEDULED enqueue"),
 *     the parked count in the state word agrees with the parked stack;
 *   - rest: when nothing can move any more (timeout), every task is done, or, after a close,
 *     every worker has left its loop. A lost wake-up that leaves every worker parked with a
 *     task queued fails here (a plain safety search finds it);
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
 * Not modelled: pollNow of busy workers (workers here always come to park), several drivers
 * (each is the same protocol with its own holder; a worker is inside at most one), the
 * TimerSleep driver (the same sticky-flag pattern with LockSupport).
 * Mutants: -DMUTANT_NO_SELECTOR_WAKEUP (unpark only LockSupport-unparks: the driver inside
 * select is never woken, the requirement that "unpark is not enough"),
 * -DMUTANT_NO_PERMIT_RECHECK (the driver selects without re-reading its permit after
 * publishing drivingOf), -DMUTANT_NO_REGISTER_WAKEUP (with -DIO_WAKE: an interest change
 * does not wake the selector), -DMUTANT_NO_TIMER_WAKEUP (with -DTIMER: a new earliest timer
 * does not wake the driver). Each leaves T0 waiting with every worker asleep: the rest
 * assertion fails.
 *
 * NOT A MUTANT, -DEXPERIMENT_NO_HANDOFF: the last searcher that found work does not look for
 * more work to wake a peer for (stopSearching without hasVisibleWork/notifyWork). Spin finds no
 * lost wake-up without it (2 workers, and 3 started parked): the searcher runs its task and then comes back to
 * look, so the hand-off buys parallelism, not liveness. Likewise MUTANT_WAKE_NO_NOTIFY passes
 * with -DINSIDE_WAKE: a worker that wakes a task will look for work itself after its poll.
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
#define RUNNING  2
#define WOKEN    3
#define DONE     4

/* queues: bit sets of tasks */
byte inj = 0;                /* runtime.injector */
byte dq[NW];                 /* worker.local (the cold deque under HYBRID) */
byte wc[NW];                 /* worker.wakeChannel */
#ifdef HYBRID
byte hot[NW];                /* worker.hot: private to its worker */
byte yq[NW];                 /* worker.yielded */
#endif

/* the cells */
byte st[NT];                 /* TaskCell.state; a cell starts SCHEDULED */
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
/* DrivingParker (spindle-async) with one driver, a driven Reactor: see "THE SELECTOR-DRIVING
 * WORKER" in the header */
byte holder = 0;             /* DrivingParker.holder[0]: worker + 1, 0 = free */
bool drivingOf[NW];          /* DrivingParker.drivingOf[w] != 0 */
bool permit[NW];             /* DrivingParker.permit[w] */
bool lsPermit[NW];           /* LockSupport's permit of each worker thread */
bool selFlag = false;        /* the selector's sticky wake-up (Selector.wakeup) */
bool pending = false;        /* Reactor.wakeupPending */
#ifdef IO_WAKE
bool ioReady = false;        /* T0's channel is readable (level-triggered) */
bool change = false;         /* T0's interest change is queued (Reactor.changes) */
bool keyed = false;          /* ... and applied: the selector watches the channel */
#endif
#ifdef TIMER
bool tset = false;           /* T0's timer entry is in the runtime's heap */
bool due = false;            /* its deadline has passed */
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
/* Reactor.wakeup(): the CAS of wakeupPending, then Selector.wakeup() (a sticky flag) */
inline selWakeup() {
    atomic {
        if
        :: !pending -> pending = true; sw = true  /* wakeupPending.compareAndSet(false, true) */
        :: else -> sw = false
        fi
    };
    if
    :: sw -> sw = false; selFlag = true           /* selector.wakeup() */
    :: else
    fi
}

/* DrivingParker.unpark(x) */
inline unpark(x) {
    permit[x] = true;                             /* permit.set(w, 1) */
    if
#ifdef MUTANT_NO_SELECTOR_WAKEUP
    :: false -> skip
#else
    :: drivingOf[x] -> selWakeup()                /* drivingOf[w] != 0: drivers[k].wakeup() */
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
        :: st[c] == RUNNING -> st[c] = WOKEN; ok = false
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

/* DrivingParker.park(me), called by IdleCoordinator.await while notified[me] is clear */
inline driverPark() {
    atomic { got = permit[me]; permit[me] = false };        /* permit.getAndSet(w, 0) != 0 */
    if
    :: got -> got = false                         /* return */
    :: else ->
        atomic {                                  /* holder.compareAndSet(0, FREE, w + 1) */
            got = (holder == 0);
            if
            :: got -> holder = me + 1
            :: else
            fi
        };
        if
        :: got ->                                 /* drive(w, 0, -1) */
            got = false;
            drivingOf[me] = true;                 /* drivingOf.set(w, k + 1) */
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
                    (selFlag                      /* woken (the sticky flag, consumed), */
#ifdef IO_WAKE
                     || (keyed && ioReady)        /* a watched channel is ready, */
#endif
#ifdef TIMER
                     || (timed && due)            /* or the timeout passed */
#endif
                    ) -> selFlag = false
                };
                pending = false;                  /* wakeupPending.set(false) */
#ifdef IO_WAKE
                atomic { if :: change -> change = false; keyed = true :: else fi }  /* applyChanges() */
#endif
            fi;
            drivingOf[me] = false;                /* drivingOf.set(w, 0) */
#ifdef IO_WAKE
            rdy = keyed && ioReady;               /* ready = selectedKeys().size() > 0 */
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
            holder = 0                            /* holder.compareAndSet(k, w + 1, FREE) */
        :: else ->
end_lspark: atomic { lsPermit[me] -> lsPermit[me] = false }  /* threads.park(w) */
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

/* TaskCell.wake() of cell c by a thread that is worker cur - 1 (cur = 0: not a worker) */
inline wake(c, cur) {
    d_step {                                      /* schedule(true), one CAS loop */
        if
        :: st[c] == IDLE -> st[c] = SCHED; ok = true     /* CAS IDLE -> SCHEDULED: enqueue */
        :: st[c] == RUNNING -> st[c] = WOKEN; ok = false /* CAS RUNNING -> RUNNING_WOKEN */
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
        atomic { offer(wc[owner[c] - 1], c) };    /* target.wakeChannel.offer(c) */
        if
        :: owner[c] == cur -> notifyWorkRacy()    /* CURRENT.get() == target */
#ifdef MUTANT_WAKE_NO_NOTIFY
        :: else
#else
        :: else -> notifyWork(owner[c])           /* parking.notifyWork(target) */
#endif
        fi
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
#ifdef HYBRID
                  || yq[v] != 0
#endif
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
        assert(st[t] == SCHED);                   /* c.startRun(): the CAS never fails here */
        st[t] = RUNNING;
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
            selWakeup();                          /* changes.add, then wakeup() */
#endif
#endif
#if defined(SELECTOR) && defined(TIMER)
            tset = true;                          /* Timers.add: the entry is published, then */
            if                                    /* earlierDeadline(): holder[0] != 0: wakeup() */
#ifdef MUTANT_NO_TIMER_WAKEUP
            :: false -> skip
#else
            :: holder != 0 -> selWakeup()
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
        d_step { ready = false; st[t] = DONE; ndone++ }
    :: else ->
        d_step {                                  /* c.finishPending() */
            if
            :: st[t] == RUNNING -> st[t] = IDLE; ok = false      /* CAS RUNNING -> IDLE */
            :: else -> assert(st[t] == WOKEN); st[t] = SCHED; ok = true  /* state = SCHEDULED */
            fi
        };
        if
        :: ok ->
            ok = false;
#ifdef HYBRID
            atomic { offer(yq[me], t) };          /* yielded.offer(c) */
#else
            atomic { offer(wc[me], t) };          /* wakeChannel.offer(c) */
#endif
            notifyWorkRacy()                      /* runtime.parking.notifyWorkRacy() */
        :: else
        fi
    fi;
    t = 0
}

proctype Worker(byte me) {
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
#ifdef HYBRID
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
#else
    atomic { take(dq[me], t) };                   /* local.pop() */
    if
    :: t == 0 -> atomic { take(wc[me], t) }       /* wakeChannel.poll() */
    :: else
    fi;
#endif
    if
    :: t == 0 -> atomic { take(inj, t) }          /* runtime.injector.poll() */
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
#ifdef HYBRID
                    if
                    :: t == 0 -> atomic { take(yq[w], t) }  /* v.yielded.poll() */
                    :: else
                    fi;
#endif
                :: else
                fi;
                v++
            :: else -> v = 0; w = 0; k = 0; break
            od;
            if
            :: t == 0 -> atomic { take(inj, t) }  /* runtime.injector.poll() */
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
