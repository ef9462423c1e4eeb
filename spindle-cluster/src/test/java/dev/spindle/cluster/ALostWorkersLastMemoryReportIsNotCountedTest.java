/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker in another JVM with a memory limit reports its store's figures
 * ({@link Message.MemoryReport}), and the scheduler's stats show the last report it received. A
 * worker lost (its process gone, unreachable) holds nothing any more (the scheduler drops every
 * value it held), yet its last report stayed in the stats: its bytes, spilled bytes and pause, and
 * so in {@link ClusterStats#memoryBytes()}, the cluster's {@code spindle.cluster.memory} gauge
 * and the console. A cluster whose workers come and go under new ids (each loss or retirement
 * a record kept for good) showed memory that only grew. A worker that is not alive now reports
 * an empty store, as an in-process worker, whose store is cleared as it stops, does.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ALostWorkersLastMemoryReportIsNotCountedTest {

    @Test
    void aLostWorkerHoldsNoMemoryInTheStats() {
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).build(), new RecordingTransport());
        try {
            HandDriven.reply(s, new Message.MemoryReport(0, 5_000, 700, true));
            HandDriven.reply(s, new Message.MemoryReport(1, 3_000, 0, false));
            assertThat(s.stats().memoryBytes()).as("both workers' figures").isEqualTo(8_000);

            HandDriven.reply(s, new Message.WorkerLost(0));
            ClusterStats stats = s.stats();
            ClusterStats.WorkerStats lost = stats.workers().get(0);
            assertThat(lost.alive()).isFalse();
            assertThat(lost.memoryBytes()).as("the lost worker's bytes in %s", lost).isZero();
            assertThat(lost.spilledBytes()).as("its spilled bytes").isZero();
            assertThat(lost.paused()).as("paused").isFalse();
            assertThat(stats.memoryBytes()).as("the cluster's memory: the live worker's").isEqualTo(3_000);
        } finally {
            s.close();
        }
    }
}
