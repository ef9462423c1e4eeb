/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link ForkStack}: single-threaded behaviour against a model, bad arguments, and an
 * exactly-once stress test with readers that claim elements while the owner pushes and pops.
 */
class ForkStackTest {

    /** An element that claims itself with one CAS, as a fork task's start does. */
    static final class Claimable {
        final int id;
        final AtomicInteger claim = new AtomicInteger();

        Claimable(int id) {
            this.id = id;
        }

        boolean isNew() {
            return claim.get() == 0;
        }

        boolean tryClaim() {
            return claim.get() == 0 && claim.compareAndSet(0, 1);
        }

        @Override
        public String toString() {
            return "#" + id;
        }
    }

    @Test
    void holdsWhatWasPushedAndNotYetPoppedOrHandedBack() {
        ForkStack<Claimable> s = new ForkStack<>(2, Claimable::isNew);
        Claimable a = new Claimable(1);
        Claimable b = new Claimable(2);
        Claimable c = new Claimable(3);
        assertThat(s.holds(a)).isFalse();
        s.push(a);
        s.push(b);
        assertThat(s.holds(a)).isTrue();
        assertThat(s.holds(b)).isTrue();
        assertThat(s.push(c)).isSameAs(a);     // full: the oldest is handed back
        assertThat(s.holds(a)).isFalse();
        assertThat(s.pop()).isSameAs(c);
        assertThat(s.holds(c)).isFalse();
        assertThat(s.holds(b)).isTrue();
        assertThat(s.holds(new Claimable(2))).as("identity, not equality").isFalse();
    }

    @Test
    void newestFirstForTheOwnerOldestFirstForReaders() {
        ForkStack<Claimable> s = new ForkStack<>(4, Claimable::isNew);
        Claimable a = new Claimable(1);
        Claimable b = new Claimable(2);
        Claimable c = new Claimable(3);
        assertThat(s.push(a)).isNull();
        assertThat(s.push(b)).isNull();
        assertThat(s.push(c)).isNull();
        assertThat(s.peekOldest()).isSameAs(a);
        assertThat(s.unclaimedCount()).isEqualTo(3);
        assertThat(a.tryClaim()).isTrue();     // a reader ran it
        assertThat(s.peekOldest()).isSameAs(b);
        assertThat(s.unclaimedCount()).isEqualTo(2);
        assertThat(s.peekNewest()).isSameAs(c);
        assertThat(s.pop()).isSameAs(c);
        assertThat(s.pop()).isSameAs(b);
        assertThat(s.pop()).isSameAs(a);       // returned although claimed: the caller's claim decides
        assertThat(s.pop()).isNull();
        assertThat(s.isEmptyForOwner()).isTrue();
        assertThat(s.peekOldest()).isNull();
    }

    @Test
    void aFullStackHandsBackItsOldest() {
        ForkStack<Claimable> s = new ForkStack<>(2, Claimable::isNew);
        Claimable[] e = {new Claimable(0), new Claimable(1), new Claimable(2), new Claimable(3)};
        assertThat(s.push(e[0])).isNull();
        assertThat(s.push(e[1])).isNull();
        assertThat(s.push(e[2])).isSameAs(e[0]);
        assertThat(s.push(e[3])).isSameAs(e[1]);
        assertThat(s.peekOldest()).isSameAs(e[2]);
        assertThat(s.removeOldest()).isSameAs(e[2]);
        assertThat(s.removeOldest()).isSameAs(e[3]);
        assertThat(s.removeOldest()).isNull();
    }

    @Test
    void popsClearTheirCellsSoReadersDoNotSeeThem() {
        ForkStack<Claimable> s = new ForkStack<>(2, c -> true);
        s.push(new Claimable(0));
        s.pop();
        assertThat(s.peekOldest()).isNull();
        assertThat(s.unclaimedCount()).isZero();
    }

