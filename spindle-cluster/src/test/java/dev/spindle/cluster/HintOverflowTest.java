/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Duration hints as long as {@link TaskSpec.Builder#durationHint} allows (up to
 * {@code Long.MAX_VALUE} nanoseconds) are summed into a worker's occupancy without overflow: two
 * such tasks on one worker wrapped the sum of their nanoseconds negative, so the busiest worker
 * looked the idlest and every later task was placed behind them.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class HintOverflowTest {

    private static final Duration LONGEST = Duration.ofNanos(Long.MAX_VALUE);

    private final RecordingTransport transport = new RecordingTransport();
    private final GraphScheduler scheduler = new GraphScheduler(CoordinatorSettings.builder().workers(2)
            .threadsPerWorker(1).stealing(false).balanceInterval(Duration.ZERO).build(), transport);

    @AfterEach
    void close() {
        scheduler.close();
    }

    @Test
    void theOccupancyOfLongHintsIsTheirSum() {
        WorkerLoad load = new WorkerLoad();
        DurationEstimates durations = new DurationEstimates(0.5);
        load.add("big", Long.MAX_VALUE, false);
        load.add("big", Long.MAX_VALUE, false);
        load.add("other", Long.MAX_VALUE, false);
        assertThat(load.seconds(durations)).isCloseTo(3 * (Long.MAX_VALUE / 1e9), org.assertj.core.api.Assertions.within(1.0));
        load.remove("big", Long.MAX_VALUE);
        load.add("small", 1_000_000_000L, false);
        assertThat(load.seconds(durations)).isCloseTo(2 * (Long.MAX_VALUE / 1e9) + 1, org.assertj.core.api.Assertions.within(1.0));
        // the kind measured: its hints leave the guessed total, exactly
        durations.record("big", 2.0);
        load.kindMeasured("big");
        assertThat(load.seconds(durations)).isCloseTo(Long.MAX_VALUE / 1e9 + 1 + 2, org.assertj.core.api.Assertions.within(1e-3));
        load.remove("other", Long.MAX_VALUE);
        assertThat(load.seconds(durations)).isCloseTo(3.0, org.assertj.core.api.Assertions.within(1e-9));
    }

    @Test
    void aTaskIsNotPlacedBehindTwoLongHints() {
        scheduler.submit(List.of(TaskSpec.builder("big-0", args -> 1).durationHint(LONGEST).build(),
                TaskSpec.builder("big-1", args -> 1).durationHint(LONGEST).build(),
                TaskSpec.builder("big-2", args -> 1).durationHint(LONGEST).build()));
        scheduler.submit(List.of(TaskSpec.builder("small-0", args -> 1).build()));
        int[] bigs = new int[2];
        int small = -1;
        for (RecordingTransport.Sent s : transport.sentToWorkers()) {
            if (s.message() instanceof Message.Compute c) {
                if (c.key().startsWith("big")) {
                    bigs[s.worker()]++;
                } else {
                    small = s.worker();
                }
            }
        }
        int lessLoaded = bigs[0] < bigs[1] ? 0 : 1;
        assertThat(bigs[0] + bigs[1]).isEqualTo(3);
        assertThat(small).as("the worker of small-0 (long tasks per worker: %s)", java.util.Arrays.toString(bigs))
                .isEqualTo(lessLoaded);
    }
}
