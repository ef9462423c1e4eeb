/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.spindle.queue.LifoSlot;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The LIFO slot of an async worker ({@link LifoSlot}): the owner fills an empty slot with a
 * release store and no atomic instruction, replaces a full one with an exchange and empties it
 * with an exchange, while a searching peer steals with a CAS. Every element put in must come
 * out exactly once, through the owner's put or take or a thief's steal, and a thief must see
 * the element it steals fully built. Elements are counted by who received them; outcomes not
 * listed fail the test like the FORBIDDEN ones.
 */
public final class LifoSlotTests {

    private LifoSlotTests() {
    }

    /** An element with a plain field, to check publication. */
    static final class Element {
        int id;

        Element(int id) {
            this.id = id;
        }
    }

    /** 1 if {@code e} is {@code expected}, 0 if null, 9 if some other element. */
    static int is(Element e, Element expected) {
        return e == null ? 0 : e == expected ? 1 : 9;
    }

    @JCStressTest
    @Description("An empty slot: the owner puts B (release store, no exchange) while a thief steals. The thief gets B built or nothing; B comes out exactly once (thief, or the owner's take afterwards).")
    @Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "the thief found the slot empty; the owner took B back")
    @Outcome(id = "1, 0, 1", expect = ACCEPTABLE_INTERESTING, desc = "the thief stole B, built; the owner's take found nothing")
    @Outcome(id = "-1, 0, 1", expect = FORBIDDEN, desc = "UNPUBLISHED: the thief saw B before its field")
    @Outcome(id = "1, 1, 1", expect = FORBIDDEN, desc = "B HANDED OUT TWICE")
    @Outcome(id = "0, 0, 1", expect = FORBIDDEN, desc = "B LOST")
    @State
    public static class PutIntoEmptyVsSteal {
        final LifoSlot<Element> slot = new LifoSlot<>();

        @Actor
        public void owner(III_Result r) {
            Element e = new Element(42);
            if (slot.put(e) != null) {
                r.r3 = -9;                     // an empty slot has nothing to hand back
            } else {
                r.r3 = 1;
            }
            r.r2 = is(slot.take(), e);
        }

        @Actor
        public void thief(III_Result r) {
            Element s = slot.steal();
            r.r1 = s == null ? 0 : s.id == 42 ? 1 : -1;
        }
    }

    @JCStressTest
    @Description("A slot holding A: the owner puts B (an exchange, since a thief may be emptying the slot) while a thief steals. A comes out exactly once (handed back to the owner or stolen), B stays for the arbiter's take unless stolen.")
    @Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "the owner got A back; B stayed in the slot")
    @Outcome(id = "0, 1, 1", expect = ACCEPTABLE_INTERESTING, desc = "the thief stole A first; B stayed in the slot")
    @Outcome(id = "1, 2, 0", expect = ACCEPTABLE_INTERESTING, desc = "the owner got A back; the thief stole B")
    @Outcome(id = "1, 1, 1", expect = FORBIDDEN, desc = "A HANDED OUT TWICE")
    @Outcome(id = "0, 0, 1", expect = FORBIDDEN, desc = "A LOST")
    @State
    public static class ReplaceFullVsSteal {
        final LifoSlot<Element> slot = new LifoSlot<>();
        final Element a = new Element(1);
        final Element b = new Element(2);

        public ReplaceFullVsSteal() {
            slot.put(a);
        }

        @Actor
        public void owner(III_Result r) {
            r.r1 = is(slot.put(b), a);
        }

        @Actor
        public void thief(III_Result r) {
            Element s = slot.steal();
            r.r2 = s == null ? 0 : s == a ? 1 : s == b ? 2 : 9;
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r3 = is(slot.take(), b);
        }
    }

    @JCStressTest
    @Description("A slot holding A: the owner takes (an exchange) while a thief steals (a CAS). Exactly one of them gets A.")
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the owner took A")
    @Outcome(id = "0, 1", expect = ACCEPTABLE_INTERESTING, desc = "the thief stole A")
    @Outcome(id = "1, 1", expect = FORBIDDEN, desc = "A HANDED OUT TWICE")
    @Outcome(id = "0, 0", expect = FORBIDDEN, desc = "A LOST")
    @State
    public static class TakeVsSteal {
        final LifoSlot<Element> slot = new LifoSlot<>();
        final Element a = new Element(1);

        public TakeVsSteal() {
            slot.put(a);
        }

        @Actor
        public void owner(II_Result r) {
            r.r1 = is(slot.take(), a);
        }

        @Actor
        public void thief(II_Result r) {
            r.r2 = is(slot.steal(), a);
        }
    }
}
