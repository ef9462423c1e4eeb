/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The transports' close runs every step: what a step throws ends neither the close nor the member's shutdown. */
class CloseStepsTest {

    @Test
    void everyStepRunsAndTheFirstThrowableIsThrownWithTheLaterOnesSuppressed() {
        List<String> ran = new ArrayList<>();
        OutOfMemoryError first = new OutOfMemoryError("pool");
        IllegalStateException second = new IllegalStateException("transport");
        assertThatThrownBy(() -> CloseSteps.closeAll(
                () -> { ran.add("node"); throw first; },
                () -> { ran.add("transport"); throw second; },
                () -> ran.add("member")))
                .isSameAs(first);
        assertThat(ran).containsExactly("node", "transport", "member");
        assertThat(first.getSuppressed()).containsExactly(second);
    }

    @Test
    void aCloseWhoseStepsReturnThrowsNothing() {
        List<String> ran = new ArrayList<>();
        CloseSteps.closeAll(() -> ran.add("a"), () -> ran.add("b"));
        assertThat(ran).containsExactly("a", "b");
        assertThat(CloseSteps.runAll()).isNull();
    }

    @Test
    void theSameThrowableTwiceIsNotSuppressedInItself() {
        RuntimeException e = new RuntimeException("shared");
        assertThat(CloseSteps.runAll(() -> { throw e; }, () -> { throw e; })).isSameAs(e);
        assertThat(e.getSuppressed()).isEmpty();
    }

    @Test
    void aNullStepIsRefusedBeforeAnyStepRuns() {
        List<String> ran = new ArrayList<>();
        assertThatThrownBy(() -> CloseSteps.closeAll(() -> ran.add("a"), null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("close step 1");
        assertThat(ran).isEmpty();
    }
}
