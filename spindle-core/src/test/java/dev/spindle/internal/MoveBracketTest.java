/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The bracket's read, single-threaded: a snapshot is exact when no move is open, taken again
 * {@link MoveBracket#ATTEMPTS} times and reported with its movers while one is, and a close owed
 * by its owner ({@link MoveBracket.Snapshot#closesOwed()}) is read as made.
 */
class MoveBracketTest {

    /** Counts its reads; reports the movers it is given as the figure. */
    private static final class Counting implements MoveBracket.Snapshot<Long> {
        final AtomicInteger reads = new AtomicInteger();
        long owed;

        @Override
        public Long read() {
            reads.incrementAndGet();
            return 0L;
        }

        @Override
        public Long withMovers(Long figures, long movers) {
            return movers;
        }

        @Override
        public long closesOwed() {
            return owed;
        }
    }

    @Test
    void aQuietBracketIsReadOnce() {
        MoveBracket bracket = new MoveBracket();
        bracket.begin();
        bracket.end();
        Counting snapshot = new Counting();
        assertThat(bracket.read(snapshot)).isZero();
        assertThat(snapshot.reads).hasValue(1);
    }

    @Test
    void anOpenMoveIsReadAsAMoverAfterEveryAttempt() {
        MoveBracket bracket = new MoveBracket();
        bracket.begin();
        Counting snapshot = new Counting();
        assertThat(bracket.read(snapshot)).as("movers").isEqualTo(1L);
        assertThat(snapshot.reads).hasValue(MoveBracket.ATTEMPTS);
    }

    @Test
    void aCloseOwedIsReadAsMadeAndPayingItChangesNothing() {
        MoveBracket bracket = new MoveBracket();
        bracket.begin();                 // its close failed: the owner owes it
        Counting snapshot = new Counting();
        snapshot.owed = 1;
        assertThat(bracket.read(snapshot)).isZero();
        assertThat(snapshot.reads).as("an exact snapshot, read once").hasValue(1);

        snapshot.owed = 0;               // paid: taken from the owner, then made here
        bracket.end(1);
        snapshot.reads.set(0);
        assertThat(bracket.read(snapshot)).isZero();
        assertThat(snapshot.reads).hasValue(1);
    }

    @Test
    void aPayBetweenItsTwoStepsReadsAsAMoveUnderWayNeverAsTwoCloses() {
        MoveBracket bracket = new MoveBracket();
        bracket.begin();
        bracket.begin();                 // one move open for real, one whose close is owed
        Counting snapshot = new Counting();
        snapshot.owed = 0;               // the payer has taken the owed close, not yet made it here
        assertThat(bracket.read(snapshot)).as("both read as under way: conservative").isEqualTo(2L);
        bracket.end(1);
        assertThat(bracket.read(snapshot)).as("the open move alone").isEqualTo(1L);
    }
}
