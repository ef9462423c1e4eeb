/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The rules both transports follow for which process holds a worker id ({@link Incarnations}). */
class IncarnationsTest {

    @Test
    void anIdIsHeldByOneLiveProcessAndTakenAgainOnlyByANewIncarnationOnceLost() {
        Incarnations<String> ids = new Incarnations<>();
        long first = Incarnations.newIncarnation();
        long second = Incarnations.newIncarnation();
        assertThat(first).isNotEqualTo(Incarnations.NONE).isNotEqualTo(second);

        assertThat(ids.prove(1, "a", first)).isEqualTo(Incarnations.Proof.NEW);
        assertThat(ids.prove(1, "a", first)).as("the same process again").isEqualTo(Incarnations.Proof.NEW);
        assertThat(ids.prove(1, "b", second)).as("another process while the holder lives")
                .isEqualTo(Incarnations.Proof.TAKEN);
        assertThat(ids.prove(1, "a", second)).as("another incarnation at the holder's address")
                .isEqualTo(Incarnations.Proof.TAKEN);
        assertThat(ids.prove(2, "c", Incarnations.NONE)).as("no incarnation").isEqualTo(Incarnations.Proof.TAKEN);
        assertThat(ids.accepts(1, "a", first)).isTrue();
        assertThat(ids.accepts(1, "a", second)).isFalse();

        assertThat(ids.lose(1)).isTrue();
        assertThat(ids.lose(1)).as("each loss reported once").isFalse();
        assertThat(ids.holder(1)).isNull();
        assertThat(ids.accepts(1, "a", first)).as("nothing from a lost process").isFalse();
        assertThat(ids.prove(1, "a", first)).as("the lost incarnation, for good").isEqualTo(Incarnations.Proof.TAKEN);
        assertThat(ids.prove(1, "a", second)).as("a new process at the same address").isEqualTo(Incarnations.Proof.REJOINED);
        assertThat(ids.current(1)).isEqualTo(second);
        assertThat(ids.accepts(1, "a", first)).as("a late frame of the lost process").isFalse();
        assertThat(ids.accepts(1, "a", second)).isTrue();
        assertThat(ids.live()).containsOnlyKeys(1);
    }

    @Test
    void aWorkerAdoptsTheCoordinatorsWord() {
        Incarnations<String> ids = new Incarnations<>();
        ids.prove(3, "old", 5);
        ids.lose(3);
        ids.adopt(3, "new", 6);
        assertThat(ids.holder(3)).isEqualTo("new");
        assertThat(ids.isLost(3)).isFalse();
        assertThat(ids.idOf("new")).isEqualTo(3);
        assertThat(ids.idOf("old")).isEqualTo(-1);
    }
}