    /**
     * "A young array": every {@link ForkStack#RENEW_INTERVAL}th push moves the stack into a new
     * array of the same size (so that G1's write barrier finds it young), its elements and their
     * order kept.
     */
    @Test
    void renewsItsArrayEveryRenewIntervalPushesKeepingItsElements() {
        ForkStack<Claimable> s = new ForkStack<>(8, Claimable::isNew);
        Claimable a = new Claimable(0);
        Claimable b = new Claimable(1);
        s.push(a);
        s.push(b);
        Object[] first = s.cells;
        for (int i = 3; i < ForkStack.RENEW_INTERVAL; i++) {
            s.push(new Claimable(i));
            assertThat(s.pop().id).isEqualTo(i);
        }
        assertThat(s.cells).as("before the interval's last push").isSameAs(first);
        Claimable c = new Claimable(-1);
        assertThat(s.push(c)).isNull();
        assertThat(s.cells).as("renewed by the interval's last push").isNotSameAs(first).hasSameSizeAs(first);
        assertThat(s.unclaimedCount()).isEqualTo(3);
        assertThat(s.peekOldest()).isSameAs(a);
        assertThat(s.pop()).isSameAs(c);
        assertThat(s.pop()).isSameAs(b);
        assertThat(s.pop()).isSameAs(a);
        assertThat(s.pop()).isNull();
    }

