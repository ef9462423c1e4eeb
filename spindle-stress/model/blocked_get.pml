/*
 * Spindle: the async runtime's blocked workers that help (spindle-async, dev.spindle.async:
 * AsyncWorker's "Blocking gets": JoinHandle.await and its loop, AsyncWorker.mustHelp,
 * helpWhileBlocked and cancelAbandoned, AsyncRuntime.blockedInGet and running, workerExited)
 * as a Promela model.
 *
 * THE INVARIANTS.
 *   (a) blockedInGet never counts a worker that is not waiting in a get: it is at most the
 *       number of workers whose innermost frame is the wait loop of a get (a worker running a
 *       helped poll is not counted: the count is decremented before the poll and incremented
 *       after it, also when that poll's runCell throws). Otherwise a blocked worker would help
 *       while a peer is free ("only when needed"), and a closing runtime would cancel tasks a
 *       peer may still run.
 *   (b) Progress: while the runtime is open every task is eventually done although every
 *       worker blocks in a get of a task that only a helper can run (the queued children);
 *       after a close every worker leaves its loop (shutdown's joins return), although the
 *       workers blocked in gets are not woken by it.
 *   (c) cancelAbandoned's "every worker still running is blocked" check (running.get(), then
 *       blockedInGet.get(); running > blocked returns false) passes only if, at its second read,
 *       every worker still in its loop is waiting in a get: never spuriously while a worker is
 *       between the decrement and the increment around a helped poll, or running a poll.
 *
 * PROPERTIES CHECKED:
 *   - (a): the process Inv asserts blockedInGet <= nwait (the workers waiting in a get) in
 *     every reachable state;
 *   - (c): an assertion at cancelAbandoned's second read;
 *   - (b): the LTL claim `live` (<> every task done; with -DCLOSE <> every worker exited),
 *     under weak fairness (pan -a -f): a run in which blocked workers look again for ever
 *     while tasks stay queued, or never see that the others are all blocked, is an acceptance
 *     cycle.
 *
 * THE SCENARIO (fixed, small). NW workers (2); roots T0..T(NW-1) queued at the start, one per
 * worker; root Ti spawns Ti+NW from inside (queued where any worker's pick finds it) and
 * blocks in its get, so once each worker runs a root every worker is blocked and only helping
 * runs the children. -DNEST: the child T2 in turn spawns T4 and blocks in its get (a get
 * inside a helped poll: three frames on one worker's stack). -DTHROW: a helped runCell may
 * throw after its poll completed (an Error escaping runCell): the get it helped in throws it,
 * and the outer task's poll fails with it (runCell's catch). -DCLOSE: shutdown() at any
 * moment. -DPROMISE: root T0 spawns T2 and then blocks in the get of a promise that T2's
 * completion completes (JoinHandle.await on a worker for a promise: counted in blockedInGet,
 * never helping, parked until the promise is done); T1 still waits in the get of T3, so only
 * T1's worker helping runs T2 (or T3): it must count T0's worker as blocked. With -DCLOSE an
 * outside thread may complete the promise at any moment (nothing else ends that wait once the
 * runtime closes: T2 is no longer polled).
 *
 * ABSTRACTED (checked elsewhere or not at issue here):
 *   - the queues: one set of queued tasks; a pick (takeLifo/next/search, after spilling the
 *     peers' hot queues) takes one atomically. A helper first takes the task it awaits if that
 *     one is queued (AsyncWorker.takeAwaited takes its entry out of turn from the helper's own
 *     LIFO slot or the newest cells of its deque, where the waiting poll's spawns are; here
 *     every queued child is there, as no peer's pick moves an entry without running it; queued
 *     elsewhere, the code's help goes oldest first towards it, takeOldestFirst, an order this
 *     model's one set does not have). Taking an entry is the only
 *     claim on a cell (TaskCell), so a taken cell is always scheduled and never being polled:
 *     asserted at the poll. The idle protocol is one guarded step: a worker
 *     with nothing to take waits until something is queued or the runtime closes (that it is
 *     woken so is async_park.pml's property).
 *   - the wait's parkNanos(HELP_RECHECK_NANOS): the get's loop just goes round again (a timed
 *     park always ends); a completion's unpark is not needed then.
 *   - a task's poll is one step up to its spawn; a cancel (JoinHandle.cancel's CAS) is one step.
 *
 * MUTANTS (check.sh --mutants: each must be caught):
 *   MUTANT_NO_DECREMENT        helpWhileBlocked does not decrement before the helped poll (a)
 *   MUTANT_INCREMENT_EARLY     ... increments again before the helped poll returns (a)
 *   MUTANT_NO_FINALLY          ... increments again only when the helped runCell returns
 *                              normally, not in a finally (-DTHROW; (b): the count stays one
 *                              short, nobody helps again)
 *   MUTANT_NO_RECHECK          a blocked worker that does not see the count full parks until
 *                              its task is done instead of looking again (b)
 *   MUTANT_BLOCKED_FIRST       cancelAbandoned reads blockedInGet before running (c)
 *   MUTANT_CLAIM_BY_REFERENCE  helpWhileBlocked runs the awaited task by reference, leaving
 *                              its queue entry (as before session 38, but without the CAS
 *                              SCHEDULED -> RUNNING that made the entry's later taker skip
 *                              it): the taker polls a cell that is no longer scheduled
 *   MUTANT_PROMISE_UNCOUNTED   (-DPROMISE) a worker waiting for a promise is not counted in
 *                              blockedInGet, as before the fix (b): T1's worker never
 *                              helps, T2 and T3 stay queued
 */

