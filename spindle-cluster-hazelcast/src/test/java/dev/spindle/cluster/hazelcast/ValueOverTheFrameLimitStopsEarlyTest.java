/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.Message;
import dev.spindle.cluster.Sized;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker's result far over the frame limit was serialised whole into memory (no value limit
 * on this transport), and refused only once its frame was sealed: a result of gigabytes took
 * gigabytes of the worker's heap (twice over, as the buffer doubled), an
 * {@code OutOfMemoryError} where the frame limit of a few megabytes would have failed the one
 * task. Its serialisation now stops once it passes the frame limit, and the task fails as before.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ValueOverTheFrameLimitStopsEarlyTest {

    private static final byte[] SECRET = "value-over-limit-secret-0123456789".getBytes(StandardCharsets.UTF_8);
    private static final int LIMIT = 64 * 1024;

    /** Writes {@link #TOTAL} bytes, counting in {@link #WRITTEN} how many the stream took; says its size (no measuring). */
    static final class Huge implements Serializable, Sized {
        private static final long serialVersionUID = 1L;
        static final long TOTAL = 64L << 20;
        static final AtomicLong WRITTEN = new AtomicLong();

        @Override
        public long sizeInBytes() {
            return TOTAL;
        }

        private void writeObject(ObjectOutputStream out) throws IOException {
            byte[] chunk = new byte[64 * 1024];
            for (long n = 0; n < TOTAL; n += chunk.length) {
                out.write(chunk);
                WRITTEN.addAndGet(chunk.length);
            }
        }
    }

    @Test
    void aResultFarOverTheFrameLimitIsNotSerialisedWhole() {
        FrameCodec codec = new FrameCodec(SECRET, List.of());
        WorkerTransport transport = new WorkerTransport(1, codec, new Roster(new Offences("worker")), LIMIT);
        try {
            Huge.WRITTEN.set(0);
            transport.toScheduler(new Message.TaskFinished(1, "huge", 1, new Huge(), Huge.TOTAL, 1));
            assertThat(Huge.WRITTEN.get()).as("bytes of the result serialised before it was refused")
                    .isLessThan(4L * LIMIT);
        } finally {
            transport.close();
        }
    }
}
