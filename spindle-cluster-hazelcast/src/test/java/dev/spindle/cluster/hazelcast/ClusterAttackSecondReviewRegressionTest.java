/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.internal.serialization.InternalSerializationService;
import com.hazelcast.internal.serialization.impl.DefaultSerializationServiceBuilder;
import com.hazelcast.nio.serialization.HazelcastSerializationException;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A second look at how a frame task reads its declared length ({@link FrameTask#readFully}), on a
 * member's serialisation service as tasks are read on arrival.
 */
class ClusterAttackSecondReviewRegressionTest {

    private static final int LIMIT = HazelcastClusterSettings.DEFAULT_MAX_FRAME_BYTES;

    private static InternalSerializationService member() {
        return new DefaultSerializationServiceBuilder()
                .addDataSerializableFactory(SpindleSerializables.FACTORY_ID, new SpindleSerializables(LIMIT, new Offences("m")))
                .build();
    }

    /**
     * A task that carries fewer bytes than it declares is truncated, and must not be read. The
     * member's input fills what it has and returns without complaint when asked for more
     * (Hazelcast's in-memory {@code readFully} ends early rather than throw), so a task of 10
     * bytes declaring 100, or one whose last chunk is short, was read as a frame of the declared
     * length padded with zeros and handed to the endpoint as if it had arrived whole.
     */
    @Test
    void aTaskCarryingLessThanItDeclaresIsNotReadAsAPaddedFrame() {
        InternalSerializationService ss = member();
        int[][] cases = {{100, 10}, {100, 99}, {65_536, 65_535}, {65_537, 65_536}, {700_001, 600_000}, {LIMIT, 1}};
        for (int[] c : cases) {
            byte[] carried = new byte[c[1]];
            new Random(c[1]).nextBytes(carried);
            assertThatThrownBy(() -> {
                Deliver read = ss.toObject(ss.toData(new AttackTest.DeclaredFrame(c[0], carried)));
                throw new AssertionError("read a frame of " + (read.frame == null ? "null" : read.frame.length + " bytes")
                        + ", zeros after byte " + c[1] + ": " + (read.frame != null && c[1] < read.frame.length
                        && Arrays.equals(read.frame, c[1], read.frame.length, new byte[read.frame.length - c[1]], 0,
                                read.frame.length - c[1])));
            }).as("a task declaring %d bytes and carrying %d", c[0], c[1])
                    .isInstanceOf(HazelcastSerializationException.class);
        }
    }

    /** Lengths at the edges: empty, exactly the limit, one over it, and negative. */
    @Test
    void lengthsAtTheEdges() {
        InternalSerializationService ss = member();
        Deliver empty = ss.toObject(ss.toData(new Deliver(new byte[0])));
        assertThat(empty.frame).isEmpty();
        assertThat(((Deliver) ss.toObject(ss.toData(new AttackTest.DeclaredFrame(LIMIT + 1, new byte[8])))).frame).isNull();
        assertThat(((Deliver) ss.toObject(ss.toData(new AttackTest.DeclaredFrame(-1, new byte[8])))).frame).isNull();
        assertThatThrownBy(() -> ss.toObject(ss.toData(new AttackTest.DeclaredFrame(LIMIT, new byte[0]))))
                .isInstanceOf(HazelcastSerializationException.class);
        for (int size : new int[] {131_072, 131_073, 262_143}) {
            byte[] frame = new byte[size];
            new Random(size).nextBytes(frame);
            assertThat(((Deliver) ss.toObject(ss.toData(new Deliver(frame)))).frame).isEqualTo(frame);
        }
    }
}