    @Test
    void badArgumentsAreNamed() {
        assertThatThrownBy(() -> new ForkStack<Claimable>(3, Claimable::isNew))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("power of two");
        assertThatThrownBy(() -> new ForkStack<Claimable>(0, Claimable::isNew))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("was 0");
        assertThatThrownBy(() -> new ForkStack<Claimable>(2048, Claimable::isNew))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ForkStack<Claimable>(8, Claimable::isNew, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("renewInterval");
        assertThatThrownBy(() -> new ForkStack<Claimable>(8, null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("unclaimed");
    }

    // ------------------------------------------------------------------ model

    @Provide
    Arbitrary<List<Integer>> ops() {
        // 0 push, 1 pop, 2 removeOldest, 3 claim the oldest unclaimed (a reader)
        return Arbitraries.integers().between(0, 3).list().ofMaxSize(200);
    }

    /**
     * Random single-threaded sequences against an {@link ArrayDeque} model whose last element is
     * the newest: pushes, pops, removals of the oldest, claims by a reader. Whatever leaves the
     * stack (popped, handed back, removed) is accounted for exactly once.
     */
    @Property(tries = 300)
    void matchesTheModel(@ForAll @IntRange(min = 0, max = 4) int log, @ForAll @IntRange(min = 1, max = 4) int renew,
            @ForAll("ops") List<Integer> ops) {
        int cap = 1 << log;
        ForkStack<Claimable> s = new ForkStack<>(cap, Claimable::isNew, renew == 4 ? ForkStack.RENEW_INTERVAL : renew);
        ArrayDeque<Claimable> model = new ArrayDeque<>();
        List<Claimable> out = new ArrayList<>();
        int next = 0;
        for (int op : ops) {
            switch (op) {
                case 0 -> {
                    Claimable e = new Claimable(next++);
                    Claimable displaced = s.push(e);
                    Claimable expected = model.size() == cap ? model.pollFirst() : null;
                    model.addLast(e);
                    assertThat(displaced).isSameAs(expected);
                    if (displaced != null) {
                        out.add(displaced);
                    }
                }
                case 1 -> {
                    Claimable e = s.pop();
                    assertThat(e).isSameAs(model.pollLast());
                    if (e != null) {
                        out.add(e);
                    }
                }
                case 2 -> {
                    Claimable e = s.removeOldest();
                    assertThat(e).isSameAs(model.pollFirst());
                    if (e != null) {
                        out.add(e);
                    }
                }
                default -> {
                    Claimable e = s.peekOldest();
                    Claimable expected = model.stream().filter(Claimable::isNew).findFirst().orElse(null);
                    assertThat(e).isSameAs(expected);
                    if (e != null) {
                        assertThat(e.tryClaim()).isTrue();
                    }
                }
            }
            assertThat(s.isEmptyForOwner()).isEqualTo(model.isEmpty());
            assertThat(s.peekNewest()).isSameAs(model.peekLast());
            assertThat(s.unclaimedCount()).isEqualTo((int) model.stream().filter(Claimable::isNew).count());
        }
        for (Claimable e; (e = s.pop()) != null; ) {
            out.add(e);
        }
        assertThat(out).hasSize(next).doesNotHaveDuplicates();
    }

    // ------------------------------------------------------------------ concurrent

    /**
     * One owner pushes and pops (and, as the pool does, moves handed-back and removed elements
     * to its own "deque", here a list it later drains), while readers peek the oldest element
     * and claim it. Every element must be claimed exactly once: by a reader, or by the owner
     * when it pops, is handed back, or drains. An element that nobody claimed, or one claimed
     * twice, fails the test. No timing assertions: the deadline only turns a hang into a failure.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void everyElementIsClaimedExactlyOnceUnderReaders() throws Exception {
        int perRound = 200_000;
        for (int readers : new int[] {1, 2, 3}) {
            for (int cap : new int[] {1, 2, 8}) {
                Claimable[] all = new Claimable[perRound];
                ForkStack<Claimable> s = new ForkStack<>(cap, Claimable::isNew);
                AtomicInteger readerClaims = new AtomicInteger();
                AtomicInteger ownerClaims = new AtomicInteger();
                StressThreads ctl = new StressThreads(60, TimeUnit.SECONDS);
                java.util.concurrent.atomic.AtomicBoolean ownerDone = new java.util.concurrent.atomic.AtomicBoolean();
                for (int r = 0; r < readers; r++) {
                    ctl.start("reader-" + r, c -> {
                        int mine = 0;
                        while (!ownerDone.get() && !c.expired()) {
                            Claimable e = s.peekOldest();
                            if (e != null && e.tryClaim()) {
                                mine++;
                            } else {
                                Thread.onSpinWait();
                            }
                        }
                        readerClaims.addAndGet(mine);
                    });
                }
                Thread owner = ctl.start("owner", c -> {
                    SplittableRandom rnd = new SplittableRandom(cap * 31L + readers);
                    List<Claimable> spill = new ArrayList<>();
                    int claimed = 0;
                    int pushed = 0;
                    while (pushed < perRound && !c.expired()) {
                        int burst = 1 + rnd.nextInt(cap * 2 + 1);
                        for (int k = 0; k < burst && pushed < perRound; k++) {
                            Claimable e = all[pushed] = new Claimable(pushed);
                            pushed++;
                            Claimable d = s.push(e);
                            if (d != null && d.isNew()) {
                                spill.add(d);
                            }
                        }
                        int pops = rnd.nextInt(burst + 1);
                        for (int k = 0; k < pops; k++) {
                            Claimable e = s.pop();
                            if (e != null && e.tryClaim()) {
                                claimed++;
                            }
                        }
                        if (rnd.nextInt(16) == 0) {
                            for (Claimable e; (e = s.removeOldest()) != null; ) {
                                if (e.isNew()) {
                                    spill.add(e);
                                }
                            }
                        }
                    }
                    for (Claimable e; (e = s.pop()) != null; ) {
                        if (e.tryClaim()) {
                            claimed++;
                        }
                    }
                    for (Claimable e : spill) {
                        if (e.tryClaim()) {
                            claimed++;
                        }
                    }
                    ownerClaims.set(claimed);
                    ownerDone.set(true);
                });
                ctl.joinAll();
                for (Claimable e : all) {
                    assertThat(e).as("every element was pushed").isNotNull();
                    assertThat(e.claim.get()).as("element %s claimed once", e).isEqualTo(1);
                }
                assertThat(readerClaims.get() + ownerClaims.get())
                        .as("claims with %d readers, capacity %d", readers, cap).isEqualTo(perRound);
                assertThat(owner.isAlive()).isFalse();
            }
        }
    }
}
