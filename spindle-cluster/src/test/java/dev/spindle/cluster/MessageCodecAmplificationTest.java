/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a crafted frame makes the receiver allocate, measured as the attacker would aim it: a
 * frame is bounded in bytes, but a list of keys that take a byte each on the wire cost a String
 * (and its array) and a list slot, twice over, in memory, so a frame of them made the receiver
 * allocate 36 times its size; on the Pekko transport a frame's bodies are read before its seal is
 * checked, so any member of the cluster could. The shortest strings are shared now, and the lists
 * read without a copy to copy from; a holder map that names a key twice (which no writer writes)
 * is refused.
 */
class MessageCodecAmplificationTest {

    /** A list element's cost decoded: a slot in the array read and one in the list made of it (8 bytes), with room. */
    private static final int MOST_PER_BYTE = 12;
    private static final int ENTRIES = 200_000;

    private static long allocatedBy(Runnable r) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported(), "this JVM cannot measure a thread's allocation");
        threads.setThreadAllocatedMemoryEnabled(true);
        long before = threads.getCurrentThreadAllocatedBytes();
        r.run();
        return threads.getCurrentThreadAllocatedBytes() - before;
    }

    /** A frame of one task whose dependencies are {@code n} times {@code dependency}. */
    private static byte[] taskDependingOn(int n, String dependency) {
        WireWriter out = new WireWriter();
        out.varLong(1).u8(MessageCodec.COMPUTE).string("k", 1, "key").zigZag(1).bytes(new byte[0]).varLong(n);
        for (int i = 0; i < n; i++) {
            out.string(dependency, 1, "key");
        }
        out.varLong(0).zigZag(0).zigZag(0);
        return out.toByteArray();
    }

    private static List<Object> read(byte[] frame) {
        WireReader in = new WireReader(frame, 0, frame.length);
        List<Object> bodies = MessageCodec.readBodies(in, MessageCodec.NONE);
        in.expectEnd();
        return bodies;
    }

    @Test
    void aListOfEmptyKeysCostsTheReceiverALittleMoreThanItsSizeNotThirtySixTimesIt() {
        byte[] frame = taskDependingOn(ENTRIES, "");
        read(frame);                          // classes loaded, not counted

        long allocated = allocatedBy(() -> read(frame));

        // 36 times the frame before (a String and two list slots per byte)
        assertThat(allocated).as("bytes allocated decoding a frame of %d bytes", frame.length)
                .isLessThanOrEqualTo((long) MOST_PER_BYTE * frame.length);
        assertThat(((WireMessage.Compute) read(frame).get(0)).dependencies()).hasSize(ENTRIES).containsOnly("");
    }

    @Test
    void aListOfOneLetterKeysCostsTheReceiverALittleMoreThanItsSize() {
        byte[] frame = taskDependingOn(ENTRIES, "a");
        read(frame);

        long allocated = allocatedBy(() -> read(frame));

        // 30 times the frame before (a String, its array and two list slots per two bytes)
        assertThat(allocated).as("bytes allocated decoding a frame of %d bytes", frame.length)
                .isLessThanOrEqualTo((long) MOST_PER_BYTE * frame.length);
        assertThat(((WireMessage.Compute) read(frame).get(0)).dependencies()).hasSize(ENTRIES).containsOnly("a");
    }

    @Test
    void aHolderMapThatNamesAKeyTwiceIsRefused() {
        WireWriter out = new WireWriter();
        out.varLong(1).u8(MessageCodec.COMPUTE).string("k", 1, "key").zigZag(1).bytes(new byte[0]).varLong(0)
                .varLong(ENTRIES);
        for (int i = 0; i < ENTRIES; i++) {
            out.string("", 1, "key").varLong(0);        // two bytes each, one entry kept
        }
        out.zigZag(0).zigZag(0);
        byte[] frame = out.toByteArray();

        // accepted before, 16 times the frame allocated for a map of one entry
        assertThatThrownBy(() -> read(frame)).isInstanceOf(SecurityException.class)
                .hasMessage("malformed frame: holder entry for one key twice");
    }

    @Test
    void aTaskWithItsDependenciesAndHoldersStillTravels() {
        WireMessage.Compute task = new WireMessage.Compute("k", 2, new byte[] {1, 2}, List.of("", "a", "b\u00e9", "a"),
                Map.of("", List.of(), "a", List.of(1), "b\u00e9", List.of(2, 300), "c", List.of(4, 5, 6)), 7, 9);
        WireWriter out = new WireWriter();
        MessageCodec.writeBodies(out, List.of(task), MessageCodec.NONE);

        WireMessage.Compute read = (WireMessage.Compute) read(out.toByteArray()).get(0);

        assertThat(read.dependencies()).containsExactly("", "a", "b\u00e9", "a");
        assertThat(read.holders()).isEqualTo(task.holders());
        assertThat(read.function()).containsExactly(1, 2);
        assertThat(read.priority()).isEqualTo(7);
        assertThat(read.releases()).isEqualTo(9);
    }
}
