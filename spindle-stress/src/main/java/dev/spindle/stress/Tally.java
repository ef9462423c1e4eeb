/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.stress;

import dev.spindle.queue.StealResult;

/**
 * Bookkeeping shared by the stress tests: what one side of a race took, and the verdict over
 * all sides.
 *
 * <p>Elements are small ids 1..9, either boxed {@link Integer}s or {@link Box}es. What a side
 * took is reported as a <em>sequence</em>: the ids in the order taken, written as decimal digits
 * ({@code 21} means "took 2, then 1"; {@code 0} means "took nothing"). Each test also reports a
 * verdict, computed from per-id counts so that it does not depend on the order:
 *
 * <ul>
 *   <li>{@link #OK} (0): every element that entered the structure was taken exactly once
 *       (counting what is left in it at the end, drained by the arbiter);</li>
 *   <li>{@link #LOST} (1): some element was taken by nobody and is not left either;</li>
 *   <li>{@link #DUPLICATED} (2): some element was taken twice (or taken without ever having
 *       entered);</li>
 *   <li>{@link #UNPUBLISHED} (4): a steal reported success with {@code null}, or returned a
 *       {@link Box} whose id field was not yet visible.</li>
 * </ul>
 *
 * Verdict bits combine, so 3 is "lost and duplicated".
 */
final class Tally {

    static final int OK = 0;
    static final int LOST = 1;
    static final int DUPLICATED = 2;
    static final int UNPUBLISHED = 4;

    /** Codes for the kind of a {@link StealResult}. */
    static final int EMPTY = 0;
    static final int RETRY = 1;
    static final int SUCCESS = 2;

    private static final int MAX_ID = 9;

    /** A fresh element whose id is a plain field, so that reading it tests publication. */
    static final class Box {
        int id;

        Box(int id) {
            this.id = id;
        }
    }

    /** What one side took, in order. Written by one thread; read after the race by the arbiter. */
    static final class Side {
        int seq;
        final int[] counts = new int[MAX_ID + 1];
        int flags;

        /** Records {@code x} if it is not null. */
        void add(Object x) {
            if (x == null) {
                return;
            }
            int id = idOf(x);
            if (id < 1 || id > MAX_ID) {
                flags |= UNPUBLISHED;
                return;
            }
            counts[id]++;
            seq = seq * 10 + id;
        }

        /** Records a steal: its element on success; a success without an element is flagged. */
        int addSteal(StealResult<?> s) {
            if (s.isSuccess()) {
                Object v = s.value();
                if (v == null) {
                    flags |= UNPUBLISHED;
                } else {
                    add(v);
                }
                return SUCCESS;
            }
            return s.isRetry() ? RETRY : EMPTY;
        }
    }

    private Tally() {
    }

    static int idOf(Object x) {
        if (x instanceof Integer i) {
            return i;
        }
        if (x instanceof Box b) {
            return b.id;                       // 0 if the constructor's write is not visible
        }
        return -1;
    }

    /**
     * The verdict over all sides, given the ids that entered the structure as a bit mask
     * (bit {@code id - 1}).
     */
    static int verdict(int entered, Side... sides) {
        int v = OK;
        for (int id = 1; id <= MAX_ID; id++) {
            int n = 0;
            for (Side s : sides) {
                n += s.counts[id];
            }
            boolean in = (entered & (1 << (id - 1))) != 0;
            if (n > 1 || (n == 1 && !in)) {
                v |= DUPLICATED;
            } else if (n == 0 && in) {
                v |= LOST;
            }
        }
        for (Side s : sides) {
            v |= s.flags;
        }
        return v;
    }

    /** The mask of ids {@code 1..n}. */
    static int upTo(int n) {
        return (1 << n) - 1;
    }
}
