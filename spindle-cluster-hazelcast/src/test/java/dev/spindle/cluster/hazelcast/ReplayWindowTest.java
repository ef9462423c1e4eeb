/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The replay window and the handshake's parsing, by hand: duplicates, old numbers, malformed input. */
class ReplayWindowTest {

    @Test
    void eachNumberIsAcceptedOnceInAnyOrderWithinTheWindow() {
        ReplayWindow w = new ReplayWindow();
        assertThat(w.accept(5)).isTrue();
        assertThat(w.accept(3)).isTrue();                 // late but new
        assertThat(w.accept(5)).isFalse();                // duplicate of the highest
        assertThat(w.accept(3)).isFalse();                // duplicate below it
        assertThat(w.accept(4)).isTrue();
        assertThat(w.accept(0)).isFalse();
        assertThat(w.accept(-1)).isFalse();
    }

    @Test
    void numbersThatFellOutOfTheWindowAreRefusedAndSlotsAreReused() {
        ReplayWindow w = new ReplayWindow();
        assertThat(w.accept(1)).isTrue();
        assertThat(w.accept(1 + ReplayWindow.WINDOW)).isTrue();   // same slot, new number
        assertThat(w.accept(2)).isTrue();                         // still inside the window
        assertThat(w.accept(1)).isFalse();                        // too old now
        assertThat(w.accept(10 * ReplayWindow.WINDOW)).isTrue();  // a jump clears the window
        assertThat(w.accept(10 * ReplayWindow.WINDOW - 1)).isTrue();
        assertThat(w.accept(9 * ReplayWindow.WINDOW)).isFalse();
    }

    @Test
    void malformedHandshakeMessagesParseToNothing() {
        FrameCodec codec = new FrameCodec("replay-window-secret-0123".getBytes(StandardCharsets.UTF_8), List.of());
        UUID s = UUID.randomUUID();
        byte[] verdict = new Handshake.Verdict(s, UUID.randomUUID(), Handshake.nonce(), false, "taken",
                codec.mac(new byte[1])).encode();
        assertThat(Handshake.verdict(verdict)).isNotNull().extracting(Handshake.Verdict::reason).isEqualTo("taken");
        byte[] lying = verdict.clone();
        lying[1 + 32 + Handshake.NONCE_BYTES + 1] = (byte) 0xFF;   // declares a 65,280-byte reason it does not carry
        assertThat(Handshake.verdict(lying)).isNull();
        assertThat(Handshake.verdict(Arrays.copyOf(verdict, verdict.length - 1))).isNull();
        assertThat(Handshake.verdict(new byte[1 << 16])).isNull();
        byte[] waits = new Handshake.Verdict(s, s, Handshake.nonce(), Handshake.WAITING, "held", codec.mac(new byte[1]))
                .encode();
        assertThat(Handshake.verdict(waits)).isNotNull().matches(Handshake.Verdict::waiting)
                .matches(v -> !v.accepted());
        byte[] unknown = waits.clone();
        unknown[1 + 32 + Handshake.NONCE_BYTES] = 3;      // no such outcome
        assertThat(Handshake.verdict(unknown)).isNull();
        UUID w = UUID.randomUUID();
        byte[] n = Handshake.nonce();
        assertThat(Handshake.verdictMac(codec, s, s, w, n, n, 1, 5, Handshake.WAITING, "held"))
                .as("a waiting verdict's proof is not a refusal's or an acceptance's")
                .isNotEqualTo(Handshake.verdictMac(codec, s, s, w, n, n, 1, 5, Handshake.REFUSED, "held"))
                .isNotEqualTo(Handshake.verdictMac(codec, s, s, w, n, n, 1, 5, Handshake.ACCEPTED, "held"));
        byte[] challenge = new Handshake.Challenge(s, s, s, Handshake.nonce()).encode();
        assertThat(Handshake.challenge(challenge)).isNotNull();
        assertThat(Handshake.challenge(Arrays.copyOf(challenge, challenge.length + 1))).isNull();
        assertThat(Handshake.response(challenge)).isNull();
        assertThat(Handshake.type(new byte[0])).isZero();
    }
}
