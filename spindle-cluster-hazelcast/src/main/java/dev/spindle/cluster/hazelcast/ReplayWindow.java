/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

/**
 * The sequence numbers seen from one sender, as a sliding window (the anti-replay window of
 * IPsec, RFC 4303 section 3.4.3): the highest number seen and a bitmap of the {@value #WINDOW}
 * numbers below it. A number is accepted once; a number at or below {@code highest - WINDOW} is
 * refused as too old. Frames may arrive out of order (several executor threads), which the window
 * absorbs: a sender numbers its frames to each member apart ({@link Session}), so a frame is
 * refused only once {@value #WINDOW} later frames from the same sender to this member overtook it.
 * Synchronized: one lock per sender, held for a few word operations.
 */
final class ReplayWindow {

    static final int WINDOW = 4096;

    private final long[] bits = new long[WINDOW / 64];
    private long highest;

    /** Whether {@code seq} (from 1) is new; if so it is recorded. */
    synchronized boolean accept(long seq) {
        if (seq <= 0 || seq <= highest - WINDOW) {
            return false;
        }
        if (seq > highest) {
            if (seq - highest >= WINDOW) {
                java.util.Arrays.fill(bits, 0L);
            } else {
                for (long s = highest + 1; s < seq; s++) {
                    clear(s);
                }
            }
            highest = seq;
            set(seq);
            return true;
        }
        if (isSet(seq)) {
            return false;
        }
        set(seq);
        return true;
    }

    private boolean isSet(long seq) {
        int slot = (int) (seq % WINDOW);
        return (bits[slot >>> 6] & (1L << (slot & 63))) != 0;
    }

    private void set(long seq) {
        int slot = (int) (seq % WINDOW);
        bits[slot >>> 6] |= 1L << (slot & 63);
    }

    private void clear(long seq) {
        int slot = (int) (seq % WINDOW);
        bits[slot >>> 6] &= ~(1L << (slot & 63));
    }
}
