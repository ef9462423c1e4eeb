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
                .isEqualTo(Incarnations.Proof.WAITING);
        assertThat(ids.prove(1, "a", second)).as("another incarnation at the holder's address")
                .isEqualTo(Incarnations.Proof.WAITING);
        assertThat(ids.prove(1, "b", first)).as("the live incarnation from another member")
                .isEqualTo(Incarnations.Proof.TAKEN);
        assertThat(ids.takeWaiting(1)).as("nothing handed back while the holder lives").isNull();
        assertThat(ids.holder(1)).isEqualTo("a");
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
    void aClaimOnALiveIdWaitsAndIsHandedBackOnceTheIdIsLostUnlessItsClaimantLeft() {
        Incarnations<String> ids = new Incarnations<>();
        assertThat(ids.prove(4, "old", 7)).isEqualTo(Incarnations.Proof.NEW);
        assertThat(ids.prove(4, "early", 8)).isEqualTo(Incarnations.Proof.WAITING);
        assertThat(ids.prove(4, "restarted", 9)).as("the latest claim is kept").isEqualTo(Incarnations.Proof.WAITING);
        assertThat(ids.accepts(4, "restarted", 9)).as("nothing from a waiting claimant").isFalse();
        assertThat(ids.lose(4)).isTrue();
        Incarnations.Claim<String> claim = ids.takeWaiting(4);
        assertThat(claim).isEqualTo(new Incarnations.Claim<>("restarted", 9L));
        assertThat(ids.takeWaiting(4)).as("handed back once").isNull();
        assertThat(ids.prove(4, claim.holder(), claim.incarnation())).isEqualTo(Incarnations.Proof.REJOINED);

        assertThat(ids.prove(4, "same-address", 10)).isEqualTo(Incarnations.Proof.WAITING);
        ids.withdraw(4, "same-address", 11);
        ids.withdraw(4, "other", 10);
        ids.lose(4);
        assertThat(ids.takeWaiting(4)).as("withdrawn only by its own holder and incarnation")
                .isEqualTo(new Incarnations.Claim<>("same-address", 10L));
        assertThat(ids.prove(5, "x", 1)).isEqualTo(Incarnations.Proof.NEW);
        assertThat(ids.prove(5, "y", 2)).isEqualTo(Incarnations.Proof.WAITING);
        ids.withdraw(5, "y", 2);
        ids.lose(5);
        assertThat(ids.takeWaiting(5)).as("the claimant left").isNull();
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
