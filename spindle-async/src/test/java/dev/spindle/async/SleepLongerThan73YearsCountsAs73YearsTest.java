/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@code Async.sleep} documented that only a duration too long for a {@code long} of nanoseconds
 * (about 292 years) counts as about 73 years, while any sleep over 73 years ended after 73 years
 * (its timer entry is kept at most 2^61 ns ahead, {@link Timers#MAX_AHEAD_NANOS}), its deadline
 * still reading 100 years out. The documented contract is now what happens: any duration over
 * 2^61 ns counts as 2^61 ns, the sleep's own deadline included.
 */
class SleepLongerThan73YearsCountsAs73YearsTest {

    private static long deadlineAhead(AsyncTask<Void> sleep, long before) throws Exception {
        Field f = sleep.getClass().getDeclaredField("deadline");
        f.setAccessible(true);
        return f.getLong(sleep) - before;
    }

    @Test
    void aHundredYearSleepCountsAs73Years() throws Exception {
        long before = System.nanoTime();
        AsyncTask<Void> sleep = Async.sleep(Duration.ofDays(365L * 100));
        long after = System.nanoTime();
        assertThat(deadlineAhead(sleep, before)).as("deadline of a 100-year sleep, from the call")
                .isBetween(Timers.MAX_AHEAD_NANOS, Timers.MAX_AHEAD_NANOS + (after - before));
    }

    @Test
    void aSleepTooLongForALongOfNanosCountsAs73Years() throws Exception {
        long before = System.nanoTime();
        AsyncTask<Void> sleep = Async.sleep(Duration.ofSeconds(Long.MAX_VALUE));
        long after = System.nanoTime();
        assertThat(deadlineAhead(sleep, before)).as("deadline of a 292-billion-year sleep, from the call")
                .isBetween(Timers.MAX_AHEAD_NANOS, Timers.MAX_AHEAD_NANOS + (after - before));
    }
}
