/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Batches per destination: bounded, in order, each body sent once, none left behind, none held when alone. */
class OutboundBatchesTest {

    private record Batch(int destination, List<Object> bodies) {
    }

    private final List<Batch> sent = Collections.synchronizedList(new ArrayList<>());

    private OutboundBatches batches(int maxCount, long maxBytes) {
        return new OutboundBatches(maxCount, maxBytes, (d, bodies) -> sent.add(new Batch(d, List.copyOf(bodies))));
    }

    @Test
    void aBodySentAloneLeavesAtOnceInABatchOfOne() {
        OutboundBatches b = batches(8, 1 << 20);
        b.send(3, new Message.ReleaseKey("a"));
        assertThat(sent).containsExactly(new Batch(3, List.of(new Message.ReleaseKey("a"))));
        assertThat(b.pending(3)).isZero();
    }

    @Test
    void addedBodiesWaitForAFlushOrAFullBatchAndKeepTheirOrderPerDestination() {
        OutboundBatches b = batches(8, 1 << 20);
        for (int i = 0; i < 20; i++) {
            b.add(i % 2, new Message.Retired(i));
        }
        assertThat(sent).as("a full batch of 8 leaves without a flush").hasSize(2)
                .allSatisfy(batch -> assertThat(batch.bodies()).hasSize(8));
        b.flush();
        assertThat(b.pending(0) + b.pending(1)).isZero();
        for (int d = 0; d < 2; d++) {
            List<Object> received = new ArrayList<>();
            for (Batch batch : sent) {
                if (batch.destination() == d) {
                    received.addAll(batch.bodies());
                }
            }
            List<Object> expected = new ArrayList<>();
            for (int i = d; i < 20; i += 2) {
                expected.add(new Message.Retired(i));
            }
            assertThat(received).isEqualTo(expected);
        }
    }

    @Test
    void aBatchStaysUnderItsByteBoundAndALargerBodyTravelsAlone() {
        OutboundBatches b = batches(100, 1000);
        for (int i = 0; i < 5; i++) {
            b.add(0, new WireMessage.Finished(0, "k" + i, 1, new byte[400], 400, 1));
        }
        b.add(0, new WireMessage.Finished(0, "big", 1, new byte[5000], 5000, 1));
        b.add(0, new Message.ReleaseKey("after"));
        b.flush();
        assertThat(sent).extracting(batch -> batch.bodies().size()).containsExactly(2, 2, 1, 1, 1);
        assertThat(sent.get(3).bodies()).singleElement()
                .satisfies(body -> assertThat(((WireMessage.Finished) body).key()).isEqualTo("big"));
    }

    /**
     * Threads that each send numbered bodies while a slow sender is busy: every body arrives
     * exactly once, each thread's in its order, nothing is left queued, and no batch is over its bound.
     */
    @Test
    void concurrentSendersLoseNothingDuplicateNothingAndKeepTheirOrder() {
        int threads = 4;
        int each = 2_000;
        List<Batch> slow = Collections.synchronizedList(new ArrayList<>());
        OutboundBatches b = new OutboundBatches(16, 1 << 20, (d, bodies) -> {
            slow.add(new Batch(d, List.copyOf(bodies)));
            Thread.onSpinWait();
        });
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
                CountDownLatch start = new CountDownLatch(1);
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    int thread = t;
                    done.add(pool.submit(() -> {
                        start.await();
                        for (int i = 0; i < each; i++) {
                            b.send(0, new Message.DataAdded(thread, "k", i));
                        }
                        return null;
                    }));
                }
                start.countDown();
                for (Future<?> f : done) {
                    f.get();
                }
            });
        } finally {
            pool.shutdownNow();
        }
        assertThat(b.pending(0)).isZero();
        long[] next = new long[threads];
        int total = 0;
        for (Batch batch : slow) {
            assertThat(batch.bodies()).hasSizeBetween(1, 16);
            for (Object body : batch.bodies()) {
                Message.DataAdded d = (Message.DataAdded) body;
                assertThat(d.bytes()).as("thread %d's next body", d.worker()).isEqualTo(next[d.worker()]++);
                total++;
            }
        }
        assertThat(total).isEqualTo(threads * each);
    }

    @Test
    void oneDestinationCanBeFlushedOrDiscardedAlone() {
        OutboundBatches b = batches(8, 1 << 20);
        b.add(1, new Message.Retired(1));
        b.add(2, new Message.ReleaseKey("x"));
        b.add(3, new Message.ReleaseKey("y"));
        b.flush(1);
        assertThat(sent).containsExactly(new Batch(1, List.of(new Message.Retired(1))));
        b.discard(2);
        b.flush();
        assertThat(sent).containsExactly(new Batch(1, List.of(new Message.Retired(1))),
                new Batch(3, List.of(new Message.ReleaseKey("y"))));
        assertThat(b.pending(2)).isZero();
    }

    /**
     * With a flusher, the adding thread only queues: batches are sent on the flusher, in order,
     * each body once, and {@code flush(destination)} returns only when nothing for it is left.
     */
    @Test
    void aFlusherSendsTheBatchesBesideTheAddingThread() throws Exception {
        ExecutorService flusher = Executors.newSingleThreadExecutor();
        List<String> threads = Collections.synchronizedList(new ArrayList<>());
        OutboundBatches b = new OutboundBatches(8, 1 << 20, (d, bodies) -> {
            threads.add(Thread.currentThread().getName());
            sent.add(new Batch(d, List.copyOf(bodies)));
        }, flusher);
        try {
            assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
                for (int round = 0; round < 200; round++) {
                    for (int i = 0; i < 20; i++) {
                        b.add(round % 3, new Message.DataAdded(round % 3, "k", round * 100L + i));
                    }
                    b.flush();
                }
                for (int d = 0; d < 3; d++) {
                    b.flush(d);
                    assertThat(b.pending(d)).isZero();
                }
            });
        } finally {
            flusher.shutdown();
            assertThat(flusher.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        }
        assertThat(threads).doesNotContain(Thread.currentThread().getName());
        for (int d = 0; d < 3; d++) {
            List<Long> received = new ArrayList<>();
            for (Batch batch : sent) {
                if (batch.destination() == d) {
                    batch.bodies().forEach(body -> received.add(((Message.DataAdded) body).bytes()));
                }
            }
            List<Long> expected = new ArrayList<>();
            for (int round = d; round < 200; round += 3) {
                for (int i = 0; i < 20; i++) {
                    expected.add(round * 100L + i);
                }
            }
            assertThat(received).isEqualTo(expected);
        }
    }

    @Test
    void badArgumentsAreRefused() {
        assertThatThrownBy(() -> batches(0, 1)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxCount");
        assertThatThrownBy(() -> batches(MessageCodec.MAX_BATCH + 1, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> batches(1, 0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxBytes");
        assertThatThrownBy(() -> new OutboundBatches(1, 1, null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("sender");
        assertThatThrownBy(() -> batches(1, 1).add(0, null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("body");
    }
}
