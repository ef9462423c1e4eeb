/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.spindle.cluster.Message;
import java.io.File;
import java.time.Duration;
import java.util.List;
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
        assertThat(codec.decode(codec.encode(frame))).isEqualTo(frame);
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
    }

    @Test
    void aHashBombInANestedValueIsRefusedByTheDepthLimitInBoundedTime() {
        Wire.Frame frame = (Wire.Frame) codec.decode(Hostile.hashBomb(100));   // the frame itself is well formed
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
        assertThatThrownBy(() -> codec.encode(new Wire.Frame(1, new File("/etc")))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no wire form for java.io.File");
        assertThatThrownBy(() -> new Wire.Frame(1, null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void aBatchRoundTripsInOrder() {
        Wire.Frame frame = new Wire.Frame(Wire.COORDINATOR, 42L, List.of(new Message.DataAdded(3, "a", 10),
                new Wire.ProbeReply(3, 2), new Message.TaskRunning(3, "b", 1, 99)));
        assertThat(codec.decode(codec.encode(frame))).isEqualTo(frame);
    }

    @Test
    void bytesAfterTheLastMessageOrAnUnknownTagAreRefused() {
        byte[] good = codec.encode(new Wire.Frame(2, new Message.ReleaseKey("k")));
        byte[] longer = java.util.Arrays.copyOf(good, good.length + 1);
        java.nio.ByteBuffer.wrap(longer).putInt(4, good.length + 1 - WireCodec.HEADER_BYTES);
        assertThat(rejection(codec.decode(longer))).contains("after the last message");
        byte[] unknown = good.clone();
        unknown[WireCodec.HEADER_BYTES + 1 + 8 + 1] = 0x3F;             // the tag, after addressee, incarnation, count
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
