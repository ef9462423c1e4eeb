/*
 * Spindle: the one idle protocol of every pool (spindle-core, dev.spindle.pool:
 * IdleCoordinator, whose class comment holds the prose argument this model checks) as a
 * Promela model, in the two ways the pools use it:
 *   - by default, WorkStealingPool's (Worker.work/search/park, WorkStealingPool.submitExternal):
 *     deques, stealing, the searching throttle, and with -DSPARE_RETIRES a retiring spare;
 *   - with -DSHARING, the shared-queue pools' (AbstractPool.loop/idle, WorkSharingPool.execute;
 *     WorkSharingPool is the actors' default scheduler): one shared queue, no stealing and no
 *     throttle; a worker that finds nothing parks at once, and its re-check cancels its park
 *     (IdleCoordinator.cancelPark) instead of notifying.
 *
 * Processes: NW workers running the loop, and NSUB external submitters that each
 * submit NT / NSUB tasks (injector.offer, then idle.notifyWork()). Tasks are bits 0..NT-1.
 *
 * What is modelled step by step: every access to the coordinator's state word (get, CAS,
 * getAndAdd) is one step; the sections under its lock are steps that first take the lock (a blocking test and
 * set) and end by releasing it, split wherever the Java code touches the state word more than
 * once under the lock (those touches can interleave with lock-free CASes of other workers); the
 * `notified` flag is a separate volatile write and read.
 *
 * What is abstracted:
 *   - The queues are linearizable (their own correctness is checked by deque.pml and by the
 *     jcstress tests): one step per offer, poll, pop, steal and isEmpty. A deque pop takes the
 *     newest task, a steal and the injector take the oldest. pollBatch and stealBatch take one
 *     task to run and may move the rest into the taker's deque (the Java code moves "about
 *     half"; taking all or none of the rest covers that).
 *   - Java sequential consistency for volatiles is assumed: Promela interleaves steps, i.e. it
 *     is SC. The jcstress test WakeupTests.InjectorSubmitVsPark checks on real hardware that
 *     the two accesses this protocol hinges on (a submitter's offer then state read, a parker's
 *     state update then injector read) behave that way.
 *   - notifyWorkRacy (a plain read) may see any value: it either calls wakeOne, which re-checks
 *     under the lock, or does nothing.
 *   - Random victim choice: stealOnce probes every other worker once. The Java code makes up
 *     to 32 random probes, so it can miss a victim on one round, but not on every round
 *     forever with any positive probability; letting the model miss forever would only add
 *     starvation cycles that weak fairness cannot exclude. A miss is covered anyway in the
 *     sense that matters here: the searcher then parks, and if it is the last searcher its
 *     re-check sees the victim's deque.
 *   - The Parker (LockSupport in the pools) is abstracted to its contract: a worker waits until
 *     its notified flag is set, and an unpark before the park is not lost.
 *   - The watchers (-DWATCH, see THE WATCHERS below); without it, a parked worker only waits.
 *   - Spare workers exist only with -DSPARE_RETIRES (see SPARE WORKERS below), and then only
 *     the spare that retires: a parked spare that a notifyWork passes over (worthWaking and
 *     wakeOne wake a spare only while it is wanted, and a core worker first) is not modelled;
 *     such a spare times out and retires, or is woken once wanted. Not modelled at
 *     all: IdleCoordinator.sinkParked (it only reorders the stack for the watcher), wakeOne's
 *     preferred worker (the async runtime's, see async_park.pml), and the bottom of the stack
 *     that a submitter outside the work-stealing pool wakes (notifyWorkFromOutside): the model's
 *     wakeOne pops the top, and which parked worker is woken is no part of the argument (the
 *     watcher role's model, watch_role.pml, has its waker pick any parked worker), the targeted wake of the pinned pool (IdleCoordinator.wake: a per-worker flag in place
 *     of the state word, the same two-sided argument), the shared-queue pools' per-worker slot
 *     (run by its owner before it can park, like a local push), blocking sections themselves, shutdown and termination, the GLOBAL_INTERVAL look
 *     at the injector (an ordering detail), and tasks that submit more tasks (local pushes
 *     only get notifyWorkRacy, and a fill of the LIFO slot not even that while the watcher role
 *     is held; the pusher runs its own queues before it can park, so they delay work but cannot
 *     strand it).
 *
 * THE WATCHERS, -DWATCH. A parked worker may leave the stack by itself and go back to its loop
 * neither parked nor searching: in the work-stealing pool the core worker that holds the
 * watcher role (Worker.awaitWatching, WatcherRole, LoneTaskWatch) watches its peers and resumes
 * (cancelPark, which fails if a waker got there first) when a busy peer's queued task waits for
 * a whole interval; in the shared-queue pools built with a watcher (AbstractPool.idle,
 * WatcherRole.await) the watcher moves a busy peer's slot task to the shared queue and resumes.
 * The model lets any parked worker resume at any moment while a peer's deque holds a task
 * (work-stealing) or at any moment (SHARING), up to NRESUME times in a run (2 by default): a
 * superset of the single watcher's moves up to that bound (its passing on is watch_role.pml's).
 * The bound keeps the liveness check meaningful: without it, weak fairness would make a
 * watcher resume and find any task a lost wake-up stranded, and hide the loss. The idle
 * protocol must keep its properties with these moves, and a mutant must still be caught
 * (check.sh runs MUTANT_NO_RECHECK with -DWATCH).
 * A worker's dq[] stands for all its local queues (deque, fork stack, LIFO slot), as
 * hasLocalWork, localSize (the re-check's "two or more") and stealOnce see them together.
 *
 * Properties:
 *   - safety: no task runs twice (assertion in run);
 *   - liveness, LTL "alltaken": <> (nran == NT), every submitted task is eventually run. A lost
 *     wake-up shows up as a run that ends (or cycles) with a task queued and every worker
 *     parked; checked with ./pan -a -f (weak fairness: a worker or submitter that can move
 *     eventually does; a parked worker cannot move until notified).
 *
 * Mutants (each must make spin report an error; see check.sh --mutants):
 *   -DMUTANT_NO_RECHECK          a parking worker never re-checks the queues (also -DSHARING)
 *   -DMUTANT_NOTIFY_FIRST        a submitter calls notifyWork before it offers its task
 *                                (also -DSHARING)
 *   -DMUTANT_LAST_SEARCHER_ONLY  only a parking worker that was the last searcher re-checks
 *                                (the rule before the fix below; fails with -DSPARE_RETIRES)
 *
 * SPARE WORKERS, -DSPARE_RETIRES: worker NW-1 is a spare worker that is no longer needed (the
 * core worker it stood in for has left its blocking section, so Spares.hasExcess() holds and
 * liveWorkers counts it until it retires). The first time it would park it retires instead,
 * as Worker.park() does: if it was searching it calls Worker.stopSearching() (modelled by
 * the inline stopSearchingFoundWork below), then
 * tryRetire() and exits; it may also retire later from a timed park (parkNanos, then
 * cancelPark). Under the old re-check rule (-DMUTANT_LAST_SEARCHER_ONLY) spin found a lost
 * wake-up in spindle-core with NW=2, NT=1, i.e. a
 * pool of parallelism 1 plus its spare, where only one worker may search at a time:
 * the spare S is the only searcher and has found nothing; core worker C finds nothing, fails
 * tryStartSearching (S is searching) and heads for park(); the submitter offers the task, sees
 * a searcher and wakes nobody; S retires: Worker.stopSearching() drops the searcher count
 * to 0 and calls notifyWork(), which wakes nobody because C is not registered as parked yet;
 * C then registers with wasSearching = false, so it is not the "last searcher" and does not
 * re-check the queues. The task stays queued with C parked and S gone, until some later
 * submission wakes C. With NW=3 (two searchers allowed) spin finds no such run.
 *
 * The root cause is on C's side: a worker that parks without having searched relies on a
 * searcher that will either park (and be woken, or re-check) or find work (and come back);
 * a retiring spare does neither. A re-check by the retiring spare alone does not help (the
 * submission can come right after it, and notifyWork() cannot wake C before C registers).
 * The repair, now in IdleCoordinator.prepareToPark() and modelled by default: it reports "re-check" to
 * every worker that finds the searching count at 0 when it registers, searcher or not. Spin
 * finds no lost wake-up with it, spares retiring or not (check.sh runs both).
 *
 * What spin reports for MUTANT_NO_RECHECK (NW=2, NT=1), an acceptance cycle, i.e. the lost
 * wake-up the re-check exists for: worker 1 searches, finds nothing and parks; worker 0 starts
 * searching (searching = 1) and finds the injector empty; the submitter offers the task and
 * reads the state word, sees a searcher and wakes nobody; worker 0 parks as the last searcher
 * and, without the re-check, never looks again. Both workers wait forever with the task queued.
 */

