/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.queue;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A renewal of the deque's ring or the fork stack's array ("a young ring", "a young array") is
 * only an optimisation: where the new array cannot be allocated (an {@link OutOfMemoryError}),
 * the push that renews goes on with the old one, losing nothing and throwing nothing, and the
 * next renewal tries again. The allocation is made to fail through the renewal's seam.
 */
class RenewalOutOfMemoryKeepsTheOldArrayTest {

    @AfterEach
    void clearSeams() {
        WorkStealingDeque.beforeRenew = null;
        ForkStack.beforeRenew = null;
    }

    private static Runnable failing(int[] tries) {
        return () -> {
            tries[0]++;
            throw new OutOfMemoryError("test: no room for a renewed array");
        };
    }

    @Test
    void aDequePushWhoseRenewalCannotAllocateKeepsTheRingAndItsElements() {
        WorkStealingDeque<Integer> d = new WorkStealingDeque<>(8, 64, 1);   // renews at every fresh read
        for (int i = 1; i <= 3; i++) {
            d.push(i);
        }
        assertThat(d.steal().valueOrNull()).isEqualTo(1);                 // a stolen slot to clear
        assertThat(d.pop()).isEqualTo(3);
        assertThat(d.pop()).isEqualTo(2);                                  // empty: the next push reads top
        Object[] ring = d.ring;
        int[] tries = {0};
        WorkStealingDeque.beforeRenew = failing(tries);
        d.push(4);
        d.push(5);
        assertThat(tries[0]).as("renewals tried").isPositive();
        assertThat(d.ring).as("the old ring, kept").isSameAs(ring);
        assertThat(ring).as("the stolen slots, cleared as a push clears them").containsOnlyOnce(4, 5)
                .containsOnly(4, 5, null);
        assertThat(d.size()).isEqualTo(2);

        WorkStealingDeque.beforeRenew = null;
        assertThat(d.pop()).isEqualTo(5);
        assertThat(d.pop()).isEqualTo(4);
        d.push(6);                                                         // empty again: renews now
        assertThat(d.ring).as("renewed once the heap has room").isNotSameAs(ring);
        assertThat(d.steal().valueOrNull()).isEqualTo(6);
        assertThat(d.pop()).isNull();
    }

    @Test
    void aForkStackPushWhoseRenewalCannotAllocateKeepsTheArrayAndItsElements() {
        ForkStack<String> s = new ForkStack<>(4, x -> true, 1);            // renews at every push
        s.push("a");
        Object[] cells = s.cells;
        int[] tries = {0};
        ForkStack.beforeRenew = failing(tries);
        s.push("b");
        s.push("c");
        assertThat(tries[0]).as("renewals tried").isEqualTo(2);
        assertThat(s.cells).as("the old array, kept").isSameAs(cells);
        assertThat(s.pop()).isEqualTo("c");
        assertThat(s.pop()).isEqualTo("b");

        ForkStack.beforeRenew = null;
        s.push("d");
        assertThat(s.cells).as("renewed once the heap has room").isNotSameAs(cells);
        assertThat(s.pop()).isEqualTo("d");
        assertThat(s.pop()).isEqualTo("a");
        assertThat(s.pop()).isNull();
    }
}
