/*
 * Spindle: WorkStealingDeque (spindle-core, dev.spindle.queue) as a Promela model.
 *
 * One owner pushes and pops, thief 1 steals with steal(), thief 2 with stealBatchOrNull()
 * into its own deque. Each access the Java code makes to shared state (a read or write of top,
 * bottom, ring or a slot, and each CAS on top) is its own Promela step; purely local work and
 * accesses to fields only the owner ever writes (its own reads of bottom, ring, clearedBelow
 * and of the slots) are folded into the neighbouring step, which does not change what other
 * processes can observe.
 *
 * MEMORY MODEL ASSUMPTION. Promela interleaves whole steps, i.e. it checks the algorithm under
 * sequential consistency. The Java code gets the orderings this relies on from its fences:
 * pop stores bottom, VarHandle.fullFence(), then loads top (or, when a first load of top shows
 * exactly one element, takes it by CAS on top as a thief does); steal loads top, fullFence(), then
 * loads bottom; CASes are volatile. Modelling those fences as SC is the assumption. What SC
 * cannot show is whether the acquire/release/opaque modes elsewhere are strong enough to
 * publish an element's contents; the jcstress tests (PushVsSteal, GrowVsSteal) exercise that
 * on real hardware instead.
 *
 * Bounds: NTASK tasks (ids 1..NTASK), an initial ring of 2 slots growing once to 4 (the
 * maximum), so the growth path, ring wrap-around and the owner's lazy clearing of stolen slots
 * are all reachable. With NTASK = 4 and a maximum of 4, offer() never finds the deque full, so
 * its "return false" path is not explored here (it changes nothing shared).
 *
 * THE OWNER'S VIEW OF TOP (topSeen, `seen` here). offer() does not read top on every push: it
 * trusts its view (the top its last fresh read or its own pops left: never ahead of top, which
 * only grows), and reads top afresh (offerWithFreshTop) only when the view says full, says
 * empty, or bottom is a multiple of CLEAR_LAG; only then does it grow or clear. Clearing
 * (TakenSlots.clear) stays CLEAR_LAG slots below top while the deque holds elements, and clears
 * up to top when it is empty. The Java lag is 64; with rings of 2 and 4 slots it would leave
 * only the "empty" clearing, so the model scales it down to LAG (2 by default, a power of two
 * as in Java), which reaches the fresh read at a multiple of the lag, the lagged clearing and
 * the clearing of an emptied deque; check.sh also runs -DLAG=4, where a view that says full is
 * what forces the fresh read before the ring grows (with 2 the read at bottom 2 comes first). The pops write the view as the Java does (the first look's
 * one-element CAS and the general path's last-element race: the top the CAS leaves, won or
 * lost; an empty deque: the top read). takeOldest (the owner moving its oldest elements to the
 * injector on overflow) is not modelled: it is the one-element steal's CAS run by the owner,
 * and it only moves the view forward to what its CAS left.
 *
 * A YOUNG RING (-DRENEW). The owner also renews its ring ("a young ring" in the class
 * overview): at a fresh read of top that finds room, instead of clearing the stolen slots, it may
 * copy [top, bottom) into a new ring of the same size and publish it as a grow does. The model
 * lets it renew each ring at most once, at whichever fresh read it chooses (spin explores every
 * choice): ring 2 is the young copy of ring 0 (CAP0 slots), ring 3 that of ring 1 (CAP1), and a
 * grow may start from ring 0 or ring 2. Thieves holding the old ring read there the element
 * they would read in the new one, since the old ring is never written again.
 *
 * Safety checked: every task taken by anyone is the one pushed at the index the taker won
 * (ghost array at[]), no task is taken twice, and once the thieves have stopped and the owner
 * has popped until empty, every pushed task has been taken exactly once.
 *
 * Mutants (each must make spin report an error; see check.sh --mutants):
 *   -DMUTANT_POP_NO_CAS      the owner takes the last element with a plain store to top
 *   -DMUTANT_THIEF_CLEARS    a thief nulls its slot after winning (the Javadoc says why not)
 *   -DMUTANT_CLEAR_TOO_FAR   the owner's lazy clearing also nulls the slot of index top
 *   -DMUTANT_BATCH_NO_RECHECK a batch thief does not re-read bottom before each extra CAS
 *   -DMUTANT_RENEW_SKIPS_OLDEST (with -DRENEW) a renewal copies [top + 1, bottom): the element
 *                            at top is lost unless a thief holding the old ring takes it
 *   -DMUTANT_TRUST_FULL_VIEW offer() reads top afresh only when its view says empty or at a
 *                            multiple of the lag, not when the view says full: a push into a
 *                            ring that only looks full overwrites an element not yet taken
 */