#ifndef NW
#define NW 2                 /* workers */
#endif
#ifndef NT
#define NT 2                 /* tasks */
#endif
#ifndef NSUB
#define NSUB 1               /* submitters; each submits NT / NSUB tasks */
#endif

#define BIT(i)  (1 << (i))

/* queues: bit sets of tasks */
byte inj = 0;
byte dq[NW];

/* ghost */
byte ran[NT];
byte nran = 0;
byte nextTask = 0;           /* the next task id a submitter will use */

/* IdleCoordinator: the state word (searching, parked), the lock, the parked stack, the flags */
byte searching = 0;
byte parked = 0;
byte live = NW;              /* pool.liveWorkers(), the argument of tryStartSearching */
bool lock = false;
byte stack[NW];
byte sp = 0;
bool notified[NW];

ltl alltaken { <> (nran == NT) }

#ifdef WATCH
#ifdef SPARE_RETIRES
#error "-DWATCH is checked without -DSPARE_RETIRES"
#endif
#ifdef SHARING
/* WatcherRole.await in AbstractPool.idle: the watcher moves a busy peer's slot task to the
 * shared queue (handOffQueued; the slot is not modelled) and resumes; any parked worker may
 * resume at any moment, a superset of the single watcher's moves */
#define WATCH_MAY_RESUME(m) (resumes < NRESUME)
#else
/* Worker.awaitWatching (the role's holder) and Worker.watchQueuedWork (a spare): a parked worker resumes while
 * a peer's deque holds a task (the queued task of a busy peer; the Java code's single watcher,
 * interval and progress test only narrow this down) */
