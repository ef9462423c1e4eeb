/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.quick;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The idle-CPU row of {@code ./spindle bench} from hand-made window figures (% of one core). A
 * window where Spindle's idle pool used no CPU has no ratio (FJP / 0); such windows must not
 * leave the spread, or make the headline ratio "n/a", without the row saying so.
 */
class IdleCpuRowTest {

    private static final String SETTINGS = "fresh pool, 200 ms settle, 3 x 500 ms windows";

    /**
     * Spindle 0, 0.4, 0 against FJP 1.0, 0.8, 1.2: only the second window has a ratio (2.0), so the
     * spread is one window's, and Spindle's median, 0, gives no headline ratio. Both were shown as
     * if complete: a spread "2.00-2.00" over every window and a bare "n/a".
     */
    @Test
    void windowsWhereSpindleUsedNoCpuAreNamedNotDroppedSilently() {
        Row r = QuickHarness.idleRow(List.of(0.0, 0.4, 0.0), List.of(1.0, 0.8, 1.2), SETTINGS);
        assertThat(r.ratioSpread().n()).isEqualTo(1);
        assertThat(r.ratioSpread().median()).isEqualTo(2.0);
        assertThat(r.ratio()).isNaN();
        assertThat(r.note()).startsWith(SETTINGS)
                .contains("spread over 1 of 3 windows")
                .contains("ratio n/a: Spindle's median is 0 %core, FJP's 1.00");
    }

    /** Every window has a ratio: the note is the settings alone, and the ratio is FJP's median / Spindle's. */
    @Test
    void windowsThatAllHaveARatioAddNothingToTheNote() {
        Row r = QuickHarness.idleRow(List.of(0.5, 0.4, 1.0), List.of(1.0, 0.8, 1.0), SETTINGS);
        assertThat(r.ratio()).isEqualTo(1.0 / 0.5);   // medians: FJP 1.0, Spindle 0.5
        assertThat(r.ratioSpread().n()).isEqualTo(3);
        assertThat(r.note()).isEqualTo(SETTINGS);
    }

    /** Neither pool used any CPU: no ratio anywhere, and the note says why. */
    @Test
    void twoPoolsThatUsedNoCpuHaveNoRatioAndSaySo() {
        Row r = QuickHarness.idleRow(List.of(0.0, 0.0), List.of(0.0, 0.0), SETTINGS);
        assertThat(r.ratio()).isNaN();
        assertThat(r.ratioSpread().n()).isZero();
        assertThat(r.note()).contains("spread over 0 of 2 windows").contains("ratio n/a: both medians are 0");
    }
}
