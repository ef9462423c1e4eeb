/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.spindle.cluster.FrameMac;
import dev.spindle.cluster.Message;
import dev.spindle.cluster.MessageCodec;
import java.io.File;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WireCodecTest {

    private final WireCodec codec = new WireCodec(List.of(), 64 * 1024);

    private static String rejection(Object decoded) {
        assertThat(decoded).isInstanceOf(Wire.Rejected.class);
        return ((Wire.Rejected) decoded).why();
    }

    @Test
    void aFrameRoundTrips() {
        Wire.Frame frame = new Wire.Frame(2, new Message.StealRequest(7, "k", 3));
        assertThat(received(codec.encode(frame, Wire.Seal.NONE)).frame()).isEqualTo(frame);
    }

    private Wire.Received received(byte[] bytes) {
        Object decoded = codec.decode(bytes);
        assertThat(decoded).isInstanceOf(Wire.Received.class);
        return (Wire.Received) decoded;
    }

    @Test
    void aSealVouchesForEverythingAfterTheAuthenticatorAndNothingElseVerifies() {
        byte[] kc = FrameMac.randomToken();
        byte[] kw = FrameMac.randomToken();
        PairKey key = PairKey.derive(kc, kw);
        byte[] sealed = codec.encode(new Wire.Frame(2, new Message.ReleaseKey("k")), key);
        assertThat(received(sealed).sealedBy(PairKey.derive(kc, kw))).as("the same tokens give the same key").isTrue();
        assertThat(received(sealed).sealedBy(PairKey.derive(kw, kc))).as("the tokens' roles matter").isFalse();
        assertThat(received(sealed).sealedBy(PairKey.derive(kc, FrameMac.randomToken()))).isFalse();
        assertThat(received(sealed).sealedBy(null)).isFalse();
        assertThat(received(codec.encode(new Wire.Frame(2, new Message.ReleaseKey("k")), Wire.Seal.NONE)).sealedBy(key))
                .as("unsealed").isFalse();
        for (int i = WireCodec.AUTH_OFFSET; i < sealed.length; i++) {
            byte[] flipped = sealed.clone();
            flipped[i] ^= 1;
            Object decoded = codec.decode(flipped);
            assertThat(decoded instanceof Wire.Received r && r.sealedBy(key)).as("byte %d flipped", i).isFalse();
        }
    }

    @Test
    void aTokenTravelsAsTheAuthenticator() {
        byte[] nonce = FrameMac.randomToken();
        Wire.Received r = received(codec.encode(new Wire.Frame(2, new Message.ReleaseKey("k")), Wire.Seal.token(nonce)));
        assertThat(r.carries(nonce)).isTrue();
        assertThat(r.carries(FrameMac.randomToken())).isFalse();
        assertThat(r.carries(null)).isFalse();
        assertThatThrownBy(() -> Wire.Seal.token(new byte[5])).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aLyingOrOversizedDeclaredLengthIsRefusedBeforeReading() {
        assertThat(rejection(codec.decode(Hostile.lyingLength(Integer.MAX_VALUE)))).contains("declared length");
        assertThat(rejection(codec.decode(Hostile.lyingLength(-1)))).contains("declared length");
        assertThat(rejection(codec.decode(Hostile.lyingLength(100)))).contains("but 16 bytes follow");
    }

    @Test
    void inputOverTheLimitIsRefusedUnread() {
        assertThat(rejection(codec.decode(new byte[WireCodec.HEADER_BYTES + codec.frameLimit() + 1]))).contains("exceeds the limit");
    }

    @Test
    void shortOrForeignBytesAreRefused() {
        assertThat(rejection(codec.decode(new byte[3]))).contains("shorter");
        assertThat(rejection(codec.decode(null))).contains("shorter");
        assertThat(rejection(codec.decode(new byte[] {1, 2, 3, 4, 0, 0, 0, 0}))).contains("magic");
        assertThat(rejection(codec.decode(Hostile.frame(new byte[] {1, 2, 3})))).contains("malformed frame");
        // a Java-serialised frame, as the previous format was: its first byte is no tag this format knows
        assertThat(rejection(codec.decode(Hostile.frame(Hostile.javaSerialize("just a string"))))).contains("malformed frame");
        assertThat(rejection(codec.decode(new byte[] {0x53, 0x50, 0x4B, 0x01, 0, 0, 0, 0}))).contains("format version 1");
        assertThat(rejection(codec.decode(new byte[] {0x53, 0x50, 0x4B, 0x02, 0, 0, 0, 0}))).contains("format version 2");
    }

    @Test
    void aHashBombInANestedValueIsRefusedByTheDepthLimitInBoundedTime() {
        Wire.Frame frame = received(Hostile.hashBomb(100)).frame();   // the frame itself is well formed
        byte[] bomb = ((dev.spindle.cluster.WireMessage.Finished) frame.single()).value();
        // without the depth limit this would run for longer than the universe has existed
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThatThrownBy(() -> codec.deserialize(bomb))
                .isInstanceOf(SecurityException.class).hasMessageContaining("allow-list or its limits"));
    }

    @Test
    void aHugeDeclaredArrayInANestedValueIsRefusedBeforeItIsAllocated() {
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThatThrownBy(
                () -> codec.deserialize(Hostile.hugeArrayValue()))
                .isInstanceOf(SecurityException.class).hasMessageContaining("allow-list or its limits"));
    }

    @Test
    void aClassOutsideTheAllowListIsRefused() {
        assertThatThrownBy(() -> codec.deserialize(Hostile.javaSerialize(new File("x")))).isInstanceOf(SecurityException.class)
                .hasMessageContaining("allow-list");
        assertThatThrownBy(() -> codec.encode(new Wire.Frame(1, new File("/etc")), Wire.Seal.NONE)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no wire form for java.io.File");
        assertThatThrownBy(() -> new Wire.Frame(1, null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void aBatchRoundTripsInOrder() {
        Wire.Frame frame = new Wire.Frame(Wire.COORDINATOR, 42L, List.of(new Message.DataAdded(3, "a", 10),
                new Wire.ProbeReply(3, Map.of(0, 7L, 4, -9_000_000_000L), FrameMac.randomToken(), FrameMac.randomToken()),
                new Wire.Probe(4, FrameMac.randomToken()), new Message.TaskRunning(3, "b", 1, 99)));
        assertThat(received(codec.encode(frame, Wire.Seal.NONE)).frame()).isEqualTo(frame);
    }

    /**
     * A probe reply names the workers its sender knows: a count of them that the bytes left cannot
     * hold, or a worker named twice, refuse the frame; so does the retired reply that gave only
     * their number (its tag, the one after the probe's).
     */
    @Test
    void aProbeReplyNamingItsPeersIsCheckedAndTheOldOneRefused() {
        byte[] good = codec.encode(new Wire.Frame(Wire.COORDINATOR, 42L,
                List.of(new Wire.ProbeReply(3, Map.of(1, 5L), FrameMac.randomToken(), FrameMac.randomToken()))),
                Wire.Seal.NONE);
        // the tag, after addressee, incarnation, number, count; then the worker (3), the peer count
        int tag = WireCodec.SIGNED_OFFSET + 1 + 8 + 1 + 1;
        assertThat(good[tag]).isEqualTo((byte) WireCodec.PROBE_REPLY);
        assertThat(good[tag + 2]).isEqualTo((byte) 1);
        byte[] tooMany = good.clone();
        tooMany[tag + 2] = 0x7F;
        assertThat(rejection(codec.decode(tooMany))).contains("peer count 127 over its bound");
        byte[] twice = codec.encode(new Wire.Frame(Wire.COORDINATOR, 42L,
                List.of(new Wire.ProbeReply(3, Map.of(1, 5L, 2, 5L), FrameMac.randomToken(), FrameMac.randomToken()))),
                Wire.Seal.NONE);
        twice[tag + 3 + 2] = twice[tag + 3];        // the second peer's id made the first's
        assertThat(rejection(codec.decode(twice))).contains("a peer named twice");
        byte[] old = good.clone();
        old[tag] = (byte) (MessageCodec.FIRST_TRANSPORT_TAG + 1);
        assertThat(rejection(codec.decode(old))).contains("unknown message tag 0x41");
    }

    @Test
    void bytesAfterTheLastMessageOrAnUnknownTagAreRefused() {
        byte[] good = codec.encode(new Wire.Frame(2, new Message.ReleaseKey("k")), Wire.Seal.NONE);
        byte[] longer = java.util.Arrays.copyOf(good, good.length + 1);
        java.nio.ByteBuffer.wrap(longer).putInt(4, good.length + 1 - WireCodec.HEADER_BYTES);
        assertThat(rejection(codec.decode(longer))).contains("after the last message");
        byte[] unknown = good.clone();
        unknown[WireCodec.SIGNED_OFFSET + 1 + 8 + 1 + 1] = 0x3F;   // the tag, after addressee, incarnation, number, count
        assertThat(rejection(codec.decode(unknown))).contains("unknown message tag 0x3f");
        byte[] truncated = java.util.Arrays.copyOf(good, good.length - 1);
        java.nio.ByteBuffer.wrap(truncated).putInt(4, good.length - 1 - WireCodec.HEADER_BYTES);
        assertThat(rejection(codec.decode(truncated))).contains("malformed frame");
    }

    @Test
    void aValueOverTheLimitCannotBeSentOrRead() {
        assertThatThrownBy(() -> codec.serialize(new byte[64 * 1024])).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("over the value limit");
        assertThatThrownBy(() -> codec.deserialize(new byte[64 * 1024 + 1])).isInstanceOf(SecurityException.class);
    }
}
