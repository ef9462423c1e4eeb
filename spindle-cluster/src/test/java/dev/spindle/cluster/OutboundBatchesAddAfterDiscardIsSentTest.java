/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A {@link OutboundBatches#discard} (a worker lost) that takes the head of a lane between a
 * flush's look at it and its take, and a body added for the destination once the discard has
 * returned (a rejoined worker's first task): the flush must send that body, not drop it as one
 * of the discarded, which left it sent nowhere and its caller waiting.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class OutboundBatchesAddAfterDiscardIsSentTest {

    @AfterEach
    void clearHook() {
        OutboundBatches.beforeTake = null;
    }

    @Test
    void aBodyAddedAfterADiscardThatRacedAFlushIsSentByThatFlush() throws Exception {
        List<Object> sent = Collections.synchronizedList(new ArrayList<>());
        OutboundBatches b = new OutboundBatches(8, 1 << 20, (d, bodies) -> sent.addAll(bodies));
        CountDownLatch looked = new CountDownLatch(1);
        CountDownLatch resume = new CountDownLatch(1);
        AtomicBoolean once = new AtomicBoolean();
        OutboundBatches.beforeTake = () -> {
            if (once.compareAndSet(false, true)) {
                looked.countDown();
                try {
                    resume.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        Message.ReleaseKey old = new Message.ReleaseKey("old");
        b.add(7, old);
        Thread flusher = new Thread(b::flush, "test-flusher");
        flusher.start();
        assertThat(looked.await(10, TimeUnit.SECONDS)).isTrue();

        // the flusher has looked at 'old' and not taken it: the worker is lost, its queue dropped
        b.discard(7);
        // the discard has returned: the id is taken again, and its first task queued
        Message.ReleaseKey first = new Message.ReleaseKey("first");
        b.add(7, first);
        resume.countDown();
        flusher.join(10_000);
        assertThat(flusher.isAlive()).isFalse();
        b.flush();                            // anything the flusher left behind

        assertThat(sent).as("bodies sent: the one added after the discard, not the discarded one")
                .containsExactly(first);
        assertThat(b.pending(7)).isZero();
    }
}
