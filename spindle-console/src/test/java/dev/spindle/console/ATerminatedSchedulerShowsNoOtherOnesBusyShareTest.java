/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.spindle.pool.WorkSharingPool;
import java.lang.management.ManagementFactory;
import java.time.Duration;
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
        // a minute between the sampler's own samples: this test takes them itself
        try (WorkSharingPool current = WorkSharingPool.builder().workers(1).name("restarted").build();
                Console console = Console.builder().withoutToken().interval(Duration.ofMinutes(1)).start();
                AutoCloseable release = stop::countDown) {
            current.execute(() -> {
                spinning.countDown();
                while (stop.getCount() > 0) {
                    Thread.onSpinWait();
                }
            });
            spinning.await();
            console.register("old", old::stats).register("current", current::stats);
            console.sample();
            // two readings a little apart, so the live one has a share to show
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
            while (System.nanoTime() - until < 0) {
                Thread.onSpinWait();
            }
            console.sample();
            String sample = console.latest();
            assertThat(busy(sample, "current")).as("the running scheduler's busy share in %s", sample)
                    .isNotEqualTo("null");
            assertThat(busy(sample, "old")).as("the terminated scheduler's busy share in %s", sample)
                    .isEqualTo("null");
        }
    }

    /** The {@code busy} figure of the one worker of the source named {@code name} in a sample. */
    private static String busy(String sample, String name) {
        Matcher m = Pattern.compile("\"name\":\"" + name + "\".*?\"busy\":([^,]+),").matcher(sample);
        assertThat(m.find()).as("source %s in %s", name, sample).isTrue();
        return m.group(1);
    }
}
