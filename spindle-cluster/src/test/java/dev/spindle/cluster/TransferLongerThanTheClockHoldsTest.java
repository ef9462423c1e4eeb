/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The in-process transport delays a fetched value by {@code latency + bytes / bandwidth}. A
 * transfer of more than {@code Long.MAX_VALUE} nanoseconds (a large {@link Sized} value over a
 * slow simulated link) saturated at {@code Long.MAX_VALUE}, and adding the latency wrapped the
 * delay negative, which the transport took for "no delay": the value that should have taken
 * centuries arrived at once, while a smaller one still took its time.
 *
 * <p>Deterministic, without a timing assertion: every delivery runs on the transport's one timer
 * thread in the order it is due. A message sent after the fetch, due one latency later, is
 * delivered after anything due at once; by then a fetch delivered "at once" is done.
 */
class TransferLongerThanTheClockHoldsTest {

    /** Claims 10 MB, which at 1 byte per 1,000 seconds is about 317 years: past Long.MAX_VALUE ns. */
    record Block(long bytes) implements Sized, java.io.Serializable {
        @Override
        public long sizeInBytes() {
            return bytes;
        }
    }

    @Test
    void aTransferPastLongMaxValueNanosecondsIsNotDeliveredAtOnce() throws Exception {
        LocalTransport transport = new LocalTransport(1e-3, TimeUnit.MILLISECONDS.toNanos(1));
        ClusterWorker holder = new ClusterWorker(0, 1, transport);
        CountDownLatch messageDelivered = new CountDownLatch(1);
        try {
            transport.connect(List.of(holder), m -> messageDelivered.countDown());
            holder.store().put("block", new Block(10_000_000), 10_000_000);
            CompletableFuture<Object> fetched = transport.fetch("block", 0, 1);
            transport.toScheduler(new Message.TaskRunning(0, "k", 0, 0));   // due one latency from now

            assertThat(messageDelivered.await(1, TimeUnit.MINUTES)).as("the message sent after the fetch delivered")
                    .isTrue();
            assertThat(fetched).as("a transfer of ~317 years, once a message sent after it has arrived").isNotDone();
            assertThat(transport.bytesTransferred()).isZero();
        } finally {
            holder.shutdown();
            transport.close();
        }
    }
}
