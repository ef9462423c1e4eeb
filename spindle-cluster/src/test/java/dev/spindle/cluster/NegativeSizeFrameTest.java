/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker's report carries sizes and durations it measured, which are never negative: the
 * scheduler sums the sizes for placement (saturated sums that assume sizes of 0 or more), the
 * bytes moved and a worker's memory, and averages the durations into its estimates. A frame
 * crafted with a negative one was read as any other: a result of -2^62 bytes offset the sizes of
 * a task's other inputs in what a worker lacking them all had to fetch, so that it could look the
 * cheapest place for the task, a copy of -2^62 bytes made the bytes moved read negative, and a
 * negative duration a kind of task look as if it took less than no time. It is refused now as a
 * malformed frame, as a negative length is.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NegativeSizeFrameTest {

    private static final long NEGATIVE = -(1L << 62);

    @Test
    void aResultWithANegativeSizeOrDurationIsRefused() {
        assertRefused(new WireWriter().varLong(1).u8(MessageCodec.FINISHED).zigZag(0).string("k").zigZag(1)
                .bytes(new byte[0]).zigZag(NEGATIVE).zigZag(1), "size");
        assertRefused(new WireWriter().varLong(1).u8(MessageCodec.FINISHED).zigZag(0).string("k").zigZag(1)
                .bytes(new byte[0]).zigZag(1).zigZag(-1), "duration");
    }

    @Test
    void aCopyWithANegativeSizeIsRefused() {
        assertRefused(new WireWriter().varLong(1).u8(MessageCodec.DATA_ADDED).zigZag(0).string("k").zigZag(NEGATIVE),
                "size");
        assertRefused(new WireWriter().varLong(1).u8(MessageCodec.DATA_ADDED_2).zigZag(0).string("k").zigZag(NEGATIVE)
                .zigZag(0), "size");
    }

    @Test
    void aFailureOrARunningTaskWithANegativeDurationIsRefused() {
        assertRefused(new WireWriter().varLong(1).u8(MessageCodec.ERRED).zigZag(0).string("k").zigZag(1).string("E")
                .string(null).zigZag(-1).varLong(0), "duration");
        assertRefused(new WireWriter().varLong(1).u8(MessageCodec.RUNNING).zigZag(0).string("k").zigZag(1).zigZag(-1),
                "duration");
    }

    @Test
    void aMemoryReportWithANegativeSizeIsRefused() {
        assertRefused(new WireWriter().varLong(1).u8(MessageCodec.MEMORY_REPORT).zigZag(0).zigZag(NEGATIVE).zigZag(0)
                .bool(false), "size");
        assertRefused(new WireWriter().varLong(1).u8(MessageCodec.MEMORY_REPORT).zigZag(0).zigZag(0).zigZag(NEGATIVE)
                .bool(false), "size");
        assertRefused(new WireWriter().varLong(1).u8(MessageCodec.MEMORY_STALL).zigZag(0).bool(true).zigZag(0)
                .zigZag(NEGATIVE).zigZag(100).zigZag(1), "size");
        assertRefused(new WireWriter().varLong(1).u8(MessageCodec.MEMORY_STALL).zigZag(0).bool(true).zigZag(0)
                .zigZag(0).zigZag(NEGATIVE).zigZag(1), "size");
    }

    @Test
    void zeroSizesAndDurationsStillTravel() {
        List<Object> bodies = List.of(new WireMessage.Finished(0, "k", 1, new byte[0], 0, 0),
                new Message.DataAdded(0, "k", 0), new Message.TaskRunning(0, "k", 1, 0),
                new Message.MemoryReport(0, 0, 0, false), new Message.MemoryStall(0, false, 0, 0, 0, 0, null));
        WireWriter out = new WireWriter();
        MessageCodec.writeBodies(out, bodies, MessageCodec.NONE);
        WireReader in = new WireReader(out.toByteArray(), 0, out.size());
        assertThat(MessageCodec.readBodies(in, MessageCodec.NONE)).hasSize(bodies.size());
        in.expectEnd();
    }

    private static void assertRefused(WireWriter frame, String what) {
        byte[] bytes = frame.toByteArray();
        assertThatThrownBy(() -> {
            WireReader in = new WireReader(bytes, 0, bytes.length);
            Object read = MessageCodec.readBodies(in, MessageCodec.NONE);
            in.expectEnd();
            throw new AssertionError("accepted " + read);
        }).isInstanceOf(SecurityException.class).hasMessageStartingWith("malformed frame")
                .hasMessageContaining("negative " + what);
    }
}
