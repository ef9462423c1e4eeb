/*
 * Spindle: the single watcher role (WatcherRole in spindle-core, used by spindle-async's
 * AsyncWorker.park, the work-sharing pool and the work-stealing pool's core workers;
 * IdleCoordinator.sleep and nudgeParked), whose prose argument is in WatcherRole's overview.
 *
 * One parked worker at a time watches its busy peers (LoneTaskWatch) so that a task left in a
 * LIFO slot behind a poll that then blocks is taken by someone. The role is a flag taken with a
 * CAS by a parking worker; a parked worker that finds it taken sleeps. What must hold: whenever
 * the runtime comes to rest with a worker parked, one parked worker holds the role. Otherwise a
 * worker whose poll then blocks on what it left in its slot waits for good (StalledPollTest
 * .theWatchPassesToASleepingPeerWhenTheWatcherIsWoken, which hung before the hand-over).
 *
 * Processes: NW workers, and one waker standing for every wake-up from the idle protocol
 * (notifyWork with or without a preferred worker, a targeted wake): up to NWAKE times it picks
 * any parked worker, takes it off the stack and sets its notified flag under the lock, then
 * unparks it. A woken worker runs and then either parks again or runs on for good (a poll that
 * blocks: the state the watcher exists for). A watching worker may also leave the stack by
 * itself (LoneTaskWatch's RESUME, a cancelPark that fails if a waker got there first), up to
 * NRESUME times in all.
 *
 * What is abstracted:
 *   - The parked stack is a set, and nudgeParked picks any parked worker, not the most recently
 *     parked one: a superset of the Java code's choices, so a pass covers it (also of the order
 *     IdleCoordinator.sinkParked gives the stack: a watcher sinks to its bottom). nudgeParked's
 *     lock-free look at the parked count comes first, as its own step (the lock only if it is
 *     not 0).
 *   - The parker is LockSupport's contract: a sticky permit that an unpark sets and a park
 *     consumes (a park with the permit set returns at once). Spurious returns are left out: they
 *     only make a sleeper try the flag more often.
 *   - The watch's timed sleeps and looks are abstracted into "wait until notified, or resume".
 *   - Volatile accesses and the lock's sections are steps; Promela's interleaving is the
 *     sequential consistency that Java gives volatiles and locks.
 *
 * The check: when no step is possible (timeout), a parked worker exists only if a parked worker
 * holds the role. End states of workers (parked, running on) are valid.
 *
 * -DGIVE_UP: the pools' variant (WatcherRole.await with a number of idle looks: AbstractPool.idle
 * and Worker.awaitWatching in spindle-core). The work-stealing pool's re-check wakes a worker
 * (possibly itself) instead of cancelling its park, which the waker process covers. Its spares
 * are not modelled: they never take the role and nudgeParked passes them over, so the workers
 * here are its core workers (a spare watches the queued work it sees when it parks; a core
 * worker leaving its wait with no core worker parked takes a peer's slot task itself,
 * Worker.takeSlotTaskIfUnwatched). Nothing needs watching while every worker is parked, so a
 * watcher whose looks
 * find every peer parked (four in a row in the Java code; any one here, the timed sleeps between
 * them abstracted) gives the role up (LoneTaskWatch's NOTHING_TO_WATCH), frees the
 * flag, looks once more (anythingToWatch) and, finding every peer still parked, sleeps
 * unwatching until woken or nudged; a peer found awake sends it back to the CAS. A look reads the
 * peers one at a time. A parking worker may also cancel its own park right after registering (its
 * re-check found work) and leaves through the same nudge check (WatcherRole.leave). The check is
 * weaker accordingly: at rest, if a worker runs on for good while another is parked, a parked
 * worker holds the role. Looks that find a peer awake are bounded (NLOOK, 2 by default) so that a
 * watcher whose peer runs on for good comes to rest holding the role, as the timed sleeps and
 * looks of the other variant are abstracted.
 *
 * -DACTIVE_ONLY (with GIVE_UP): the work-stealing pool's role (WatcherRole's
 * onlyWhilePeersActive), needed only while a peer is awake, as a slot fill wakes nobody only
 * while the role is held: a parking worker takes the role only if a look (anyPeerActive, the peers
 * one at a time) finds a peer awake, else sleeps unwatching until woken or nudged; a leaving worker
 * that finds the role free nudges only if such a look finds a peer awake. Slot fills are modelled
 * as far as the check needs them: a worker that runs on for good made its last fill just before,
 * silently if the role was held then (a fill with the role free wakes a peer as a deque push
 * does, which park.pml covers). The Java code makes a fill silent only when, besides, the filling
 * task came out of its worker's slot (Worker.runsSlotTask); any other fill wakes a peer, so the
 * model's silent fills are a superset of the code's and a pass covers it. The check: at rest, if a worker runs on for good after a silent
 * fill while another is parked, a parked worker holds the role. MUTANT_NO_NUDGE (3 workers) and
 * MUTANT_NO_SECOND_LOOK apply; a cancelled park's nudge (MUTANT_CANCEL_NO_LEAVE) is not needed
 * in this variant (the checks pass without it: the holder's leave nudges whenever a peer is
 * awake), nor is MUTANT_WATCHER_NUDGES_ONLY's hand-on caught with at most 3 workers.
 *
 * Mutants (check.sh --mutants), each of which spin must catch:
 *   MUTANT_NO_NUDGE           nobody hands the role over (the code before the fix: "the role is
 *                             free until the next worker parks")
 *   MUTANT_WATCHER_NUDGES_ONLY only a leaving watcher nudges; a nudged worker woken before its CAS
 *                             does not pass the nudge on (needs 3 workers)
 *   MUTANT_NUDGE_BEFORE_RELEASE the leaving watcher nudges before it frees the flag
 *   MUTANT_NO_SECOND_LOOK     (with GIVE_UP) a watcher that gives the role up sleeps without
 *                             looking again after freeing the flag
 *   MUTANT_CANCEL_NO_LEAVE    (with GIVE_UP) a worker that cancels its own park nudges nobody
 */
