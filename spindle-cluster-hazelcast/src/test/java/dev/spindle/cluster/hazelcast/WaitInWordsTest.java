/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** How a worker's refusal and timeout messages give the wait they waited (HazelcastWorker.inWords). */
class WaitInWordsTest {

    @Test
    void wholeSecondsMillisecondsAndFractions() {
        assertThat(HazelcastWorker.inWords(Duration.ofSeconds(3))).isEqualTo("3 s");
        assertThat(HazelcastWorker.inWords(Duration.ofMillis(500))).isEqualTo("500 ms");   // was "0 s"
        assertThat(HazelcastWorker.inWords(Duration.ofMillis(1500))).isEqualTo("1.5 s");   // was "1 s"
        assertThat(HazelcastWorker.inWords(Duration.ofNanos(1_234_567_891))).isEqualTo("1.235 s");
        assertThat(HazelcastWorker.inWords(Duration.ofNanos(250_000))).isEqualTo("0.25 ms");
        assertThat(HazelcastWorker.inWords(Duration.ofNanos(1))).isEqualTo("0.000001 ms");
    }

    @Test
    void aWaitOfNothingOrLessIsZeroSeconds() {
        assertThat(HazelcastWorker.inWords(Duration.ZERO)).isEqualTo("0 s");
        assertThat(HazelcastWorker.inWords(Duration.ofSeconds(-2))).isEqualTo("0 s");
    }
}
