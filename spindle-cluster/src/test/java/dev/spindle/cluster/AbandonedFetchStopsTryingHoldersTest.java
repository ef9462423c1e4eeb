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
 * A fetch that a release abandoned ({@link Message.ReleaseKey} of the key while it travels) stops
 * there: the holder it waited on failing, it went on to the next holders in turn, each up to the
 * fetch timeout, for a value nobody wanted any more (and the stale jobs waiting on it waited as long).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AbandonedFetchStopsTryingHoldersTest {

    /** Records the holders asked; holder 1's fetch is completed by the test, the others fail at once. */
    private static final class GatedFetches extends RecordingTransport {
        final List<Integer> asked = new ArrayList<>();
        final CompletableFuture<Object> first = new CompletableFuture<>();

        @Override
        public synchronized CompletableFuture<Object> fetch(String key, int holder, int requester) {
            asked.add(holder);
            return holder == 1 ? first : CompletableFuture.failedFuture(new IllegalStateException("not held"));
        }
    }

    @Test
    void aFetchAbandonedByAReleaseDoesNotTryTheOtherHolders() throws Exception {
        GatedFetches transport = new GatedFetches();
        ClusterWorker worker = new ClusterWorker(0, 1, transport);
        try {
            worker.receive(new Message.Compute("t", 1, args -> args.get(0), List.of("dep"),
                    Map.of("dep", List.of(1, 2, 3)), 0));
            worker.receive(new Message.ReleaseKey("dep", 1));    // abandons the fetch waiting on holder 1
            transport.first.completeExceptionally(new IllegalStateException("timed out"));

            Message.ToScheduler report = transport.awaitFirst();
            assertThat(report).isInstanceOf(Message.DataMissing.class);
            synchronized (transport) {
                assertThat(transport.asked).as("holders asked for the abandoned fetch").containsExactly(1);
            }
        } finally {
            worker.shutdown();
        }
    }
}
