/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A value serialised under a limit (a result or fetched value under the Pekko transport's value
 * limit, {@link ValueCodec#write}) was written whole into memory, and refused for its size only
 * then: a value of gigabytes took gigabytes of the heap (twice over, as the buffer doubled)
 * before a frame limit of a few megabytes refused it, an {@code OutOfMemoryError} for a worker
 * that would otherwise have failed the one task. The write now stops once it passes the limit.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SerialLimitWhileWritingTest {

    /** Writes {@link #TOTAL} bytes of its own, counting in {@link #WRITTEN} how many the stream took. */
    static final class Huge implements Serializable {
        private static final long serialVersionUID = 1L;
        static final long TOTAL = 256L << 20;
        static final AtomicLong WRITTEN = new AtomicLong();

        private void writeObject(ObjectOutputStream out) throws IOException {
            byte[] chunk = new byte[64 * 1024];
            for (long n = 0; n < TOTAL; n += chunk.length) {
                out.write(chunk);
                WRITTEN.addAndGet(chunk.length);
            }
        }
    }

    /** Swallows the stream's refusals and writes on, as a careless writeObject may. */
    static final class Careless implements Serializable {
        private static final long serialVersionUID = 1L;

        private void writeObject(ObjectOutputStream out) {
            byte[] chunk = new byte[1024];
            for (int i = 0; i < 1024; i++) {
                try {
                    out.write(chunk);
                } catch (IOException ignored) {
                    // written on regardless
                }
            }
        }
    }

    @Test
    void aValueOverTheLimitStopsBeingWrittenAtTheLimit() {
        int limit = 64 * 1024;
        Huge.WRITTEN.set(0);
        Throwable refused = catchThrowable(() -> JavaSerial.serialize(new Huge(), limit, "value"));
        assertThat(Huge.WRITTEN.get()).as("bytes the value wrote before the write was stopped")
                .isLessThan(4L * limit);
        assertThat(refused).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("is more than " + limit + " bytes serialised, over the value limit of " + limit);
        assertThatThrownBy(() -> ValueCodec.write(new Huge(), limit)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("over the value limit of " + limit);
    }

    @Test
    void aValueThatSwallowsTheRefusalIsStillRefused() {
        assertThatThrownBy(() -> JavaSerial.serialize(new Careless(), 4096, "frame"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("is more than 4096 bytes serialised, over the frame limit of 4096");
        assertThat(JavaSerial.serialize(new Careless(), 2 << 20, "frame")).hasSizeGreaterThan(1 << 20);
    }
}
