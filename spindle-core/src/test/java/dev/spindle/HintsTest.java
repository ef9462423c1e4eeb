/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class HintsTest {

    @Test
    void defaultsAreZeroPriorityFirstMemberNoWorker() {
        assertThat(Hints.DEFAULT.priority()).isZero();
        assertThat(Hints.DEFAULT.schedulerIndex()).isZero();
        assertThat(Hints.DEFAULT.workerIndex()).isEqualTo(OptionalInt.empty());
        assertThat(Hints.DEFAULT.workerIndexOr(7)).isEqualTo(7);
    }

    @Test
    void withersReturnNewValuesAndLeaveTheReceiverAlone() {
        Hints h = Hints.DEFAULT.withPriority(-5).withSchedulerIndex(2).withWorkerIndex(3);
        assertThat(h.priority()).isEqualTo(-5);
        assertThat(h.schedulerIndex()).isEqualTo(2);
        assertThat(h.workerIndex()).hasValue(3);
        assertThat(h.workerIndexOr(9)).isEqualTo(3);
        assertThat(h.withoutWorkerIndex().workerIndex()).isEmpty();
        assertThat(Hints.DEFAULT.priority()).isZero();
        assertThat(Hints.ofPriority(4)).isEqualTo(Hints.DEFAULT.withPriority(4));
    }

    @Test
    void comparesByValue() {
        Hints a = Hints.DEFAULT.withPriority(1).withWorkerIndex(2);
        Hints b = Hints.ofPriority(1).withWorkerIndex(2);
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        assertThat(a).isNotEqualTo(a.withSchedulerIndex(1));
        assertThat(a.toString()).contains("priority=1", "workerIndex=2");
        assertThat(Hints.DEFAULT.toString()).contains("workerIndex=none");
    }

    @Test
    void yieldingIsAPartOfTheValue() {
        assertThat(Hints.DEFAULT.yielding()).isFalse();
        Hints y = Hints.ofPriority(2).withYielding(true);
        assertThat(y.yielding()).isTrue();
        assertThat(y.priority()).isEqualTo(2);
        assertThat(y).isNotEqualTo(Hints.ofPriority(2));
        assertThat(y.withYielding(false)).isEqualTo(Hints.ofPriority(2));
        assertThat(y.withWorkerIndex(1).withoutWorkerIndex().yielding()).isTrue();
        assertThat(y.toString()).contains("yielding");
    }

    @Test
    void rejectsNegativeIndices() {
        assertThatThrownBy(() -> Hints.DEFAULT.withSchedulerIndex(-1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("schedulerIndex");
        assertThatThrownBy(() -> Hints.DEFAULT.withWorkerIndex(-2))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("workerIndex");
    }

    @Test
    void defaultSchedulerMethodChecksArgumentsAndRuns() {
        List<Runnable> ran = new ArrayList<>();
        Scheduler direct = Runnable::run;
        Runnable task = () -> ran.add(null);
        direct.execute(task, Hints.ofPriority(3));
        assertThat(ran).hasSize(1);
        assertThatThrownBy(() -> direct.execute(null, Hints.DEFAULT))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("task");
        assertThatThrownBy(() -> direct.execute(task, null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("hints");
    }
}
