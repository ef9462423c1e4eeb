/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.Message;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The incarnation header field: checked against the sender's current one, with a replay window each. */
class SessionTest {

    private static final UUID SESSION = UUID.randomUUID();

    private static Wire.Frame from(int sender, long incarnation, long seq) {
        return new Wire.Frame(SESSION, sender, incarnation, Wire.COORDINATOR, seq, new Message.DataAdded(sender, "k"));
    }

    @Test
    void onlyTheSendersCurrentIncarnationIsAcceptedAndEachHasItsOwnSequence() {
        Offences offences = new Offences("test");
        Session coordinator = new Session(Wire.COORDINATOR, Wire.COORDINATOR_INCARNATION, offences);
        coordinator.join(SESSION);
        long first = dev.spindle.cluster.Incarnations.newIncarnation();
        long second = dev.spindle.cluster.Incarnations.newIncarnation();
        assertThat(first).isNotEqualTo(Wire.COORDINATOR_INCARNATION).isNotEqualTo(second);

        assertThat(coordinator.accept(from(1, first, 1), first)).isTrue();
        assertThat(coordinator.accept(from(1, first, 1), first)).as("a repeat").isFalse();
        // worker 1 restarted as `second`: its sequence starts again, the old process's frames are refused
        assertThat(coordinator.accept(from(1, second, 1), second)).isTrue();
        assertThat(coordinator.accept(from(1, first, 2), second)).as("a late frame of the old process").isFalse();
        assertThat(coordinator.accept(from(1, 0, 3), second)).as("no incarnation").isFalse();
        assertThat(coordinator.accept(from(1, second, 2), second)).isTrue();
        assertThat(offences.count(Offences.Kind.REPLAY)).isEqualTo(3);
    }

    @Test
    void framesCarryTheSendersIncarnation() {
        Session worker = new Session(2, 42, new Offences("test"));
        worker.join(SESSION);
        Wire.Frame f = worker.frame(Wire.COORDINATOR, Wire.COORDINATOR_INCARNATION, "x");
        assertThat(f.incarnation()).isEqualTo(42);
        assertThat(f.sender()).isEqualTo(2);
    }

    @Test
    void aHandshakeResponseCarriesTheIncarnationAndIsCheckedForLength() {
        byte[] encoded = new Handshake.Response(3, 77L, UUID.randomUUID(), Handshake.nonce(),
                new byte[FrameCodec.MAC_BYTES]).encode();
        assertThat(Handshake.response(encoded).incarnation()).isEqualTo(77L);
        assertThat(Handshake.response(java.util.Arrays.copyOf(encoded, encoded.length - 8))).isNull();
    }
}