#ifndef NTASK
#define NTASK 4
#endif
#define CAP0   2            /* initial ring length */
#define CAP1   4            /* grown ring length (= maximum capacity) */
#define LIMIT  32           /* stealBatch limit (Worker.STEAL_BATCH_LIMIT) */
#ifndef LAG
#define LAG    2            /* WorkStealingDeque.CLEAR_LAG, scaled to these rings (see above) */
#endif

int  top = 0;
int  bottom = 0;
byte ring = 0;              /* the current ring: 0 (CAP0 slots) or 1 (CAP1 slots) */
byte r0[CAP0];              /* slots; 0 is null, otherwise a task id */
byte r1[CAP1];
#ifdef RENEW
byte r2[CAP0];              /* ring 2: the young copy of ring 0 */
byte r3[CAP1];              /* ring 3: the young copy of ring 1 */
bool renewed0 = false;      /* each ring is renewed at most once (a bound on the states) */
bool renewed1 = false;
#endif

byte at[NTASK];             /* ghost: the id pushed at each logical index */
byte taken[NTASK + 1];      /* ghost: times each id was taken */
byte pushed = 0;            /* ghost: ids 1..pushed have been pushed */
byte thievesDone = 0;

/* the slot of logical index i in ring rg */
inline readSlot(rg, i, x) {
    if
    :: rg == 0 -> x = r0[(i) % CAP0]
#ifdef RENEW
    :: rg == 2 -> x = r2[(i) % CAP0]
    :: rg == 3 -> x = r3[(i) % CAP1]
#endif
    :: rg == 1 -> x = r1[(i) % CAP1]
    fi
}

inline writeSlot(rg, i, x) {
    if
    :: rg == 0 -> r0[(i) % CAP0] = x
#ifdef RENEW
    :: rg == 2 -> r2[(i) % CAP0] = x
    :: rg == 3 -> r3[(i) % CAP1] = x
#endif
    :: rg == 1 -> r1[(i) % CAP1] = x
    fi
}

/* a taker got x for logical index i */
inline took(x, i) {
    d_step {
        assert(x != 0);
        assert(at[i] == x);           /* the element pushed at the index it won */
        assert(taken[x] == 0);        /* nobody took it before */
        taken[x]++
    }
}

/* ------------------------------------------------------------------ owner */

