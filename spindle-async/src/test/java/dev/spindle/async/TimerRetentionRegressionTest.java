/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A burst of timers must not keep its heap array for the timer's life: the shared timer lives
 * as long as the JVM, and a server that puts a timeout on each of a million requests once
 * would otherwise hold a million-slot array from then on.
 */
class TimerRetentionRegressionTest {

    private static final long HOUR = 3_600_000_000_000L;

    /** A timer of the kind a driving runtime owns: no thread of its own, fired by the caller. */
    private static Timers timer() {
        return new Timers(() -> { });
    }

    @Test
    void cancellingABurstGivesTheHeapArrayBack() {
        Timers t = timer();
        long far = System.nanoTime() + HOUR;
        List<Timers.Entry> entries = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            entries.add(t.add(far + i, () -> { }));
        }
        assertThat(t.capacity()).isGreaterThanOrEqualTo(100_000);

        for (Timers.Entry e : entries) {
            e.cancel();
        }

        assertThat(t.size()).isZero();
        assertThat(t.capacity()).as("heap slots after every entry was cancelled").isLessThanOrEqualTo(128);
    }

    @Test
    void firingABurstGivesTheHeapArrayBackAndKeepsDeadlineOrder() {
        Timers t = timer();
        long past = System.nanoTime() - HOUR;
        Random random = new Random(7);
        List<Long> fired = new ArrayList<>();
        List<Long> expected = new ArrayList<>();
        List<Timers.Entry> toCancel = new ArrayList<>();
        for (int i = 0; i < 50_000; i++) {
            long deadline = past + random.nextInt(1_000_000);
            Timers.Entry e = t.add(deadline, () -> fired.add(deadline));
            if (random.nextInt(4) == 0) {
                toCancel.add(e);          // cancelled ones shrink the array between firings
            } else {
                expected.add(deadline);
            }
        }
        for (Timers.Entry e : toCancel) {
            e.cancel();
        }

        t.fireDue();

        Collections.sort(expected);
        assertThat(fired).isEqualTo(expected);
        assertThat(t.capacity()).as("heap slots after every entry fired").isLessThanOrEqualTo(128);
    }
}
