/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.InternalSerializationService;
import com.hazelcast.internal.serialization.impl.DefaultSerializationServiceBuilder;
import com.hazelcast.nio.serialization.HazelcastSerializationException;
import java.lang.management.ManagementFactory;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * What a process that can join the Hazelcast cluster without the secret (the open-source edition
 * lets it, see {@link AttackTest}) can make a member do with Spindle's own executor tasks, read
 * here by a member's serialisation service as they are on arrival, without starting members.
 */
class ClusterAttackRegressionTest {

    private static final int LIMIT = HazelcastClusterSettings.DEFAULT_MAX_FRAME_BYTES;

    /** A member's serialisation service with Spindle's factory and the default frame limit. */
    private static InternalSerializationService member(Offences offences) {
        return new DefaultSerializationServiceBuilder()
                .addDataSerializableFactory(SpindleSerializables.FACTORY_ID, new SpindleSerializables(LIMIT, offences))
                .build();
    }

    /**
     * A Deliver task of a dozen bytes that declares a frame just under the limit (64 MiB by
     * default) and carries none of it: the declared length passed the limit check, and the member
     * allocated the whole array before it found the packet ended, so each such packet from an
     * unauthenticated member cost 64 MiB, and a few at once on the partition threads an
     * OutOfMemoryError. The length must also be bounded by the bytes that arrived.
     */
    @Test
    void aTaskDeclaringAFrameItDoesNotCarryAllocatesNoMoreThanItCarries() {
        InternalSerializationService ss = member(new Offences("victim"));
        Data hostile = ss.toData(new AttackTest.DeclaredFrame(LIMIT - 1));
        assertThat(hostile.totalSize()).isLessThan(64);

        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        assertThatThrownBy(() -> ss.toObject(hostile)).isInstanceOf(HazelcastSerializationException.class);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertThat(allocated).as("bytes allocated reading a task of %d bytes that declares %d",
                hostile.totalSize(), LIMIT - 1).isLessThan(4L << 20);
    }

    /** An honest frame of several hundred KiB still arrives whole, byte for byte. */
    @Test
    void aLargeFrameStillArrivesWhole() {
        InternalSerializationService ss = member(new Offences("receiver"));
        for (int size : new int[] {1, 65_535, 65_536, 65_537, 700_001}) {
            byte[] frame = new byte[size];
            new Random(size).nextBytes(frame);
            Deliver read = ss.toObject(ss.toData(new Deliver(frame)));
            assertThat(read.frame).as("a frame of %d bytes", size).isEqualTo(frame);
        }
    }
}