#if NW > 2
#define WATCH_MAY_RESUME(m) (resumes < NRESUME && ((m != 0 && dq[0] != 0) || (m != 1 && dq[1] != 0) || (m != 2 && dq[2] != 0)))
#else
#define WATCH_MAY_RESUME(m) (resumes < NRESUME && ((m != 0 && dq[0] != 0) || (m != 1 && dq[1] != 0)))
#endif
#endif
#ifndef NRESUME
#define NRESUME 2            /* resumes in a run, all workers together (see THE WATCHERS) */
#endif
byte resumes = 0;
#endif

/* t := lowest task in set + 1, removed from set; or 0 if set is empty */
inline takeOldest(set, t) {
    t = 0;
    do
    :: t < NT && (set & BIT(t)) != 0 -> set = set & ~BIT(t); t++; break
    :: t < NT && (set & BIT(t)) == 0 -> t++
    :: t >= NT -> t = 0; break
    od
}

/* t := highest task in set + 1, removed; or 0 */
inline takeNewest(set, t) {
    t = NT;
    do
    :: t > 0 && (set & BIT(t - 1)) != 0 -> set = set & ~BIT(t - 1); break
    :: t > 0 && (set & BIT(t - 1)) == 0 -> t--
    :: t == 0 -> break
    od
}

/* IdleCoordinator.wakeOne(): pops the most recently parked worker, counts it as searching, flags it */
inline wakeOne(ok, w) {
    atomic {
        !lock -> lock = true;                     /* synchronized (lock) */
        assert(parked == sp);                     /* the state word agrees with the stack */
        ok = (searching == 0 && sp != 0);         /* state.get(); parkedCount */
        if
        :: !ok -> lock = false
        :: else
        fi
    };
    if
    :: ok ->
        d_step {                                  /* pop; state.addAndGet(SEARCHING - PARKED) */
            sp--; w = stack[sp]; stack[sp] = 0;
            searching++; parked--
        };
        d_step { notified[w] = true; lock = false; w = 0; ok = false }  /* notified; unlock */
        /* LockSupport.unpark: the parked worker waits on notified below */
    :: else
    fi
}

/* IdleCoordinator.notifyWork() */
inline notifyWork(ok, w) {
    ok = (searching == 0 && parked != 0);         /* state.get(), one read of both counts */
    if
    :: ok -> wakeOne(ok, w)
    :: else
    fi
}

/* IdleCoordinator.notifyWorkRacy(): a plain read that may be stale; wakeOne re-checks everything */
inline notifyWorkRacy(ok, w) {
    if
    :: wakeOne(ok, w)
    :: skip
    fi
}

