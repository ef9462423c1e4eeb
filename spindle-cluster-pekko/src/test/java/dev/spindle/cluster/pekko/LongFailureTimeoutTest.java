/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.ActorSelection;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.pattern.Patterns;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker's fetch times out after four failure timeouts, through Pekko's scheduler, which
 * refuses a delay over 2^31 ticks of 10 ms (about 248 days). A failure timeout of 6,000,000 s
 * was accepted: every fetch then threw ("Task scheduled with [24000000] seconds delay, which is
 * too far in future") on the worker's endpoint actor, the task whose arrival started it was
 * dropped with the rest of its frame, the shared fetch never completed, and the task that needed
 * the value waited for good (seen end to end with two workers and a coordinator). Such a timeout
 * is now refused when the settings are built, and the longest one accepted gives a fetch timeout
 * that Pekko schedules.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LongFailureTimeoutTest {

    @Test
    void aFailureTimeoutWhoseFetchTimeoutPekkoCannotScheduleIsRefused() {
        assertThatThrownBy(() -> TestCerts.settings("longfail", "worker").failureSeconds(6_000_000))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("failureSeconds");
        assertThatThrownBy(() -> TestCerts.settings("longfail", "worker").failureSeconds(Integer.MAX_VALUE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("failureSeconds");
    }

    @Test
    void theLongestFailureTimeoutAcceptedGivesAFetchTimeoutPekkoSchedules() throws Exception {
        PekkoClusterSettings settings = TestCerts.settings("longfail", "worker").failureSeconds(5_000_000).build();
        assertThat(settings.failureSeconds()).isEqualTo(5_000_000);
        ActorSystem system = ActorSystem.create("longfail");
        try {
            // the worker's fetch timeout (PekkoWorker.start), asked as its fetches ask (Outbox.ask)
            ActorSelection nobody = system.actorSelection("/user/nobody");
            CompletionStage<Object> ask = Patterns.ask(nobody, "fetch",
                    Duration.ofSeconds(Math.max(10, 4L * settings.failureSeconds())));
            assertThat(ask.toCompletableFuture()).isNotDone();
            // what a failure timeout of 6,000,000 s made every fetch do
            assertThatThrownBy(() -> Patterns.ask(nobody, "fetch", Duration.ofSeconds(4L * 6_000_000)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("too far in future");
        } finally {
            system.terminate();
            system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }
}