#ifndef NW
#define NW 2
#endif
#define NONE 255
#ifdef NEST
#define NT (2 * NW + 1)
#else
#define NT (2 * NW)
#endif
#define DEPTH 3

#define SCHED   1                /* TaskCell states: NEW (0) is not spawned yet */
#define RUNNING 2                /* being polled: the word says SCHEDULED, polledBy names owner */
#define DONE    3

byte rs[NT];                    /* TaskCell's run state */
bool out[NT];                    /* the handle's outcome is out (done, failed or cancelled) */
byte owner[NT];                  /* TaskCell.owner: the worker that polls it */
bool q[NT];                      /* queued (anywhere a pick finds it) */
byte nq = 0;                     /* how many are queued */
byte child[NT];                  /* the task a poll spawns and then awaits, or NONE */

int blocked = 0;                 /* AsyncRuntime.blockedInGet */
bool prom = false;               /* -DPROMISE: the promise T0 waits for is complete */
byte running = NW;               /* AsyncRuntime.running */
bool closing = false;            /* AsyncRuntime.closing */

/* ghost */
byte nwait = 0;                  /* workers whose innermost frame is a get's wait loop */
byte nlive = NW;                 /* workers still in their loop */
byte ndone = 0;                  /* handles with their outcome out */
byte nexit = 0;                  /* workers whose thread ended */

#ifdef CLOSE
ltl live { <> (nexit == NW) }
#else
ltl live { <> (ndone == NT) }
#endif

#define ANYQ (nq > 0)

/* the first queued task, removed; ok: whether there was one */
inline pick(t, ok) {
    t = 0; ok = false;
    do
    :: t < NT && q[t] -> q[t] = false; nq--; ok = true; break
    :: t < NT && !q[t] -> t++
    :: t >= NT -> break
    od
}

/* the handle of t gets its outcome (complete, fail or cancel: the first one wins) */
inline settle(t) {
    if
    :: !out[t] -> out[t] = true; ndone++
    :: else
    fi
}

