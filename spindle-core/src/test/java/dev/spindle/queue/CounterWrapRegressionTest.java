/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Index counters after a long run. {@link ForkStack} counts with {@code int}s, which a worker
 * that keeps spilling forks into its deque wraps within hours (2^32 pushes that displace an
 * element: about 43 seconds at 100 million a second); its arithmetic must hold across the wrap.
 */
class CounterWrapRegressionTest {

    /** An element that claims itself once, as a fork task's start CAS does. */
    static final class Claimable {
        final int id;
        final AtomicInteger state = new AtomicInteger();

        Claimable(int id) {
            this.id = id;
        }

        boolean isNew() {
            return state.get() == 0;
        }
    }

    private static void setCounters(ForkStack<?> s, int value) throws ReflectiveOperationException {
        for (String name : new String[] {"top", "base"}) {
            Field f = ForkStack.class.getDeclaredField(name);
            f.setAccessible(true);
            f.setInt(s, value);
        }
    }

    @Test
    void forkStackKeepsLifoOrderAndItsBoundAcrossTheIntWrap() throws Exception {
        ForkStack<Claimable> s = new ForkStack<>(4, Claimable::isNew);
        setCounters(s, Integer.MAX_VALUE - 2);
        List<Claimable> displaced = new ArrayList<>();
        int next = 0;
        // Push through the wrap: each push beyond four hands back the oldest, in push order.
        for (int k = 0; k < 12; k++) {
            Claimable d = s.push(new Claimable(next++));
            if (d != null) {
                displaced.add(d);
            }
        }
        assertThat(displaced).extracting(c -> c.id).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
        assertThat(s.unclaimedCount()).isEqualTo(4);
        assertThat(s.peekOldest().id).isEqualTo(8);
        assertThat(s.holds(displaced.get(0))).isFalse();
        assertThat(s.toString()).contains("held=4");
        s.peekOldest().state.set(1);           // a thief claims the oldest
        assertThat(s.peekOldest().id).isEqualTo(9);
        assertThat(s.unclaimedCount()).isEqualTo(3);
        // Pop back across the wrap: newest first, then empty.
        List<Integer> popped = new ArrayList<>();
        for (Claimable c; (c = s.pop()) != null; ) {
            popped.add(c.id);
        }
        assertThat(popped).containsExactly(11, 10, 9, 8);
        assertThat(s.isEmptyForOwner()).isTrue();
        assertThat(s.peekOldest()).isNull();
        assertThat(s.unclaimedCount()).isZero();
        // And removeOldest across the wrap again.
        setCounters(s, Integer.MAX_VALUE - 1);
        for (int k = 0; k < 4; k++) {
            assertThat(s.push(new Claimable(100 + k))).isNull();
        }
        List<Integer> oldestFirst = new ArrayList<>();
        for (Claimable c; (c = s.removeOldest()) != null; ) {
            oldestFirst.add(c.id);
        }
        assertThat(oldestFirst).containsExactly(100, 101, 102, 103);
        assertThat(s.isEmptyForOwner()).isTrue();
    }
}
