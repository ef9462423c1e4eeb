/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The worker's rules for messages that overtake each other (a task held back until the releases
 * sent before it are handled, a task sent before a release of its input that overtook it not
 * fetching that input, a task sent before a release of its own key dropped) each look at what the
 * other messages left and then act, and hold only if no other message is handled between the look
 * and the act: they order messages, they do not exclude them. A transport that hands the node two
 * messages at once (a caller-supplied one delivering on several threads) broke them: here a task
 * sent before a release of its input looked for that release, found none yet, and fetched the
 * input after the release had been handled in full, so that the copy outlived its release: its
 * report named fewer releases than that release's number (an earlier one of another key still on
 * its way), so the scheduler took it for a copy the release drops and counted it nowhere, memory
 * kept until the key's next release. Handled one at a time, in either order, no copy is left: the
 * release drops the fetch that the task started before it, or the task, arriving after it, reports
 * the input missing. {@link WorkerNode#receive} now handles one message at a time, whichever
 * threads deliver them.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ConcurrentDeliveryIsHandledOneAtATimeTest {

    private static final Object ABSENT = new Object();

    /** Every fetch answers 7 at once. */
    private static final class AnsweringFetch extends RecordingTransport {
        @Override
        public CompletableFuture<Object> fetch(String key, int holder, int requester) {
            return CompletableFuture.completedFuture(7);
        }
    }

    /**
     * The holders of a task's inputs, whose look-up for {@code k} (made as the task is about to
     * fetch it, after its look for releases of its inputs) waits until the test lets it go: a
     * delivery thread descheduled there, in a deterministic form.
     */
    private static final class PausingHolders extends HashMap<String, List<Integer>> {
        final CountDownLatch reached = new CountDownLatch(1);
        final CountDownLatch go = new CountDownLatch(1);

        PausingHolders() {
            put("k", List.of(1));
        }

        @Override
        public List<Integer> getOrDefault(Object key, List<Integer> otherwise) {
            if ("k".equals(key) && reached.getCount() > 0) {
                reached.countDown();
                try {
                    go.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return super.getOrDefault(key, otherwise);
        }
    }

    @Test
    void aReleaseDeliveredWhileItsInputsTaskIsHandledLeavesNoCopy() throws Exception {
        AnsweringFetch transport = new AnsweringFetch();
        WorkerNode node = new WorkerNode(0, 1, transport);
        PausingHolders holders = new PausingHolders();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        try {
            // t, sent before both releases, needs k; delivered on one thread ...
            Thread task = deliver(node, new Message.Compute("t", 1, args -> args.get(0), List.of("k"), holders, 0, 0),
                    failed);
            assertThat(holders.reached.await(10, TimeUnit.SECONDS)).as("the task about to fetch k").isTrue();
            // ... and release 2, of k, sent after it, on another (release 1, of another key, still on its way)
            Thread release = deliver(node, new Message.ReleaseKey("k", 2), failed);
            // the release is handled in full, or waits for the task's handling to end
            while (release.isAlive() && release.getState() != Thread.State.BLOCKED
                    && release.getState() != Thread.State.WAITING) {
                Thread.sleep(1);
            }
            holders.go.countDown();
            task.join();
            release.join();
            assertThat(failed.get()).as("a delivery that threw").isNull();

            // the task's fetch answered at once, so every callback has run; either order of the two
            // leaves k unheld here, since the release was the scheduler's last word on k
            assertThat(node.valueOrDefault("k", ABSENT)).as("the copy of k kept after its release").isSameAs(ABSENT);
        } finally {
            holders.go.countDown();
            node.close();
        }
    }

    private static Thread deliver(WorkerNode node, Message.ToWorker m, AtomicReference<Throwable> failed) {
        Thread t = new Thread(() -> {
            try {
                node.receive(m);
            } catch (Throwable e) {
                failed.compareAndSet(null, e);
            }
        }, "delivery-" + m.getClass().getSimpleName());
        t.setDaemon(true);
        t.start();
        return t;
    }
}
