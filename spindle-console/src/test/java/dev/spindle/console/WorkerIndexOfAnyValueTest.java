/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.spindle.SchedulerStats;
import dev.spindle.SchedulerStats.WorkerStats;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A scheduler source kept each worker's previous reading in an array indexed by the worker's
 * index, grown to the largest index a stats supplier reported: an index near
 * {@code Integer.MAX_VALUE} (an application's own {@code stats()}) asked for an array of that
 * length (an OutOfMemoryError, every sample), and a negative one threw
 * ArrayIndexOutOfBoundsException. The readings are now kept per index reported.
 */
class WorkerIndexOfAnyValueTest {

    @Test
    void aHugeOrNegativeWorkerIndexIsSampledLikeAnyOther() {
        long[] done = {0};
        SchedulerSource source = new SchedulerSource("odd", () -> new SchedulerStats("odd", 3, 3, 0, 0, List.of(
                worker(Integer.MAX_VALUE - 2, done[0]), worker(-1, done[0]), worker(0, done[0]))));
        assertThatCode(() -> source.sample(new StringBuilder(), 0, new ThreadCpu())).doesNotThrowAnyException();
        source.delivered();                    // each sample sent, as the console does

        done[0] = 500;
        StringBuilder sb = new StringBuilder();
        source.sample(sb, TimeUnit.SECONDS.toNanos(1), new ThreadCpu());
        assertThat(sb.toString())
                .contains("\"index\":2147483645,")
                .contains("\"index\":-1,")
                .contains("\"index\":0,");
        // each worker's rate from its own previous reading: 500 done in one second
        assertThat(sb.toString().split("\"donePerSec\":500,", -1)).as("%s", sb).hasSize(3 + 1);
    }

    @Test
    void aWorkerThatWasNotReportedLastTimeHasNoEarlierReading() {
        long[] done = {100};
        boolean[] withSecond = {true};
        SchedulerSource source = new SchedulerSource("p", () -> new SchedulerStats("p", 2, 2, 0, 0,
                withSecond[0] ? List.of(worker(0, done[0]), worker(1, done[0])) : List.of(worker(0, done[0]))));
        source.sample(new StringBuilder(), 0, new ThreadCpu());
        source.delivered();                    // each sample sent, as the console does
        withSecond[0] = false;
        done[0] = 200;
        source.sample(new StringBuilder(), TimeUnit.SECONDS.toNanos(1), new ThreadCpu());
        source.delivered();
        withSecond[0] = true;
        done[0] = 300;
        StringBuilder sb = new StringBuilder();
        source.sample(sb, TimeUnit.SECONDS.toNanos(2), new ThreadCpu());
        String second = sb.substring(sb.indexOf("\"index\":1,"), sb.indexOf("}", sb.indexOf("\"index\":1,")));
        // worker 1's reading of two samples ago says nothing of the last second: no rate yet
        assertThat(second).contains("\"donePerSec\":null");
    }

    private static WorkerStats worker(int index, long completed) {
        return new WorkerStats(index, false, completed, 0, 0, 0, 0, 0, 0, 0);
    }
}