#ifdef ACTIVE_ONLY
#ifndef GIVE_UP
#define GIVE_UP
#endif
#endif

#ifndef NW
#define NW 2
#endif
#ifndef NWAKE
#define NWAKE 3
#endif
#ifndef NRESUME
#define NRESUME 1
#endif

byte flag = 0;               /* WatcherRole.held: 0 free, else holder + 1 */
bool lock = false;           /* the idle coordinator's lock */
bool parked[NW];             /* on the parked stack */
bool notified[NW];
bool permit[NW];             /* LockSupport's permit */
bool ranOn[NW];              /* running on for good: a poll that blocked */
#ifdef ACTIVE_ONLY
bool silent[NW];             /* its last slot fill before it blocked woke nobody (role held) */
#endif
byte wakes = 0;
byte resumes = 0;
byte cancels = 0;            /* GIVE_UP: parks cancelled by a worker's own re-check */
byte looks = 0;              /* GIVE_UP: looks that found a peer awake (the watch went on) */
#ifndef NCANCEL
#define NCANCEL 1
#endif
#ifndef NLOOK
#define NLOOK 2
#endif

#if NW > 2
#define PARKED_COUNT (parked[0] + parked[1] + parked[2])
#else
#define PARKED_COUNT (parked[0] + parked[1])
#endif
#define HOLDER_PARKED (flag != 0 && parked[flag - 1])

/* nudgeParked(): first one read of the state word's parked count, without the lock (nobody
 * parked: return); else under the lock pick a parked worker (any: see above), unpark it
 * outside. The count changes in the same lock sections as the flags, so reading the flags in
 * one step stands for that read. */
inline nudge() {
    if
    :: PARKED_COUNT == 0 -> skip                /* parked(STATE.getVolatile) == 0: no lock */
    :: else ->
        atomic { !lock -> lock = true };
        if
        :: parked[0] -> t = 0
        :: parked[1] -> t = 1
#if NW > 2
        :: parked[2] -> t = 2
#endif
        :: else -> t = NW                       /* size == 0: nobody parked any more */
        fi;
        lock = false;
        if
        :: t < NW -> permit[t] = true           /* parker.unpark(w) */
        :: else
        fi;
        t = 0
    fi
}

/* GIVE_UP: a look at the peers, one at a time: res = every peer other than me is parked */
inline lookAllParked(res) {
    res = true;
    i = 0;
    do
    :: i < NW ->
        if
        :: i != me && !parked[i] -> res = false
        :: else
        fi;
        i++
    :: else -> break
    od;
    i = 0
}

/* WatcherRole.leave(): if the role is free, nudge a parked peer to take it (ACTIVE_ONLY: only
 * if a look finds a peer awake) */
inline leavePark(watched) {
#ifdef MUTANT_NO_NUDGE
    skip
#elif defined(ACTIVE_ONLY)
    if
    :: flag == 0 ->
        lookAllParked(allParked);               /* watch.anyPeerActive() */
        if
        :: !allParked -> nudge()
        :: else
        fi
    :: else
    fi
#else
#ifdef MUTANT_WATCHER_NUDGES_ONLY
    if
    :: watched && flag == 0 -> nudge()
    :: else
    fi
#else
    if
    :: flag == 0 -> nudge()
    :: else
    fi
#endif
#endif
}

