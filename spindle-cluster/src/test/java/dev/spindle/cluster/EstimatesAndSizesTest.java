/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.NotSerializableException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Duration learning per key prefix, and value sizes. */
class EstimatesAndSizesTest {

    @Test
    void anEstimateIsTheHintOrFallbackUntilMeasuredThenAnExponentialAverage() {
        DurationEstimates d = new DurationEstimates(0.5);
        assertThat(d.estimate("load", -1)).isEqualTo(0.5);
        assertThat(d.estimate("load", 0.2)).isEqualTo(0.2);
        d.record("load", 1.0);
        assertThat(d.estimate("load", 0.2)).isEqualTo(1.0);
        d.record("load", 3.0);
        assertThat(d.estimate("load", -1)).isEqualTo(2.0);
        assertThat(d.measured("load")).isTrue();
        assertThat(d.measured("other")).isFalse();
    }

    @Test
    void aTaskRunningPastTwiceTheAverageResetsItsKindToTwiceItsRunningTime() {
        DurationEstimates d = new DurationEstimates(0.5);
        d.record("inc", 0.01);
        d.running("inc", 0.015);                       // within twice the average: no change
        assertThat(d.estimate("inc", -1)).isEqualTo(0.01);
        d.running("inc", 0.3);
        assertThat(d.estimate("inc", -1)).isEqualTo(0.6);
        d.running("inc", 0.2);                         // the longest running time counts
        assertThat(d.estimate("inc", -1)).isEqualTo(0.6);
        d.record("inc", 0.4);                          // a measurement starts a new average
        assertThat(d.estimate("inc", -1)).isEqualTo(0.4);
        d.running("new", 0.2);                         // never finished, but seen running
        assertThat(d.measured("new")).isTrue();
        assertThat(d.estimate("new", 0.01)).isEqualTo(0.4);
    }

    /**
     * Before: every prefix was kept for good, and a key without a dash is its own prefix, so a
     * long-lived coordinator grew by an entry per task (100,000 kept here), with
     * {@code forgetReleased} too.
     */
    @Test
    void prefixesSeenOnceAreForgottenPastTheBoundButNotOneInUse() {
        DurationEstimates d = new DurationEstimates(0.5, prefix -> prefix.equals("busy"));
        d.record("busy", 2.0);                         // the eldest, but a worker processes one
        for (int i = 0; i < 100_000; i++) {
            if (i % 2 == 0) {
                d.record("task" + i, 0.1);
            } else {
                d.running("task" + i, 0.1);
            }
        }
        assertThat(d.prefixes()).as("prefixes kept after 100,000 seen once").isLessThanOrEqualTo(DurationEstimates.MAX_PREFIXES);
        assertThat(d.measured("busy")).as("a prefix in use stays measured").isTrue();
        assertThat(d.estimate("busy", -1)).isEqualTo(2.0);
        assertThat(d.measured("task0")).as("a prefix seen once, long ago").isFalse();
        assertThat(d.estimate("task0", -1)).as("estimated as never measured again").isEqualTo(0.5);
        assertThat(d.measured("task99999")).as("the newest").isTrue();
    }

    @Test
    void prefixesGroupKeysByKind() {
        assertThat(TaskSpec.prefixOf("load-12")).isEqualTo("load");
        assertThat(TaskSpec.prefixOf("load")).isEqualTo("load");
        assertThat(TaskSpec.prefixOf("-x")).isEqualTo("-x");
        assertThat(TaskSpec.builder("sum-3", args -> 1).durationHint(Duration.ofMillis(3)).build().prefix())
                .isEqualTo("sum");
    }

    @Test
    void sizesComeFromSizedOrSerialisation() throws Exception {
        assertThat(Sizes.measure(null)).isZero();
        assertThat(Sizes.measure((Sized) () -> 1L << 40)).isEqualTo(1L << 40);
        assertThat(Sizes.measure(new int[1000])).isGreaterThan(4000);
        assertThatThrownBy(() -> Sizes.measure(new Object())).isInstanceOf(NotSerializableException.class)
                .hasMessageContaining("java.lang.Object");
        assertThatThrownBy(() -> Sizes.measure((Sized) () -> -1)).isInstanceOf(IllegalArgumentException.class);
    }
}
