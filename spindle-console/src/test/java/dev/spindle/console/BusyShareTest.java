/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.SchedulerStats;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker's busy share is CPU time over wall time, between 0 and 1. A work-stealing pool's
 * spare slot is run by a new thread (same name, {@code <name>-worker-<i>}) each time a spare
 * starts there; the sampler then subtracted the old thread's CPU time from the new one's and
 * sent a negative share.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BusyShareTest {

    private static final Pattern BUSY = Pattern.compile("\"busy\":([^,}]+)");

    @Test
    void aSlotRunByANewThreadNeverGetsANegativeBusyShare() throws Exception {
        SchedulerStats stats = new SchedulerStats("busyshare", 1, 1, 0, 0,
                List.of(new SchedulerStats.WorkerStats(0, true, 0, 0, 0, 0, 0, 0, 0, 0)));
        SchedulerSource source = new SchedulerSource("busyshare", () -> stats);
        ThreadCpu cpu = new ThreadCpu();

        CountDownLatch spun = new CountDownLatch(1);
        CountDownLatch exit = new CountDownLatch(1);
        Thread first = new Thread(() -> {
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
            long x = 0;
            while (System.nanoTime() < until) {
                x += System.identityHashCode(this);   // burn CPU
            }
            if (x == 42) {
                System.out.print("");
            }
            spun.countDown();
            awaitQuietly(exit);
        }, "busyshare-worker-0");
        first.start();
        assertThat(spun.await(10, TimeUnit.SECONDS)).isTrue();
        long t = System.nanoTime();
        cpu.nextSample();
        source.sample(new StringBuilder(), t, cpu);  // the old thread's CPU time, about 200 ms
        source.delivered();                    // sent, as the console does: the next rates start here
        exit.countDown();
        first.join();

        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch exit2 = new CountDownLatch(1);
        Thread second = new Thread(() -> {
            started.countDown();
            awaitQuietly(exit2);
        }, "busyshare-worker-0");               // a new spare in the same slot
        second.start();
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        StringBuilder sb = new StringBuilder();
        cpu.nextSample();
        source.sample(sb, t + TimeUnit.SECONDS.toNanos(1), cpu);
        exit2.countDown();
        second.join();

        Matcher m = BUSY.matcher(sb);
        assertThat(m.find()).as("a busy field in %s", sb).isTrue();
        String busy = m.group(1);
        if (!busy.equals("null")) {
            assertThat(Double.parseDouble(busy)).as("busy share in %s", sb).isBetween(0.0, 1.0);
        }
    }

    private static void awaitQuietly(CountDownLatch l) {
        try {
            l.await(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
