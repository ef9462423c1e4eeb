/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Second review of the worker's release bookkeeping (which numbered releases were handled, and
 * the releases remembered by key, {@code ClusterWorker.overtaken}, that drop a stale attempt
 * arriving after them). Driven by a real {@link GraphScheduler} whose frames for the one worker are
 * delivered reversed, a legitimate task (a retry, a resubmission of a released key) must never be
 * taken for a stale one and dropped: its caller would wait for good. Driven frame by frame, every
 * stale attempt that arrives after its release must be dropped, whatever the release found.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SecondReviewRegressionTest {
    /**
     * Plays the transport between a scheduler and one real worker: each round, the frames the
     * scheduler sent since the last round are delivered to the worker reversed (or in order), and
     * the worker's replies handed back, until the awaited future completes.
     */
    private static final class Driver {
        final RecordingTransport toWorker = new RecordingTransport();
        final RecordingTransport fromWorker = new RecordingTransport();
        final ClusterWorker worker = new ClusterWorker(0, 1, fromWorker);
        final boolean reversed;
        private int sent;
        private int replied;

        Driver(boolean reversed) {
            this.reversed = reversed;
        }

        void until(GraphScheduler s, CompletableFuture<?> done) throws InterruptedException {
            for (int round = 0; round < 50 && !done.isDone(); round++) {
                List<RecordingTransport.Sent> all = toWorker.sentToWorkers();
                List<RecordingTransport.Sent> fresh = new ArrayList<>(all.subList(sent, all.size()));
                sent = all.size();
                if (reversed) {
                    Collections.reverse(fresh);
                }
                for (RecordingTransport.Sent m : fresh) {
                    worker.receive(m.message());
                }
                // the worker's replies: wait a little for one (a task may be held back, rightly)
                List<Message.ToScheduler> replies;
                synchronized (fromWorker) {
                    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
                    while (fromWorker.toScheduler.size() == replied && System.nanoTime() < deadline) {
                        fromWorker.wait(50);
                    }
                    replies = new ArrayList<>(fromWorker.toScheduler.subList(replied, fromWorker.toScheduler.size()));
                    replied = fromWorker.toScheduler.size();
                }
                for (Message.ToScheduler m : replies) {
                    HandDriven.reply(s, m);
                }
            }
        }
    }

    /**
     * k fails on the one worker, which holds no copy of it: the scheduler releases k there (a
     * release that finds nothing, so remembered as one that may have overtaken k's task), then
     * sends k's retry. Whichever arrives first, the retry, sent after the release, must run.
     */
    @Test
    void aRetryAfterAReleaseThatFoundNothingRunsInEitherOrder() throws Exception {
        for (boolean reversed : new boolean[] {false, true}) {
            Driver w = new Driver(reversed);
            GraphScheduler s = new GraphScheduler(HandDriven.settings(1).retries(3).build(), w.toWorker);
            try {
                AtomicInteger calls = new AtomicInteger();
                CompletableFuture<Object> k = s.submit(List.of(TaskSpec.builder("k", args -> {
                    if (calls.incrementAndGet() < 3) {
                        throw new IllegalStateException("fails twice");
                    }
                    return "k";
                }).build())).get(0);
                w.until(s, k);
                assertThat(k).as("k's third attempt, delivered %s", reversed ? "reversed" : "in order")
                        .succeedsWithin(5, TimeUnit.SECONDS).isEqualTo("k");
                assertThat(w.toWorker.sentToWorkers()).as("the failures released k on the worker")
                        .filteredOn(m -> m.message() instanceof Message.ReleaseKey r && r.key().equals("k")).hasSize(2);
            } finally {
                w.worker.shutdown();
                s.close();
            }
        }
    }

    /**
     * A key computed, its future released (the worker drops the value), then submitted again
     * under the same key with another function, which fails once: releases that find nothing
     * and the resubmission's attempts interleave; each current attempt must run.
     */
    @Test
    void aKeySubmittedAgainAfterItsReleaseRunsInEitherOrder() throws Exception {
        for (boolean reversed : new boolean[] {false, true}) {
            Driver w = new Driver(reversed);
            GraphScheduler s = new GraphScheduler(HandDriven.settings(1).retries(2).forgetReleased(true).build(),
                    w.toWorker);
            try {
                CompletableFuture<Object> first = s.submit(List.of(TaskSpec.builder("k", args -> "one").build())).get(0);
                w.until(s, first);
                assertThat(first).succeedsWithin(5, TimeUnit.SECONDS).isEqualTo("one");
                s.releaseFuture("k");
                AtomicInteger calls = new AtomicInteger();
                CompletableFuture<Object> again = s.submit(List.of(
                        TaskSpec.builder("k", args -> {
                            if (calls.incrementAndGet() < 2) {
                                throw new IllegalStateException("fails once");
                            }
                            return "two";
                        }).build(),
                        TaskSpec.builder("d", args -> "d of " + args.get(0)).dependsOn("k").build())).get(1);
                w.until(s, again);
                assertThat(again).as("d over k's second value, delivered %s", reversed ? "reversed" : "in order")
                        .succeedsWithin(5, TimeUnit.SECONDS).isEqualTo("d of two");
                assertThat(w.toWorker.sentToWorkers()).as("k released after the first value and after the failure")
                        .filteredOn(m -> m.message() instanceof Message.ReleaseKey r && r.key().equals("k")).hasSize(2);
            } finally {
                w.worker.shutdown();
                s.close();
            }
        }
    }

    /**
     * k (a nested task) was resubmitted twice while its attempts travelled to worker 0: attempt 1
     * placed there, released (release 1, its record superseded), attempt 2 placed there, released
     * (release 2, superseded again); the current attempt ran on worker 1. Delivered both releases
     * first (each finds nothing of k), then attempt 2, then attempt 1: the first stale attempt
     * dropped consumed the one record of the releases, so the second ran and stored its stale
     * value, which a dependent placed on worker 0 then read as k's.
     */
    @Test
    void everyStaleAttemptArrivingAfterItsReleasesIsDroppedNotOnlyTheFirst() throws Exception {
        try (GatedWorker g = GatedWorker.fetching("current")) {     // worker 1's value of k
            ClusterWorker w = g.worker;
            w.receive(new Message.ReleaseKey("k", 1));
            w.receive(new Message.ReleaseKey("k", 2));
            w.receive(new Message.Compute("k", 2, args -> "stale 2", List.of(), Map.of(), 0, 1));
            w.receive(new Message.Compute("k", 1, args -> "stale 1", List.of(), Map.of(), 0, 0));
            // the dependent, sent after both releases, once worker 1 reported k's current value;
            // it queues behind whatever of k was admitted, on the one thread
            w.receive(new Message.Compute("d", 3, args -> "d of " + args.get(0), List.of("k"),
                    Map.of("k", List.of(1)), 0, 2));
            List<Message.ToScheduler> replies = g.transport.awaitFinished("d");
            assertThat(replies).as("no stale attempt of k ran").noneSatisfy(m -> assertThat(m)
                    .isInstanceOfSatisfying(Message.TaskFinished.class, f -> assertThat(f.key()).isEqualTo("k")));
            assertThat(w.store().contains("k") ? w.store().get("k") : "current")
                    .as("k's value on worker 0").isEqualTo("current");
        }
    }

    /**
     * Worker 0 holds a copy of k (an attempt whose result the scheduler would not count), which
     * the scheduler releases (release 1) before placing k's retry there (attempt 3, after 1
     * release); the retry's record is then superseded (release 2, k resubmitted) and the current
     * attempt 4 placed there too (after 2 releases). Delivered release 2 first: it found the copy,
     * so it was not remembered as one that may have overtaken a task; attempts 4 and 3 then waited
     * for release 1, which admitted both, in arrival order: the stale attempt 3 replaced the
     * current one, which never ran nor reported (its caller waits for good).
     */
    @Test
    void aStaleAttemptAfterAReleaseThatFoundACopyDoesNotReplaceTheCurrentOne() throws Exception {
        try (GatedWorker g = new GatedWorker()) {
            ClusterWorker w = g.worker;
            w.receive(new Message.Compute("k", 1, args -> "copy", List.of(), Map.of(), 0, 0));
            g.transport.awaitFinished("k", 1);
            g.hold(2);                        // holds the one thread: nothing admitted starts yet
            w.receive(new Message.ReleaseKey("k", 2));
            w.receive(new Message.Compute("k", 4, args -> "current", List.of(), Map.of(), 0, 2));
            w.receive(new Message.Compute("k", 3, args -> "stale", List.of(), Map.of(), 0, 1));
            w.receive(new Message.ReleaseKey("k", 1));
            g.open();
            // a later task, after both releases, on the one thread: runs after whatever of k was admitted
            w.receive(new Message.Compute("z", 5, args -> "z", List.of(), Map.of(), 0, 2));
            List<Message.ToScheduler> replies = g.transport.awaitFinished("z", 5);
            assertThat(replies).as("the current attempt ran and reported").anySatisfy(m -> assertThat(m)
                    .isInstanceOfSatisfying(Message.TaskFinished.class,
                            f -> assertThat(f.key() + "/" + f.attempt()).isEqualTo("k/4")));
            assertThat(w.store().get("k")).as("k's value on worker 0").isEqualTo("current");
        }
    }
}
