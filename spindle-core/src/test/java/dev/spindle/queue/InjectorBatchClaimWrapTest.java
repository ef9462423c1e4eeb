/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A batch offer claims its slots with one fetch-and-add on the tail segment's {@code enq}. It
 * claimed the whole rest of the batch at once, however much more than a segment that was: a
 * segment already full took every producer's whole batch onto its counter, and an int counter
 * that large batches (or many producers on a full segment) pushed near its limit wrapped
 * negative; the producer then indexed the slot array below zero and the offer threw, part of the
 * batch in and part not. A claim now takes at most a segment's worth of slots, so a segment's
 * counter stays within a segment per producer of the slots it has.
 */
class InjectorBatchClaimWrapTest {

    @AfterEach
    void clearSeam() {
        Injector.beforeNewSegment = null;
    }

    private static Object[] batch(int from, int n) {
        Object[] b = new Object[n];
        for (int i = 0; i < n; i++) {
            b[i] = from + i;
        }
        return b;
    }

    private static List<Object> drain(Injector<Object> q) {
        List<Object> out = new ArrayList<>();
        q.drain(out::add);
        return out;
    }

    /** Before: the full segment's counter took the whole batch, ten segments' worth. */
    @Test
    void aBatchPastAFullSegmentClaimsAtMostASegmentThere() {
        Injector<Object> q = new Injector<>();
        int first = Injector.SEGMENT_SIZE - 5;
        q.offerAll(batch(0, first), first);
        Injector.Segment full = q.tail;
        List<Integer> claimedWhenGrown = new ArrayList<>();
        Injector.beforeNewSegment = () -> claimedWhenGrown.add(full.enq);
        int n = 10 * Injector.SEGMENT_SIZE;
        q.offerAll(batch(first, n), n);
        assertThat(claimedWhenGrown).as("segments made").hasSizeGreaterThanOrEqualTo(10);
        assertThat(claimedWhenGrown.get(0))
                .as("the first segment's claims when its successor was made (a segment is %d slots)",
                        Injector.SEGMENT_SIZE)
                .isLessThanOrEqualTo(2 * Injector.SEGMENT_SIZE + 1);
        assertThat(drain(q)).containsExactly(batch(0, first + n));
    }

    /**
     * A segment whose counter earlier claims left two segments short of the int's limit: a
     * batch of three segments wrapped it (before: {@link ArrayIndexOutOfBoundsException} from the
     * slot array at a negative index, with none of the batch in).
     */
    @Test
    void aBatchOntoACounterNearItsLimitDoesNotWrapIt() {
        Injector<Object> q = new Injector<>();
        q.offer(-1);
        q.tail.enq = Integer.MAX_VALUE - 2 * Injector.SEGMENT_SIZE;  // what earlier claims left
        int n = 3 * Injector.SEGMENT_SIZE;
        Object[] b = batch(0, n);
        q.offerAll(b, n);
        assertThat(q.tryOfferAll(b, n)).isEqualTo(n);
        List<Object> expected = new ArrayList<>();
        expected.add(-1);
        expected.addAll(List.of(b));
        expected.addAll(List.of(b));
        assertThat(drain(q)).containsExactlyElementsOf(expected);
    }
}
