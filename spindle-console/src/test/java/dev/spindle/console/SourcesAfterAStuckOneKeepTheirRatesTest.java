/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.SchedulerStats;
import dev.spindle.SchedulerStats.WorkerStats;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A sample reads its sources one after another, and waits up to a second for one that has just
 * got stuck: the sources after it are read that much later. Their rates were taken over the time
 * between the samples' starts, so the counts of the wait and an interval were set over an
 * interval alone: a scheduler doing a thousand tasks a second showed ten thousand under a 100 ms
 * interval (and a busy share of 1) in the sample that found another source stuck, and the
 * sample after it, started as soon as that one ended, a rate near 0. A source's rates now run
 * over the time between its own reads.
 *
 * <p>Then the samples after it: the sampler ran at a fixed rate, which makes up missed runs, so
 * the ten samples a 100 ms interval had due during the wait came back to back, each reading the
 * steady source microseconds after the one before: rates of 0 or several times the truth (this
 * test failed one run in three on the first of them). The samples due meanwhile are now skipped,
 * and the next comes at least half an interval after the one that waited.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SourcesAfterAStuckOneKeepTheirRatesTest {

    private static final Pattern TIME = Pattern.compile("^\\{\"time\":(\\d+),");
    private static final Pattern DONE = Pattern.compile("\\],\"donePerSec\":([^,]+),");

    private static SchedulerStats stats(String name, long done) {
        return new SchedulerStats(name, 1, 1, 0, 0, List.of(new WorkerStats(0, false, done, 0, 0, 0, 0, 0, 0, 0)));
    }

    /** Answers at once until {@link #block} is set; then, once, waits for {@link #release} whatever interrupts. */
    private static final class Stuck implements Supplier<SchedulerStats> {
        volatile boolean block;
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public SchedulerStats get() {
            if (block) {
                block = false;
                boolean interrupted = false;
                while (true) {
                    try {
                        release.await();
                        break;
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                }
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
            return stats("stuck", 0);
        }
    }

    @Test
    void aSourceReadAfterTheWaitForAStuckOneShowsItsTrueRate() throws Exception {
        long t0 = System.nanoTime();
        // a thousand tasks a second, exactly, on the clock the console reads
        Supplier<SchedulerStats> steady = () -> stats("steady", (System.nanoTime() - t0) / 1_000_000);
        Stuck stuck = new Stuck();
        try (Console console = Console.builder().withoutToken().interval(Duration.ofMillis(100)).start()) {
            console.register("stuck", stuck).register("steady", steady);   // read in that order
            HttpRequest req = HttpRequest.newBuilder(console.uri().resolve("/events"))
                    .timeout(Duration.ofSeconds(30)).build();
            HttpResponse<java.io.InputStream> res = ConsoleTest.HTTP.send(req, HttpResponse.BodyHandlers.ofInputStream());
            try (BufferedReader in = new BufferedReader(new InputStreamReader(res.body(), StandardCharsets.UTF_8))) {
                readThrough(in, stuck);
            } finally {
                stuck.release.countDown();     // before close(), which would wait for the stuck read
            }
        }
    }

    private static void readThrough(BufferedReader in, Stuck stuck) throws Exception {
        String sample;
        do {
            sample = nextData(in);
        } while (done(sample) == null);
        assertThat(Double.parseDouble(done(sample))).as("before: %s", sample).isBetween(500.0, 2000.0);

        stuck.block = true;
        do {
            sample = nextData(in);
        } while (!sample.contains("\"name\":\"stuck\",\"error\":\"not answering"));
        // the sample that waited for the stuck source, then read the steady one
        assertThat(Double.parseDouble(done(sample))).as("the sample that waited: %s", sample)
                .isBetween(500.0, 2000.0);
        for (int i = 1; i <= 5; i++) {
            long before = time(sample);
            sample = nextData(in);
            assertThat(Double.parseDouble(done(sample))).as("sample %d after: %s", i, sample).isBetween(500.0, 2000.0);
            // the code never schedules the next sample sooner than half the interval after the
            // last one ended; a slow machine only makes the gap longer
            assertThat(time(sample) - before).as("ms from the sample before to sample %d after", i)
                    .isGreaterThanOrEqualTo(40);
        }
    }

    private static long time(String sample) {
        Matcher m = TIME.matcher(sample);
        assertThat(m.find()).as("a time in %s", sample).isTrue();
        return Long.parseLong(m.group(1));
    }

    /** The steady source's total rate of tasks done in {@code sample}, or null if none yet. */
    private static String done(String sample) {
        int at = sample.indexOf("\"name\":\"steady\"");
        if (at < 0) {
            return null;
        }
        Matcher m = DONE.matcher(sample);
        if (!m.find(at) || m.group(1).equals("null")) {
            return null;
        }
        return m.group(1);
    }

    private static String nextData(BufferedReader in) throws Exception {
        for (String line; (line = in.readLine()) != null; ) {
            if (line.startsWith("data: ")) {
                return line.substring(6);
            }
        }
        throw new AssertionError("the stream ended");
    }
}