/* Worker.stopSearching() (the model's name says when: a searcher found work, or a spare */
/* retires): IdleCoordinator.stopSearching(), then the last searcher looks */
inline stopSearchingFoundWork(ok, w) {
    d_step { searching--; ok = (searching == 0) };    /* state.addAndGet(-SEARCHING) */
    if
    :: ok ->                                      /* the last searcher wakes another only if */
        atomic { ok = false; vis = (inj != 0 || dq[me] != 0) };  /* work visible: own */
                                                  /* deque, then hasVisibleWork(), */
        do                                        /* one queue per step, after the decrement */
        :: atomic { !vis && v < NW -> vis = (dq[v] >= 2); v++ }
        :: atomic { else -> v = 0; break }
        od;
        if
        :: vis -> vis = false; notifyWork(ok, w)
        :: else
        fi
    :: else
    fi
}

/* Worker.takeFromInjector() */
inline takeFromInjector(t, ok, w) {
    if
    :: inj == 0 -> skip                           /* injector.isEmpty() */
    :: else ->
        atomic {                                  /* injector.pollBatch(deque, share): */
            takeOldest(inj, t);                   /* one to run, maybe the rest moved */
            if
            :: t != 0 && inj != 0 -> dq[me] = dq[me] | inj; inj = 0
            :: true
            fi
        };
        if
        :: t != 0 && dq[me] != 0 -> notifyWorkRacy(ok, w)   /* let a peer steal the rest */
        :: else
        fi
    fi
}

