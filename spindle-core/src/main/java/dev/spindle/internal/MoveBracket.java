/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.internal;

import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Makes a statistics snapshot exact where a count moves between two places in two steps. An
 * ended actor's processed messages are claimed from its cell, then join the system's total; a
 * retiring spare worker leaves the parked stack, then the live workers. A snapshot taken
 * between the two steps read the mover in neither place (a total one actor short, an idle spare
 * counted active), although the system was quiet. Not part of the public API: the package is
 * exported only to Spindle's own modules.
 *
 * <h2>Protocol</h2>
 *
 * <p>A mover calls {@link #begin()} before its first step and {@link #end()} after its second
 * (from a {@code finally}, so that a move that fails on the way still ends). {@link #read} reads
 * {@code finished}, then {@code started}, then the snapshot's figures, then {@code started}
 * again. If the first two are equal, no move was under way as the reads began; if {@code started}
 * has not changed by their end, none began during them: every mover was read wholly in one of
 * its two places, so the snapshot is exact. The figures are read before the check by an acquire
 * fence, as {@code StampedLock.validate} orders its reads; the counters are volatile. A snapshot
 * that raced a move is taken again, {@link #ATTEMPTS} times in all; the last is reported with the
 * moves it raced ({@code started} after less {@code finished} before, at least one), which the
 * caller counts where the movers came from, so that the snapshot never says less is going on
 * than was. The reader never waits for a mover.
 *
 * <p>Two atomic adds per move, none per task or message.
 *
 * <h2>A close that fails</h2>
 *
 * <p>{@link #end()} is a call, and a call can fail where the one before it did not: a
 * {@code finally} run after a stack overflow in the move may run in a larger, deoptimised frame,
 * and the close then overflows at its entry. A bracket left open is read as a move under way for
 * good: every snapshot is taken {@link #ATTEMPTS} times and counts one mover too many (never a
 * figure below the true one where the caller counts movers where they came from, but wrong for
 * the life of the owner). So a mover whose move can fail in a deep stack keeps the obligation in
 * state it writes without a call, and the close is made later from a shallower frame: a spare
 * worker keeps its own {@code retiring} flag, cleared only once {@link #end()} has returned, and
 * closes the bracket at its next park or its end; the actor system counts a failed close with a
 * plain read and write of its own field and pays it with {@link #end(long)} at the next actor's
 * end or spawn. Not with a {@code synchronized} block: at the stack's limit a block there failed
 * too (seen on JDK 25: the owed close was lost, and the stack-limit test counted a live actor).
 * Until it is paid, an owner that keeps such a count hands it to {@link #read} through
 * {@link Snapshot#closesOwed()}, which reads the closes owed as made: the moves they close are
 * over, and otherwise an owner in which nothing moves again reads a move under way for good.
 * The payer takes the closes from its count before it adds them here, and the reader reads this
 * bracket's closes before the owner's count: a pay racing a read is then read as a close
 * missing (a move under way, the snapshot taken again), never as two.
 */
public final class MoveBracket {

    /** How many times {@link #read} takes a snapshot before it reports one that raced a move. */
    public static final int ATTEMPTS = 4;

    private final AtomicLong started = new AtomicLong();
    private final AtomicLong finished = new AtomicLong();

    /**
     * One snapshot's figures.
     *
     * @param <R> the figures
     */
    public interface Snapshot<R> {
        /** {@return the figures, read once} */
        R read();

        /**
         * {@return how many closes failed and are owed by the owner (see the class comment), to be
         * read as made}; 0 by default. Read after the bracket's own count of closes, so an owner
         * that pays owed closes must take them from its count before {@link #end(long)}.
         */
        default long closesOwed() {
            return 0;
        }

        /**
         * {@return {@code figures} with {@code movers} counted where they came from (as live, as
         * parked), for a snapshot that raced that many moves}
         * @param figures what {@link #read()} returned
         * @param movers the moves under way or begun during the reads, at least one
         */
        R withMovers(R figures, long movers);
    }

    /** A move begins: before its first step. */
    public void begin() {
        started.getAndIncrement();
    }

    /** A move has ended (or failed on the way): after its second step. */
    public void end() {
        finished.getAndIncrement();
    }

    /**
     * Closes {@code moves} brackets whose {@link #end()} failed (see the class comment), from a
     * frame where the call can be made; they are read as moves under way until then.
     *
     * @param moves how many, at least 0
     */
    public void end(long moves) {
        finished.getAndAdd(moves);
    }

    /**
     * Takes {@code snapshot}, again while it races a move (see the class comment).
     *
     * @param <R> the figures
     * @param snapshot reads the figures
     * @return an exact snapshot, or the last one with the moves it raced counted
     */
    public <R> R read(Snapshot<R> snapshot) {
        for (int attempt = 1; ; attempt++) {
            long finishedBefore = finished.get() + snapshot.closesOwed();   // in this order: see closesOwed
            long startedBefore = started.get();
            R figures = snapshot.read();
            VarHandle.acquireFence();         // the reads above before the check (as StampedLock.validate)
            long startedAfter = started.get();
            if (startedBefore == finishedBefore && startedAfter == startedBefore) {
                return figures;
            }
            if (attempt == ATTEMPTS) {
                return snapshot.withMovers(figures, startedAfter - finishedBefore);
            }
        }
    }
}
