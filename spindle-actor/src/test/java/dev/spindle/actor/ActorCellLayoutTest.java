/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import org.junit.jupiter.api.Test;

/**
 * The mailbox's two ends live in different cache lines: senders exchange {@code tail} on every
 * message and the consumer writes {@code head} on every message. The cell's field groups are
 * separated by padding classes, but the JVM's field layout fills gaps in a superclass's fields
 * with a subclass's: an int added to the read-mostly group in session 77 left a 4-byte gap after
 * {@code tail}, {@code head} moved into it (offsets 136 and 140), and tell-only, many senders to
 * one actor, ran at about 0.74 of the build before. Read here from the JVM that runs the test.
 */
class ActorCellLayoutTest {

    /** Through reflection: the module does not read {@code jdk.unsupported}, which opens {@code sun.misc}. */
    private static long offset(Class<?> owner, String name) throws Exception {
        Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
        Field unsafeField = unsafeClass.getDeclaredField("theUnsafe");
        unsafeField.setAccessible(true);
        Object unsafe = unsafeField.get(null);
        Method objectFieldOffset = unsafeClass.getMethod("objectFieldOffset", Field.class);
        return (long) objectFieldOffset.invoke(unsafe, owner.getDeclaredField(name));
    }

    @Test
    void theConsumersHeadIsACacheLineAwayFromTheSendersTail() throws Exception {
        long tail = offset(ActorCellProducerFields.class, "tail");
        long head = offset(ActorCellConsumerFields.class, "head");
        long processed = offset(ActorCellConsumerFields.class, "processed");
        assertThat(Math.abs(head - tail)).as("head at %d, tail at %d", head, tail).isGreaterThanOrEqualTo(64);
        assertThat(Math.abs(processed - tail)).as("processed at %d, tail at %d", processed, tail)
                .isGreaterThanOrEqualTo(64);
    }
}
