/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.quick;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link Stats}, behind every median, quartile and range the bench suites print, on hand-made
 * samples whose figures can be worked out by hand.
 */
class StatsTest {

    /** An even count: the median is the mean of the middle two, whatever the input order. */
    @Test
    void theMedianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
        Stats s = Stats.of(List.of(4.0, 1.0, 3.0, 2.0));
        assertThat(s.n()).isEqualTo(4);
        assertThat(s.median()).isEqualTo(2.5);
        assertThat(s.min()).isEqualTo(1.0);
        assertThat(s.max()).isEqualTo(4.0);
        // quartiles by linear interpolation: positions 0.75 and 2.25 of the sorted 1, 2, 3, 4
        assertThat(s.q1()).isEqualTo(1.75);
        assertThat(s.q3()).isEqualTo(3.25);
        assertThat(s.halfIqrFraction()).isEqualTo((3.25 - 1.75) / 2 / 2.5);
    }

    @Test
    void theMedianOfAnOddCountIsTheMiddleValue() {
        Stats s = Stats.of(List.of(10.0, 30.0, 20.0, 50.0, 40.0));
        assertThat(s.median()).isEqualTo(30.0);
        assertThat(s.q1()).isEqualTo(20.0);
        assertThat(s.q3()).isEqualTo(40.0);
    }

    @Test
    void oneValueIsEveryStatistic() {
        Stats s = Stats.of(List.of(7.0));
        assertThat(List.of(s.median(), s.q1(), s.q3(), s.min(), s.max())).containsOnly(7.0);
    }

    @Test
    void anEmptySampleHasNoStatistic() {
        Stats s = Stats.of(List.of());
        assertThat(s.n()).isZero();
        assertThat(s.median()).isNaN();
    }

    /**
     * A NaN sorts after every number, so a sample with one (a ratio 0 / 0) had its median taken
     * from the numbers shifted down a place: 1, NaN, 3 gave a median of 3 and a minimum of 1, a
     * figure that looked sound. It is now refused.
     */
    @Test
    void aNanSampleIsRefusedNotSortedIntoTheFigures() {
        assertThatThrownBy(() -> Stats.of(Arrays.asList(1.0, Double.NaN, 3.0)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("NaN").hasMessageContaining("value 2 of 3");
    }

    @Test
    void aNullSampleIsRefusedWithAMessage() {
        assertThatThrownBy(() -> Stats.of(Arrays.asList(1.0, null)))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("value 2 of 2");
    }
}
