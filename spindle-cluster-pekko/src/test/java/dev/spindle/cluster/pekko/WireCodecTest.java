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
        assertThat(rejection(codec.decode(Hostile.frame(new byte[] {1, 2, 3})))).contains("unreadable");
    }

    @Test
    void aHashBombIsRefusedByTheDepthLimitInBoundedTime() {
        byte[] bomb = Hostile.hashBomb(100);
        // without the depth limit this would run for longer than the universe has existed
        String why = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> rejection(codec.decode(bomb)));
        assertThat(why).contains("allow-list or its limits");
    }

    @Test
    void aHugeDeclaredArrayIsRefusedBeforeItIsAllocated() {
        String why = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> rejection(codec.decode(Hostile.hugeArray())));
        assertThat(why).contains("allow-list or its limits");
    }

    @Test
    void aClassOutsideTheAllowListIsRefused() {
        assertThat(rejection(codec.decode(Hostile.frame(Hostile.javaSerialize(new Wire.Frame(1, new File("/etc"))))))).contains("allow-list");
        assertThatThrownBy(() -> codec.deserialize(Hostile.javaSerialize(new File("x")))).isInstanceOf(SecurityException.class);
        assertThat(rejection(codec.decode(Hostile.frame(Hostile.javaSerialize("just a string"))))).contains("not a frame");
        assertThat(rejection(codec.decode(Hostile.frame(Hostile.javaSerialize(null))))).contains("body is null");
        assertThat(rejection(codec.decode(codec.encode(new Wire.Frame(1, null))))).contains("without a body");
    }

    @Test
    void aValueOverTheLimitCannotBeSentOrRead() {
        assertThatThrownBy(() -> codec.serialize(new byte[64 * 1024])).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("over the value limit");
        assertThatThrownBy(() -> codec.deserialize(new byte[64 * 1024 + 1])).isInstanceOf(SecurityException.class);
    }
}
