/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.cluster.testkit.HostilePayloads;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A holder of the secret (any worker) plays the attacker against the coordinator's reading of a
 * nested value: the value's bytes are signed, so they reach {@link FrameCodec#deserialize}. Each
 * test failed on the code before its fix
 * (docs/measurements/2026-11-29-s26/transport-attack-review-before-after.txt).
 */
class FrameCodecRegressionTest {

    private static final byte[] SECRET = "0123456789abcdef-test".getBytes(StandardCharsets.UTF_8);

    private final FrameCodec codec = new FrameCodec(SECRET, List.of());

    /**
     * A Java stream of a few dozen bytes that declares a {@code long[99_000_000]}: under the
     * allow-list's array bound, so without a bound by the stream's own length the reader
     * allocated 792 MB before it found the stream cut.
     */
    @Test
    void anArrayLongerThanItsStreamIsRefusedBeforeItIsAllocated() {
        byte[] stream = HostilePayloads.javaSerialize(new long[HostilePayloads.ARRAY_MARKER]);
        byte[] marker = ByteBuffer.allocate(4).putInt(HostilePayloads.ARRAY_MARKER).array();
        int at = -1;
        for (int i = 0; i + 4 <= stream.length && at < 0; i++) {
            if (Arrays.equals(stream, i, i + 4, marker, 0, 4)) {
                at = i;
            }
        }
        assertThat(at).isPositive();
        ByteBuffer.wrap(stream, at, 4).putInt(99_000_000);
        byte[] hostile = Arrays.copyOf(stream, at + 4 + 16);

        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        assertThatThrownBy(() -> codec.deserialize(hostile)).isInstanceOf(SecurityException.class)
                .hasMessageContaining("refused by the allow-list");
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertThat(allocated).as("bytes allocated reading a %d-byte value", hostile.length).isLessThan(16L << 20);
    }

    /**
     * Nested sets whose reading hashes about 2^depth times: the allow-list's depth bound must stop
     * them at the bound Pekko's codec and WorkerMain's JVM-wide filter use (20), not at 64, where
     * a signed bomb keeps a coordinator thread busy for ever.
     */
    @Test
    void aSignedHashBombDeeperThanTwentyIsRefused() {
        byte[] bomb = HostilePayloads.javaSerialize(HostilePayloads.hashBomb(24));
        assertThatThrownBy(() -> codec.deserialize(bomb)).isInstanceOf(SecurityException.class)
                .hasMessageContaining("refused by the allow-list");
    }
}