proctype Worker(byte me) {
    bool srch = false;       /* Worker.searching */
    bool last = false;
    bool vis = false;
    bool ok = false;
    byte t = 0;              /* the task in hand + 1; 0 = none */
    byte w = 0;
    byte v = 0;

loop:
#ifdef SHARING
    /* AbstractPool.loop: poll() takes the shared queue's oldest task */
    atomic { takeOldest(inj, t) };
    if
    :: t != 0 && srch ->                          /* a woken worker took a task */
        srch = false;
        d_step { searching--; ok = (searching == 0) };   /* idle.stopSearching() */
        if
        :: ok -> ok = false;
            if
            :: inj != 0 -> notifyWork(ok, w)      /* hasWorkFor: more work, wake the next */
            :: else
            fi
        :: else
        fi
    :: else
    fi;
#else
    /* nextLocalOrGlobal(): pop the own deque, else take from the injector */
    atomic { takeNewest(dq[me], t) };             /* deque.pop() */
    if
    :: t == 0 -> takeFromInjector(t, ok, w)
    :: else
    fi;
    if
    :: t != 0 ->
        if
        :: srch -> srch = false; stopSearchingFoundWork(ok, w)
        :: else
        fi
    :: else ->
        /* search() */
        if
        :: !srch ->                               /* tryStartSearching(liveWorkers) */
            d_step {
                if
                :: 2 * searching >= live -> srch = false
                :: else -> searching++; srch = true
                fi
            }
        :: else
        fi;
        if
        :: srch ->
            /* stealOnce: probe every other worker once (see the header on random victims) */
            do
            :: atomic {
                   v < NW && t == 0 ->
                   if
                   :: v != me ->                  /* stealBatchOrNull(own deque) */
                       takeOldest(dq[v], t);
                       if
                       :: t != 0 && dq[v] != 0 -> dq[me] = dq[me] | dq[v]; dq[v] = 0
                       :: true
                       fi
                   :: else
                   fi;
                   v++
               }
            :: atomic { else -> v = 0; break }
            od;
            if
            :: t != 0 && dq[me] != 0 -> notifyWorkRacy(ok, w)
            :: else
            fi;
            if
            :: t == 0 -> takeFromInjector(t, ok, w)
            :: else
            fi;
            if
            :: t != 0 -> srch = false; stopSearchingFoundWork(ok, w)
            :: else
            fi
        :: else
        fi
    fi;
#endif

    if
    :: t != 0 ->                                  /* runTask */
        d_step {
            assert(ran[t - 1] == 0);              /* no task runs twice */
            ran[t - 1]++;
            nran++;
            t = 0
        };
        goto loop
    :: else
    fi;

    /* park() */
#ifdef SPARE_RETIRES
    if
    :: me == NW - 1 ->                            /* a spare, and spares.hasExcess() */
        if
        :: srch -> srch = false; stopSearchingFoundWork(ok, w)   /* "hands the search to */
        :: else                                                  /* a parked peer if last" */
        fi;
        live--;                                   /* tryRetire() succeeds: the thread exits */
        goto retired
    :: else
    fi;
#endif
    atomic {
        !lock -> lock = true;                     /* prepareToPark: synchronized (lock) */
        stack[sp] = me; sp++;
        notified[me] = false;
        parked++;                                 /* state.addAndGet(PARKED - (searching?1:0)) */
        if
        :: srch -> searching--
        :: else
        fi;
#ifdef MUTANT_LAST_SEARCHER_ONLY
        last = srch && searching == 0;            /* the old rule: only the last searcher */
#else
        last = (searching == 0);                  /* whoever finds nobody searching re-checks */
#endif
        lock = false;
        srch = false
    };
#ifndef MUTANT_NO_RECHECK
#ifdef SHARING
    if
    :: last && inj != 0 ->                        /* hasWorkFor(w): the shared queue */
        last = false;
        atomic {
            !lock -> lock = true;                 /* idle.cancelPark(w.index) */
            if
            :: !notified[me] ->                   /* still registered: take it off */
                v = 0;
                do
                :: stack[v] == me -> break
                :: else -> v++
                od;
                do
                :: v + 1 < sp -> stack[v] = stack[v + 1]; v++
                :: else -> break
                od;
                sp--; stack[sp] = 0; v = 0;
                parked--;
                srch = false
            :: else -> srch = true                /* woken meanwhile: counted as searching */
            fi;
            lock = false
        };
        goto loop
    :: else
    fi;
#else
    if
    :: last ->                                    /* pool.hasVisibleWork() */
        atomic { last = false; vis = (inj != 0) };
        do
        :: atomic { !vis && v < NW -> vis = (dq[v] >= 2); v++ }
        :: atomic { else -> v = 0; break }
        od;
        if
        :: vis -> vis = false; notifyWork(ok, w)  /* may wake this very worker */
        :: else
        fi
    :: else
    fi;
#endif
#endif
    last = false;
end_parked:
#ifdef SPARE_RETIRES
    if
    :: atomic { notified[me] -> srch = true }     /* woken */
    :: me == NW - 1 ->                            /* the spare's parkNanos(keepAlive) timed out */
        atomic {
            !lock -> lock = true;                 /* cancelPark(this), only if !notified */
            if
            :: !notified[me] ->
                v = 0;
                do
                :: stack[v] == me -> break
                :: else -> v++
                od;
                do                                /* remove it, keeping the order */
                :: v + 1 < sp -> stack[v] = stack[v + 1]; v++
                :: else -> break
                od;
                sp--; stack[sp] = 0; v = 0;
                parked--;
                lock = false;
                live--;                           /* timedOut; continue; tryRetire() */
                goto retired
            :: else -> lock = false
            fi
        };
        atomic { notified[me] -> srch = true }
    fi;
    goto loop;
#else
#ifdef WATCH
    do
    :: atomic { notified[me] -> srch = true; break }  /* woken: the waker counted us searching */
    :: atomic {                                   /* the watch's RESUME: cancelPark(this), */
        !lock && !notified[me] && WATCH_MAY_RESUME(me) ->  /* which fails once a waker */
        lock = true;                              /* got there first */
        v = 0;
        do
        :: stack[v] == me -> break
        :: else -> v++
        od;
        do                                        /* remove it, keeping the order */
        :: v + 1 < sp -> stack[v] = stack[v + 1]; v++
        :: else -> break
        od;
        sp--; stack[sp] = 0; v = 0;
        parked--;
        resumes++;
        lock = false;
        srch = false                              /* neither parked nor searching */
       };
       goto loop                                  /* go and look */
    od;
    goto loop;
#else
    atomic { notified[me] -> srch = true };       /* while (!notified) park(); the waker */
    goto loop;                                    /* counted us as searching */
#endif
#endif
retired:
    skip
}

proctype Submitter() {
    bool ok = false;
    byte w = 0;
    byte k = 0;
    byte id = 0;
    do
    :: k < NT / NSUB ->
        d_step { id = nextTask; nextTask++ };
#ifdef MUTANT_NOTIFY_FIRST
        notifyWork(ok, w);
        inj = inj | BIT(id);
#else
        inj = inj | BIT(id);                      /* injector.offer(task) */
        notifyWork(ok, w);                        /* idle.notifyWork() */
#endif
        d_step { k++; id = 0 }
    :: else -> break
    od
}

init {
    byte i = 0;
    atomic {
        do
        :: i < NW -> run Worker(i); i++
        :: else -> break
        od;
        i = 0;
        do
        :: i < NSUB -> run Submitter(); i++
        :: else -> break
        od
    }
}