active proctype Owner() {
    int b, t, i, from, upTo, cleared = 0;
    int seen = 0;           /* topSeen: the owner's view of top */
    byte a, x, cap, nid = 1;
    bool won;

    do
    :: nid <= NTASK ->                          /* offer(nid) */
        b = bottom;                               /* own field */
        t = seen;                                 /* topSeen: owner-only, no read of top */
        a = ring;
        cap = (a == 0 || a == 2 -> CAP0 : CAP1);
        if
#ifdef MUTANT_TRUST_FULL_VIEW
        :: t == b || (b % LAG) == 0 ->
#else
        :: b - t >= cap || t == b || (b % LAG) == 0 ->
#endif
        /* offerWithFreshTop */
        t = top;                                  /* TOP.getAcquire */
        seen = t;                                 /* topSeen = t */
        if
        :: b - t >= cap ->
            assert(cap < CAP1);                   /* NTASK <= maximum: never full */
            d_step {                              /* grow: copy [t, b) into the new ring, */
                i = t;                            /* then RING.setRelease; the new ring is */
                do                                /* invisible until that store */
                :: i < b -> readSlot(a, i, x); r1[i % CAP1] = x; i++
                :: else -> break
                od;
                x = 0;
                ring = 1
            };
            a = 1;
            cleared = t
#ifdef RENEW
        :: b - t < cap && ((a == 0 && !renewed0) || (a == 1 && !renewed1)) ->
            d_step {                              /* renew: copy [t, b) into a young ring of */
#ifdef MUTANT_RENEW_SKIPS_OLDEST
                i = t + 1;                        /* the oldest element is not copied */
#else
                i = t;                            /* the same size, then RING.setRelease, as */
#endif
                do                                /* a grow does */
                :: i < b ->
                    if
                    :: a == 0 -> r2[i % CAP0] = r0[i % CAP0]
                    :: else -> r3[i % CAP1] = r1[i % CAP1]
                    fi;
                    i++
                :: else -> break
                od;
                if
                :: a == 0 -> renewed0 = true; ring = 2
                :: else -> renewed1 = true; ring = 3
                fi
            };
            a = ring;
            cleared = t                           /* clearedBelow = t: the new ring holds nothing below */
#endif
        :: b - t < cap ->                         /* clearStolen(a, t, b): TakenSlots.clear */
            upTo = (t == b -> t : t - LAG);       /* the lag while it holds elements */
            from = (cleared > b - cap -> cleared : b - cap);
#ifdef MUTANT_CLEAR_TOO_FAR
            do                                    /* also the slot of top, lag or not */
            :: from <= t && from < b -> writeSlot(a, from, 0); from++
            :: else -> break
            od;
#else
            do
            :: from < upTo -> writeSlot(a, from, 0); from++   /* one slot store per step */
            :: else -> break
            od;
#endif
            if
            :: cleared < upTo -> cleared = upTo
            :: else
            fi
        fi
        :: else                                   /* the view says room, not empty: no read */
        fi;
        d_step { writeSlot(a, b, nid); at[b] = nid; pushed = nid };  /* a plain store */
        bottom = b + 1;                           /* BOTTOM.setRelease */
        d_step { nid++; b = 0; t = 0; a = 0; cap = 0; from = 0; upTo = 0; i = 0 }  /* locals only */

    :: true ->                                    /* pop() */
        d_step { b = bottom - 1; a = ring };
        t = top;                                  /* TOP.getAcquire: a first look */
        if
        :: t == b ->                              /* looks like one element: take it as a */
            readSlot(a, b, x);                    /* thief would, bottom untouched */
            seen = b + 1;                         /* topSeen = b + 1: what the CAS leaves */
            d_step { won = (top == t); if :: won -> top = t + 1 :: else fi };  /* CAS */
            if
            :: won -> took(x, b); writeSlot(a, b, 0)
            :: else                               /* a thief took it: empty */
            fi;
            goto popped
        :: t > b -> seen = t; goto popped         /* empty: top never decreases; topSeen = seen */
        :: t < b                                  /* more than one: the general path */
        fi;
        bottom = b;                               /* BOTTOM.setRelease; then fullFence (SC) */
        d_step {                                  /* TOP.getOpaque; the owner's read of */
            t = top;                              /* its own slot folded in */
            if
            :: t <= b -> readSlot(a, b, x)
            :: else
            fi
        };
        if
        :: t > b ->
            seen = t;                             /* topSeen = t */
            bottom = b + 1                        /* was empty: restore */
        :: t == b ->                              /* last element: race the thieves */
            seen = t + 1;                         /* topSeen = t + 1, won or lost */
#ifdef MUTANT_POP_NO_CAS
            won = true;                           /* no CAS: just move top on */
            top = t + 1;
#else
            d_step { won = (top == t); if :: won -> top = t + 1 :: else fi };  /* CAS */
#endif
            bottom = b + 1;
            if
            :: won -> took(x, b); writeSlot(a, b, 0)
            :: else
            fi
        :: t < b ->
            took(x, b);
            writeSlot(a, b, 0)                    /* a plain null store */
        fi;
popped: skip;
        d_step { b = 0; t = 0; a = 0; x = 0; won = false }   /* locals only */

    :: true -> break
    od;

    /* the race is over: wait for the thieves, pop until empty, check every task */
    thievesDone == 2;
    do
    :: bottom > top ->
        b = bottom - 1; bottom = b; t = top;
        assert(t <= b);
        readSlot(ring, b, x);
        if
        :: t == b -> assert(top == t); top = t + 1; bottom = b + 1
        :: else
        fi;
        took(x, b);
        writeSlot(ring, b, 0)
    :: else -> break
    od;
    i = 1;
    do
    :: i <= pushed -> assert(taken[i] == 1); i++
    :: else -> break
    od
}

