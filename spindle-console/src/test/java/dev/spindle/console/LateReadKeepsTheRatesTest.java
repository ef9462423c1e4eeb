/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.SchedulerStats;
import dev.spindle.SchedulerStats.WorkerStats;
import dev.spindle.actor.ActorRef;
import dev.spindle.actor.ActorSystem;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A read the console gives up on as stuck still returns, late, on its reader thread: a source
 * read as the sample at second 1 asked, whose stats answered only at second 5, holds the counters
 * of second 5. Its sample is dropped (never {@linkplain Source#delivered() delivered}), but the
 * source kept its readings as the last ones, under the sample's time: the next sample's rates
 * took the counts of the second after the read returned over the five seconds since it started,
 * a fifth of the true rate here, and a pool doing a thousand tasks a second showed a few dozen.
 * The rates now run from the last sample sent. The sequence of calls is the console's: each
 * sample the console sends is delivered, the dropped one is not.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LateReadKeepsTheRatesTest {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    @Test
    void aSchedulersRatesRunFromTheLastSampleSent() {
        AtomicLong done = new AtomicLong();   // a thousand tasks a second, all along
        SchedulerSource source = new SchedulerSource("p", () -> stats(done.get()));
        source.sample(new StringBuilder(), 0, new ThreadCpu());
        source.delivered();

        done.set(5_000);                       // the read asked at second 1 returns at second 5
        source.sample(new StringBuilder(), SECOND, new ThreadCpu());
        // given up on: dropped, not delivered

        done.set(6_000);
        StringBuilder sb = new StringBuilder();
        source.sample(sb, 6 * SECOND, new ThreadCpu());
        source.delivered();
        assertThat(sb.toString()).as("%s", sb)
                .contains("\"donePerSec\":1000,\"stealsPerSec\":1000,")   // the worker's
                .endsWith("\"donePerSec\":1000,\"stealsPerSec\":1000,\"parksPerSec\":1000}");

        done.set(7_000);                       // and on from the sample sent
        sb.setLength(0);
        source.sample(sb, 7 * SECOND, new ThreadCpu());
        assertThat(sb.toString()).as("%s", sb).endsWith("\"donePerSec\":1000,\"stealsPerSec\":1000,\"parksPerSec\":1000}");
    }

    @Test
    void aSampleThatIsNotSentMovesNoRateOn() {
        AtomicLong done = new AtomicLong();
        SchedulerSource source = new SchedulerSource("p", () -> stats(done.get()));
        source.sample(new StringBuilder(), 0, new ThreadCpu());
        source.delivered();
        done.set(1_000);
        source.sample(new StringBuilder(), SECOND, new ThreadCpu());
        source.delivered();

        done.set(3_000);                       // a sample that failed further on, or was dropped
        source.sample(new StringBuilder(), 2 * SECOND, new ThreadCpu());
        done.set(4_000);
        StringBuilder sb = new StringBuilder();
        source.sample(sb, 4 * SECOND, new ThreadCpu());
        assertThat(sb.toString()).as("3000 done over the 3 s since the sample sent")
                .endsWith("\"donePerSec\":1000,\"stealsPerSec\":1000,\"parksPerSec\":1000}");
    }

    @Test
    void anActorSystemsRatesRunFromTheLastSampleSent() throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("late").build()) {
            ActorRef<long[]> counter = system.spawn(() -> new long[1]);
            ActorSource source = new ActorSource("a", system);
            source.sample(new StringBuilder(), 0, new ThreadCpu());
            source.delivered();
            long base = system.stats().messagesProcessed();

            tell(counter, 500);                // by second 5, when the read asked at second 1 returns
            awaitProcessed(system, base + 500);
            source.sample(new StringBuilder(), SECOND, new ThreadCpu());
            // given up on: dropped, not delivered

            tell(counter, 100);
            awaitProcessed(system, base + 600);
            StringBuilder sb = new StringBuilder();
            source.sample(sb, 6 * SECOND, new ThreadCpu());
            assertThat(sb.toString()).as("%s", sb).contains("\"messagesPerSec\":" + rate(base + 600, base, 6) + ",");
        }
    }

    private static String rate(long now, long before, int seconds) {
        StringBuilder sb = new StringBuilder();
        Json.field(sb, "x", (now - before) / (double) seconds);
        return sb.substring(sb.indexOf(":") + 1, sb.length() - 1);
    }

    private static void awaitProcessed(ActorSystem system, long n) throws InterruptedException {
        while (system.stats().messagesProcessed() < n) {   // the class's timeout against a hang
            Thread.sleep(5);
        }
        assertThat(system.stats().messagesProcessed()).isEqualTo(n);
    }

    private static void tell(ActorRef<long[]> counter, int n) {
        for (int i = 0; i < n; i++) {
            counter.tell(c -> c[0]++);
        }
    }

    private static SchedulerStats stats(long count) {
        return new SchedulerStats("p", 1, 1, 0, 0,
                List.of(new WorkerStats(0, false, count, 0, 0, count, 0, 0, count, 0)));
    }
}