proctype Worker(byte me) {
    byte d = 0;                  /* the frame: 0 is the loop's poll, d > 0 a poll helped in a get */
    byte tk[DEPTH];              /* the task each frame polls */
    byte t = 0;
    byte c = 0;
    int rr = 0;
    int rb = 0;
    bool ok = false;
    bool threw = false;
loop:                            /* AsyncWorker.loop: while (!runtime.closing) round() */
    if
    :: closing -> goto exit
    :: else
    fi;
end_idle:                        /* the idle protocol: parked until work or a close */
    atomic {
        (closing || ANYQ) ->
        if
        :: closing -> goto exit
        :: else -> pick(t, ok)
        fi
    };
    d = 0;
poll:                            /* runCell(c) for frame d */
    atomic {
        assert(rs[t] == SCHED);  /* long before = c.word(): the entry taken is the claim */
        rs[t] = RUNNING; owner[t] = me;   /* c.polledBy = index + 1 */
        if
        :: out[t] -> rs[t] = DONE; goto ret   /* cancelRequested: abandon */
        :: else
        fi;
        tk[d] = t;
        c = child[t]
    };
    if
    :: c == NONE -> goto complete
    :: else
    fi;
    atomic {                     /* spawn(c) from inside */
        if
        :: closing ->            /* refused: the poll throws, runCell fails the task */
            goto complete
        :: else -> rs[c] = SCHED; q[c] = true; nq++
        fi
    };
#ifdef PROMISE
    if
    :: t == 0 ->                 /* T0: p.get() on a worker: counted, not helping */
        if
        :: prom -> goto complete
        :: else
        fi;
        nwait++;
#ifndef MUTANT_PROMISE_UNCOUNTED
        blocked++;
#endif
        prom;                    /* LockSupport.park until the completion's unpark */
#ifndef MUTANT_PROMISE_UNCOUNTED
        blocked--;
#endif
        nwait--;
        goto complete
    :: else
    fi;
#endif
    /* c.get(): JoinHandle.get -> await(false, 0) */
    if
    :: out[c] -> goto complete   /* the outcome is out already */
    :: else
    fi;
    nwait++;                     /* blockedWorker(): this worker waits here from now on */
    blocked++;                   /* runtime.blockedInGet.incrementAndGet() */
wait:                            /* await's loop */
    c = child[tk[d]];
    if
    :: out[c] -> goto leave      /* (s & OUTCOME_MASK) != 0: return */
    :: else
    fi;
    /* helping = helper.mustHelp(): !closing && blockedInGet.get() >= workers.length (two
     * reads: a close may come between them, and the help then runs a task after it) */
    if
    :: closing -> ok = false
    :: else -> ok = (blocked >= NW)
    fi;
    if
    :: ok ->
        /* helpWhileBlocked(awaited): the awaited task itself if it is queued (takeAwaited
         * takes its entry), else a pick */
        atomic {
            if
#ifdef MUTANT_CLAIM_BY_REFERENCE
            :: rs[c] == SCHED -> t = c; ok = true     /* its entry left queued */
#else
            :: q[c] -> q[c] = false; nq--; t = c; ok = true
#endif
            :: else -> pick(t, ok)
            fi
        };
        if
        :: ok ->
#ifndef MUTANT_NO_DECREMENT
            blocked--;           /* running: not blocked while this poll lasts */
#endif
#ifdef MUTANT_INCREMENT_EARLY
            blocked++;
#endif
            nwait--;             /* runCell(c): a poll, not a wait, is this worker's innermost frame */
            d++;
            goto poll
        :: else                  /* nothing found: driver.pollNow, then the timed park */
        fi
    :: else
    fi;
    /* cancelAbandoned(this, false) */
    if
    :: closing ->
#ifndef MUTANT_BLOCKED_FIRST
        rr = running;            /* runtime.running.get() */
        atomic {
            rb = blocked;        /* > runtime.blockedInGet.get() */
            /* (c): passing, every worker still in its loop waits in a get */
            assert(rr > rb || nwait == nlive)
        };
#else
        rb = blocked;
        atomic {
            rr = running;
            assert(rr > rb || nwait == nlive)
        };
#endif
        if
        :: rr <= rb ->
            atomic {             /* state(), polledBy; then cancel(false): the CAS wins if not done */
                if
                :: !out[c] && (rs[c] == SCHED || (rs[c] == RUNNING && owner[c] == me)) ->
                    settle(c)
                :: else
                fi
            }
        :: else
        fi
    :: else
    fi;
#ifdef MUTANT_NO_RECHECK
    /* parks until its task is done (LockSupport.park), not for HELP_RECHECK_NANOS */
    if
    :: !closing && blocked >= NW
    :: else -> out[c]
    fi;
#endif
    goto wait;                   /* parkNanos(HELP_RECHECK_NANOS) ended: look again */
leave:                           /* await's finally: blockedInGet.decrementAndGet() */
    blocked--;
    nwait--;
    if
    :: threw -> threw = false; goto fail   /* the get rethrows what the helped runCell threw */
    :: else
    fi;
complete:                        /* the poll returns Ready (or fails): the handle completes */
    /* One step: the outcome's CAS, then c.polledBy = 0. The code clears polledBy only after the
     * outcome; clearing it first (session 38) let a closing worker's cancelAbandoned read a
     * completing task as scheduled and unpolled and cancel it, losing its value: a state
     * (SCHED, not RUNNING, while being completed) that this model does not have. */
    atomic {
        settle(tk[d]); rs[tk[d]] = DONE;
#ifdef PROMISE
        if
        :: tk[d] == NW -> prom = true   /* T2's body completes the promise */
        :: else
        fi
#endif
    };
#ifdef THROW
    if                           /* an Error escaping a helped runCell after the poll */
    :: d > 0 -> threw = true
    :: true
    fi;
#endif
    goto ret;
fail:                            /* runCell's catch: the poll threw, the task fails */
    atomic {
        settle(tk[d]); rs[tk[d]] = DONE;
#ifdef PROMISE
        if
        :: tk[d] == NW -> prom = true   /* T2 completes the promise in a finally */
        :: else
        fi
#endif
    };
ret:                             /* runCell returned (or threw, with threw set) */
    if
    :: d == 0 -> goto loop
    :: else ->
        d--;                     /* back in frame d's helpWhileBlocked */
        nwait++;                 /* the helped poll is over: the wait is innermost again */
#ifdef MUTANT_NO_FINALLY
        if
        :: !threw -> blocked++   /* incremented only when runCell returned */
        :: else
        fi;
#elif !defined(MUTANT_INCREMENT_EARLY)
        blocked++;               /* finally: runtime.blockedInGet.incrementAndGet() */
#endif
        if
        :: threw -> goto leave   /* out of helpWhileBlocked and await */
        :: else -> goto wait     /* helped: re-read the handle */
        fi
    fi;
exit:
    atomic { nlive-- };          /* the loop ended */
    running--;                   /* workerExited: running.decrementAndGet() */
    nexit++
}

/* (a), in every reachable state: nobody counted blocked runs a poll */
proctype Inv() {
    assert(blocked <= nwait)
}

#ifdef CLOSE
proctype Closer() {
    closing = true               /* shutdown(): closing = true; terminate() wakes the idle */
}
#ifdef PROMISE
proctype Outsider() {
    prom = true                  /* p.complete from a thread outside the runtime */
}
#endif
#endif

init {
    byte i = 0;
    atomic {
        do
        :: i < NT -> child[i] = NONE; i++
        :: else -> break
        od;
        i = 0;
        do
        :: i < NW -> child[i] = i + NW; rs[i] = SCHED; q[i] = true; nq++; i++
        :: else -> break
        od;
#ifdef NEST
        child[NW] = 2 * NW;      /* T2 spawns T4 and waits for it */
#endif
        i = 0;
        do
        :: i < NW -> run Worker(i); i++
        :: else -> break
        od;
#ifdef CLOSE
        run Closer();
#ifdef PROMISE
        run Outsider();
#endif
#endif
        run Inv()
    }
}
