/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A start-up wait: looks until ready, gives up when a look says so, times out with the caller's message. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ReadinessTest {

    @Test
    void looksUntilReady() throws Exception {
        AtomicInteger looks = new AtomicInteger();
        Readiness.await(Duration.ofSeconds(20), System.nanoTime(), () -> looks.incrementAndGet() == 3, () -> "never");
        assertThat(looks).hasValue(3);
    }

    @Test
    void aLookMayGiveUpWithItsOwnException() {
        class Refused extends Exception {
            Refused() {
                super("refused: wrong secret");
            }
        }
        assertThatThrownBy(() -> Readiness.await(Duration.ofSeconds(20), System.nanoTime(), () -> {
            throw new Refused();
        }, () -> "never")).isInstanceOf(Refused.class);
    }

    @Test
    void timesOutWithTheCallersMessageAfterAtLeastOneLook() {
        AtomicInteger looks = new AtomicInteger();
        assertThatThrownBy(() -> Readiness.await(Duration.ZERO, System.nanoTime() - 1, () -> {
            looks.incrementAndGet();
            return false;
        }, () -> "no coordinator")).isInstanceOf(TimeoutException.class).hasMessage("no coordinator");
        assertThat(looks).hasValue(1);
    }

    @Test
    void theCoordinatorAsksOnlyOnceAllWorkersJoinedAndSaysHowManyDid() throws Exception {
        AtomicInteger joined = new AtomicInteger();
        AtomicInteger asked = new AtomicInteger();
        AtomicInteger before = new AtomicInteger();
        Readiness.awaitWorkers(3, Duration.ofSeconds(20), System.nanoTime(), joined::get, () -> 0, () -> {
            before.incrementAndGet();
            joined.incrementAndGet();
        }, () -> asked.incrementAndGet() > 0);
        assertThat(before).hasValue(3);
        assertThat(asked).hasValue(1);
        Duration timeout = Duration.ofMillis(1);
        assertThatThrownBy(() -> Readiness.awaitWorkers(3, timeout, System.nanoTime() - 2_000_000, () -> 2, () -> 4,
                () -> { }, () -> true)).isInstanceOf(TimeoutException.class)
                .hasMessage("2 of 3 workers joined within " + timeout + " (4 members refused)");
        assertThatThrownBy(() -> Readiness.awaitWorkers(3, Duration.ofSeconds(20), System.nanoTime(), () -> 0, () -> 0,
                () -> {
                    throw new IllegalStateException("a second coordinator");
                }, () -> true)).isInstanceOf(IllegalStateException.class);
    }
}
