/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A {@link OutboundBatches#discard} (the scheduler's thread, on a worker's loss) that runs while a
 * flush (the transport's sender thread) is taking a batch off the same lane: the flush must not
 * take the count below the queue, or the next body for that destination (a rejoined worker's
 * first task) waits for a flush that never sends it.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class OutboundBatchesDiscardRaceTest {

    /** Holders whose size() (asked by {@link MessageCodec#estimatedBytes}) parks the flusher once. */
    private static final class ParkingHolders extends AbstractList<Integer> {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public Integer get(int index) {
            return 1;
        }

        @Override
        public int size() {
            if (entered.getCount() > 0) {
                entered.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return 1;
        }
    }

    @Test
    void aDiscardDuringAFlushLeavesTheLaneAbleToSendItsNextBody() throws Exception {
        List<Object> sent = Collections.synchronizedList(new ArrayList<>());
        OutboundBatches b = new OutboundBatches(8, 1 << 20, (d, bodies) -> sent.addAll(bodies));
        ParkingHolders holders = new ParkingHolders();
        Message.Replicate old = new Message.Replicate("old", holders);
        b.add(7, old);
        Thread flusher = new Thread(b::flush, "test-flusher");
        flusher.start();
        assertThat(holders.entered.await(10, TimeUnit.SECONDS)).isTrue();
        // the flusher has peeked 'old' and is sizing it: the worker is lost now
        b.discard(7);
        holders.release.countDown();
        flusher.join(10_000);

        assertThat(b.pending(7)).as("bodies counted on the lane after the discard").isZero();
        assertThat(sent).as("a body discarded before the flush took it is not sent").doesNotContain(old);

        // the id is taken again (a rejoined worker): its first task must leave on the next flush
        Message.ReleaseKey next = new Message.ReleaseKey("next");
        b.add(7, next);
        b.flush();
        assertThat(sent).as("the next body for the destination is sent by a flush").containsExactly(next);
    }
}
