/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.spindle.pool.WorkSharingPool;
import java.lang.management.ManagementFactory;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A scheduler restarted under its name: the old one closed, a new one of the same name running.
 * The console finds a worker's thread by name ({@code <scheduler>-worker-<index>}), and the old
 * scheduler's threads have ended, so the only thread of that name is the new scheduler's: the old
 * one's card, still registered, showed the new one's busy share for its own workers, a figure of
 * another scheduler with nothing to tell it apart. A terminated scheduler runs no thread, so none
 * of its workers has a busy share.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ATerminatedSchedulerShowsNoOtherOnesBusyShareTest {

    @Test
    void theOldSchedulerOfARestartedNameShowsNoBusyShare() throws Exception {
        assumeTrue(ManagementFactory.getThreadMXBean().isThreadCpuTimeSupported(), "no thread CPU clock here");
        WorkSharingPool old = WorkSharingPool.builder().workers(1).name("restarted").build();
        old.close();
        assertThat(old.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        CountDownLatch stop = new CountDownLatch(1);
        CountDownLatch spinning = new CountDownLatch(1);
        try (WorkSharingPool current = WorkSharingPool.builder().workers(1).name("restarted").build();
                AutoCloseable release = stop::countDown) {     // closed first: the pool's close waits for the spin
            current.execute(() -> {
                spinning.countDown();
                while (stop.getCount() > 0) {
                    Thread.onSpinWait();
                }
            });
            assertThat(spinning.await(10, TimeUnit.SECONDS)).isTrue();
            // both shown, as a console shows them: one thread clock, two samples sent a little apart
            SchedulerSource oldCard = new SchedulerSource("old", old::stats);
            SchedulerSource currentCard = new SchedulerSource("current", current::stats);
            ThreadCpu cpu = new ThreadCpu();
            StringBuilder sample = new StringBuilder();
            for (int i = 0; i < 2; i++) {
                if (i == 1) {
                    long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
                    while (System.nanoTime() - until < 0) {
                        Thread.onSpinWait();
                    }
                }
                sample.setLength(0);
                long now = System.nanoTime();
                cpu.nextSample();
                oldCard.sample(sample, now, cpu);
                currentCard.sample(sample.append(','), now, cpu);
                oldCard.delivered();
                currentCard.delivered();
            }
            assertThat(busy(sample, "current")).as("the running scheduler's busy share in %s", sample)
                    .isNotEqualTo("null");
            assertThat(busy(sample, "old")).as("the terminated scheduler's busy share in %s", sample)
                    .isEqualTo("null");
        }
    }

    /** The {@code busy} figure of the one worker of the source named {@code name} in a sample. */
    private static String busy(CharSequence sample, String name) {
        Matcher m = Pattern.compile("\"name\":\"" + name + "\".*?\"busy\":([^,]+),").matcher(sample);
        assertThat(m.find()).as("source %s in %s", name, sample).isTrue();
        return m.group(1);
    }
}