/* ------------------------------------------------------------------ thieves */

/* steal(): one attempt. Every operation ends by zeroing its locals, so that stale values do
   not multiply the states. */
inline steal(t, b, a, x) {
    x = 0;
    t = top;                                      /* TOP.getAcquire; then fullFence (SC) */
    b = bottom;                                   /* BOTTOM.getAcquire */
    if
    :: t >= b -> skip                             /* empty */
    :: else ->
        a = ring;                                 /* RING.getAcquire */
        readSlot(a, t, x);                        /* SLOT.getAcquire */
        if
        :: x == 0 -> skip                         /* retry: slot already cleared */
        :: else ->
            d_step {                              /* CAS top t -> t + 1 */
                if
                :: top == t -> top = t + 1
                :: else -> x = 0                  /* retry: lost the race */
                fi
            };
            if
            :: x != 0 ->
                took(x, t);
#ifdef MUTANT_THIEF_CLEARS
                writeSlot(a, t, 0)
#else
                skip
#endif
            :: else
            fi
        fi
    fi;
    d_step { t = 0; b = 0; a = 0; x = 0 }
}

active proctype Thief1() {
    int t, b;
    byte a, x;
    do
    :: steal(t, b, a, x)
    :: break
    od;
    thievesDone++
}

active proctype Thief2() {
    int t, b, i, size, want, k;
    byte a, x;
    do
    :: steal(t, b, a, x)
    :: /* stealBatchOrNull(own deque, LIMIT); the thief's own deque is private here, so
          moving an element into it is just taking it */
        t = top;                                  /* TOP.getAcquire; fullFence (SC) */
        b = bottom;                               /* BOTTOM.getAcquire */
        size = b - t;
        if
        :: size <= 0 -> skip
        :: else ->
            want = (size + 1) / 2;
            want = (want > LIMIT -> LIMIT : want);
            a = ring;
            readSlot(a, t, x);
            if
            :: x == 0 -> skip
            :: else ->
                d_step {
                    if
                    :: top == t -> top = t + 1
                    :: else -> x = 0
                    fi
                };
                if
                :: x != 0 ->
                    took(x, t);
                    k = 1;
                    do
                    :: k < want ->
                        i = t + k;
#ifdef MUTANT_BATCH_NO_RECHECK
                        skip;                     /* trusts the bottom it read first */
#else
                        b = bottom;               /* fullFence (SC); BOTTOM.getAcquire */
#endif
                        if
                        :: b <= i -> break        /* the owner popped the rest */
                        :: else
                        fi;
                        a = ring;
                        readSlot(a, i, x);
                        if
                        :: x == 0 -> break
                        :: else
                        fi;
                        d_step {
                            if
                            :: top == i -> top = i + 1
                            :: else -> x = 0
                            fi
                        };
                        if
                        :: x == 0 -> break
                        :: else -> took(x, i); k++
                        fi
                    :: else -> break
                    od
                :: else
                fi
            fi
        fi;
        atomic { t = 0; b = 0; a = 0; x = 0; i = 0; k = 0; size = 0; want = 0 }
    :: break
    od;
    thievesDone++
}
