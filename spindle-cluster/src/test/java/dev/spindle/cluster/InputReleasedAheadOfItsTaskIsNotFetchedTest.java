/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * On a transport that reorders frames, a task can reach its worker after a release of one of its
 * inputs that the scheduler sent after it (the worker's copy of that input was reported missing,
 * say), and before an earlier release of another key. The worker fetched the input after that
 * release and reported the copy naming only the releases handled in order, fewer than the
 * scheduler had sent when it asked that worker for the input again (the task that reported the copy
 * missing, placed there anew): the scheduler ignored the report (a copy that release may drop, for
 * all it could tell), and the task placed anew found the copy held and reported nothing, so the
 * copy was counted nowhere (the worker's keys and memory, a holder for fetchers) until the input's
 * next release. Arrived before the release, the task would have lost its fetch to it and reported
 * the input missing; arrived after, it now does the same, and the task placed anew fetches a copy
 * whose report the scheduler counts.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class InputReleasedAheadOfItsTaskIsNotFetchedTest {

    /** Every fetch answers 7 at once; the keys fetched are recorded. */
    private static final class AnsweringFetch extends RecordingTransport {
        final List<String> fetched = new ArrayList<>();

        @Override
        public synchronized CompletableFuture<Object> fetch(String key, int holder, int requester) {
            fetched.add(key);
            return CompletableFuture.completedFuture(7);
        }
    }

    @Test
    void aTaskSentBeforeAReleaseOfItsInputThatOvertookItReportsTheInputMissing() throws Exception {
        AnsweringFetch transport = new AnsweringFetch();
        ClusterWorker worker = new ClusterWorker(0, 1, transport);
        try {
            worker.receive(new Message.ReleaseKey("k", 2));   // ahead of release 1, of another key
            // t, sent before both releases, needs k
            worker.receive(new Message.Compute("t", 1, args -> args.get(0), List.of("k"), Map.of("k", List.of(1)), 0, 0));

            assertThat(transport.awaitFirst()).as("the first report")
                    .isEqualTo(new Message.DataMissing(0, "t", 1, "k", -1));
            synchronized (transport) {
                assertThat(transport.fetched).as("the keys fetched").isEmpty();
            }
            assertThat(worker.store().contains("k")).as("a copy of k stored").isFalse();

            // placed there anew, after both releases: it fetches k, and the report names both
            worker.receive(new Message.ReleaseKey("j", 1));
            worker.receive(new Message.Compute("t", 2, args -> args.get(0), List.of("k"), Map.of("k", List.of(1)), 0, 2));
            List<Message.ToScheduler> reports = transport.awaitFinished("t", 2);
            assertThat(reports).contains(new Message.DataAdded(0, "k", Sizes.measure(7), 2));
        } finally {
            worker.shutdown();
        }
    }
}
