/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import java.util.List;
import java.util.function.ToLongFunction;

/**
 * Where a reader stands in a log it reads again and again (a cluster's steal log, its task log):
 * each {@link #next} answers the entries logged since the previous call, the newest
 * {@code max} of them, so that what a page receives per sample stays bounded.
 *
 * <p>The log is a copy, oldest first, ordered by a key that never goes down (a sequence
 * number, or the {@link System#nanoTime()} at which the entry was logged); it may have dropped
 * its oldest entries since the last read. The key need not be unique: two steal events may be
 * logged within one tick of the clock. So the cursor remembers the newest key it has passed and
 * how many entries with that key it has passed; an entry logged later with the same key is the
 * next one after those, not one already seen.
 *
 * <p>A reader that may fail before what it read is delivered (a sample that throws further on)
 * reads with {@link #peek} and calls {@link #commit} once it is: until then the cursor stays where
 * it was, and the next read answers those entries again rather than losing them.
 *
 * @param <E> the log's entry
 */
final class LogCursor<E> {

    private final ToLongFunction<E> order;
    /** The key of the newest entry passed so far. */
    private long last = Long.MIN_VALUE;
    /** How many entries with key {@link #last} have been passed. */
    private int passedAtLast;
    /** Where the last {@link #peek} would leave the cursor: {@link #commit} moves it there. */
    private long peekedLast = Long.MIN_VALUE;
    private int peekedPassed;

    LogCursor(ToLongFunction<E> order) {
        this.order = order;
    }

    /**
     * The entries of {@code log} after those passed so far, the newest {@code max} of them;
     * the cursor then stands after the whole log (entries cut by {@code max} are passed too).
     */
    List<E> next(List<E> log, int max) {
        List<E> next = peek(log, max);
        commit();
        return next;
    }

    /**
     * What {@link #next} answers, without moving the cursor: {@link #commit} moves it after them
     * once they have been delivered. Another peek before that answers them again.
     */
    List<E> peek(List<E> log, int max) {
        int end = log.size();
        peekedLast = last;
        peekedPassed = passedAtLast;
        if (end == 0) {
            return log;
        }
        int after = end;                 // first entry with a key above last
        while (after > 0 && order.applyAsLong(log.get(after - 1)) > last) {
            after--;
        }
        int firstAtLast = after;         // first entry with key last
        while (firstAtLast > 0 && order.applyAsLong(log.get(firstAtLast - 1)) == last) {
            firstAtLast--;
        }
        int from = Math.min(after, firstAtLast + passedAtLast);
        from = Math.max(from, end - max);
        long newest = order.applyAsLong(log.get(end - 1));
        int atNewest = 0;
        for (int i = end - 1; i >= 0 && order.applyAsLong(log.get(i)) == newest; i--) {
            atNewest++;
        }
        peekedLast = newest;
        peekedPassed = atNewest;
        return log.subList(from, end);
    }

    /** Moves the cursor after the entries the last {@link #peek} answered. */
    void commit() {
        last = peekedLast;
        passedAtLast = peekedPassed;
    }
}