proctype Worker(byte me) {
    byte t = 0;
    byte i = 0;
    bool watched;
    bool allParked;
park:
    atomic { !lock -> lock = true };            /* prepareToPark: under the lock */
    notified[me] = false;
    parked[me] = true;
    lock = false;
    watched = false;
#ifdef GIVE_UP
    if
    :: atomic { !lock && cancels < NCANCEL -> lock = true; cancels++ };  /* re-check found work */
        parked[me] = false;                     /* cancelPark (or a waker got there first) */
        lock = false;
#ifndef MUTANT_CANCEL_NO_LEAVE
        leavePark(false);                       /* WatcherRole.leave */
#endif
        goto running
    :: true
    fi;
#endif
sleeping:
    do
    :: notified[me] -> break                    /* while (!isNotified(index)) */
    :: else ->
#ifdef ACTIVE_ONLY
        if                                      /* !held.get() && anyPeerActive() && CAS, else */
        :: flag != 0 -> goto end_unwatched      /* idle.sleep: until woken or nudged */
        :: else ->
            lookAllParked(allParked);
            if
            :: allParked -> goto end_unwatched
            :: else
            fi
        fi;
#endif
        if
#ifdef ACTIVE_ONLY
        :: flag != 0 -> goto end_unwatched      /* the CAS failed: idle.sleep */
#endif
        :: atomic { flag == 0 -> flag = me + 1 }  /* watcher.compareAndSet(false, true) */
            watched = true;
end_watch:
            do                                  /* LoneTaskWatch.watch */
            :: notified[me] -> break            /* WOKEN */
#ifdef GIVE_UP
            :: !notified[me] && looks < NLOOK ->  /* a look: NOTHING_TO_WATCH if every peer is parked */
                lookAllParked(allParked);
                if
                :: allParked ->
                    flag = 0;                   /* finally: watcher.set(false) */
#ifndef MUTANT_NO_SECOND_LOOK
                    lookAllParked(allParked);   /* anythingToWatch() */
                    if
                    :: !allParked -> goto sleeping  /* mayWatch: try for the role again */
                    :: else
                    fi;
#endif
                    goto end_unwatched          /* mayWatch = false */
                :: else -> looks++              /* a peer is awake: watch on (bounded, see NLOOK) */
                fi
#endif

            :: atomic { !lock && !notified[me] && resumes < NRESUME ->
                    lock = true; resumes++ };   /* a peer ran on with work: cancelPark */
                if
                :: parked[me] -> parked[me] = false; lock = false;
#ifdef MUTANT_NUDGE_BEFORE_RELEASE
                    leavePark(true);
                    flag = 0;
#else
                    flag = 0;                   /* finally: watcher.set(false) */
                    leavePark(true);
#endif
                    goto running                /* RESUME */
                :: else -> lock = false         /* a waker got there first: WOKEN */
                fi
            od;
#ifdef MUTANT_NUDGE_BEFORE_RELEASE
            leavePark(true);
            flag = 0;
#else
            flag = 0;                           /* finally: watcher.set(false) */
#endif
            break
        :: atomic { flag != 0 ->                /* taken: parking.sleep(index) */
end_sleep:
            permit[me] } ->
            permit[me] = false
        fi
    od;
#ifdef GIVE_UP
    goto left;
end_unwatched:                                  /* parking.sleep(index), until woken or nudged */
    do
    :: notified[me] -> goto left
    :: atomic { permit[me] -> permit[me] = false }; goto sleeping
    od;
left:
#endif
#ifndef MUTANT_NUDGE_BEFORE_RELEASE
    leavePark(watched);
#else
    if
    :: !watched -> leavePark(false)             /* a watcher nudged above already */
    :: else
    fi;
#endif
running:
    if
    :: goto park                                /* polls, finds nothing, parks again */
    ::
#ifdef ACTIVE_ONLY
        silent[me] = (flag != 0);               /* its last slot fill: silent while the role is held */
#endif
        ranOn[me] = true;                       /* a poll that blocks, for good */
end_ranOn:
        false
    fi
}

proctype Waker() {
    byte w;
    do
    :: wakes < NWAKE ->
        atomic { !lock -> lock = true };
        if
        :: parked[0] -> w = 0
        :: parked[1] -> w = 1
#if NW > 2
        :: parked[2] -> w = 2
#endif
        :: else -> w = NW
        fi;
        if
        :: w < NW -> parked[w] = false; notified[w] = true; wakes++
        :: else
        fi;
        lock = false;
        if
        :: w < NW -> permit[w] = true           /* parker.unpark(w), outside the lock */
        :: else
        fi
    :: wakes < NWAKE -> wakes = NWAKE           /* or no more wake-ups */
    :: wakes >= NWAKE -> break
    od
}

#if NW > 2
#define RAN_ON_COUNT (ranOn[0] + ranOn[1] + ranOn[2])
#else
#define RAN_ON_COUNT (ranOn[0] + ranOn[1])
#endif

#if NW > 2
#define SILENT_COUNT ((ranOn[0] && silent[0]) + (ranOn[1] && silent[1]) + (ranOn[2] && silent[2]))
#else
#define SILENT_COUNT ((ranOn[0] && silent[0]) + (ranOn[1] && silent[1]))
#endif

/* At rest, a parked worker exists only if a parked worker watches (GIVE_UP: only while a worker
 * runs on for good). */
active proctype Rest() {
end_rest:
#ifdef ACTIVE_ONLY
    timeout -> assert(SILENT_COUNT == 0 || PARKED_COUNT == 0 || HOLDER_PARKED)
#elif defined(GIVE_UP)
    timeout -> assert(RAN_ON_COUNT == 0 || PARKED_COUNT == 0 || HOLDER_PARKED)
#else
    timeout -> assert(PARKED_COUNT == 0 || HOLDER_PARKED)
#endif
}

init {
    atomic {
        byte i = 0;
        do
        :: i < NW -> run Worker(i); i++
        :: else -> break
        od;
        run Waker()
    }
}
