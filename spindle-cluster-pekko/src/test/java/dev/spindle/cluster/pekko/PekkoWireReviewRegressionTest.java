/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.cluster.WireMessage;
import dev.spindle.cluster.testkit.HostilePayloads;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Found in a review of the Pekko transport's wire handling (session 40): nested values read after
 * a frame's seal is checked (a worker's result, the coordinator's task function, a holder's
 * fetched value). Both fixes are in the cluster layer's shared readers ({@code JavaSerial},
 * {@code ValueCodec}), which the Hazelcast transport reads through too.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PekkoWireReviewRegressionTest {

    private static long allocatedByThisThread() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
                .getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    /**
     * Each array's declared length is bounded (by the value limit, and by the value's length),
     * and so is the depth, but not what they make together: every array of a chain as deep as the
     * depth limit may declare as many elements as the value has bytes, and all of them are
     * allocated before the stream runs out. A value of a few hundred bytes and padding made the
     * reader allocate about 20 x 4 (or 8) bytes for each of its bytes: with the largest message
     * limit (64 MiB) one result of a worker makes the coordinator ask for 5 GiB or more, an
     * OutOfMemoryError that Pekko treats as fatal.
     */
    @Test
    void theArraysOfANestedValueTogetherAreBoundedByItsLengthNotOnlyEachAlone() throws Exception {
        int maxBytes = 1 << 20;
        WireCodec codec = new WireCodec(List.of(), maxBytes);
        byte[] chain = HostilePayloads.nestedArrayChain(WireCodec.MAX_DEPTH, maxBytes, maxBytes);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertThat(threads.isThreadAllocatedMemorySupported()).isTrue();
        threads.setThreadAllocatedMemoryEnabled(true);
        long before = allocatedByThisThread();
        assertThatThrownBy(() -> codec.deserialize(chain)).isInstanceOf(SecurityException.class);
        long allocated = allocatedByThisThread() - before;
        assertThat(allocated).as("bytes allocated reading a value of %d bytes", chain.length)
                .isLessThan(32L * maxBytes);
    }

    /**
     * The frame format lets a result's (or a task's) nested bytes be absent, and the decoder
     * takes such a frame; reading the absent value threw a NullPointerException instead of the
     * SecurityException its callers turn into the task's failure
     * ({@code CoordinatorTransportSupport.deliverFinished}, {@code WorkerTransportSupport.receiveCompute}).
     * On the coordinator that exception escaped the endpoint actor: the report and every later
     * body of the worker's frame were lost (the task waited for good) and the actor restarted.
     */
    @Test
    void aResultWithoutItsValueIsRefusedAsUnreadableNotAnUncheckedException() {
        WireCodec codec = new WireCodec(List.of(), 64 * 1024);
        Object decoded = codec.decode(codec.encode(new Wire.Frame(Wire.COORDINATOR, 5L,
                new WireMessage.Finished(0, "k", 1, null, 0, 0)), Wire.Seal.NONE));
        assertThat(decoded).as("a frame the decoder takes").isInstanceOf(Wire.Received.class);
        byte[] value = ((WireMessage.Finished) ((Wire.Received) decoded).frame().single()).value();
        assertThat(value).isNull();
        assertThatThrownBy(() -> codec.deserialize(value)).isInstanceOf(SecurityException.class);
    }
}
