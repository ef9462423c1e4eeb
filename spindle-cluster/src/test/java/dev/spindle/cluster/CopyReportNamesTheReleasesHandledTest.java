/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker's report of a copy ({@link Message.DataAdded#releases}) names the releases it had
 * handled in the order the scheduler sent them, not how many it had handled: the scheduler does
 * not count a report that names fewer than it had sent when it asked for the copy, since a release
 * among them not yet handled may drop the copy; a count that took a release handled ahead of an
 * earlier one (a transport that reorders frames) for that earlier one would name a release not
 * handled. A copy held already, reported again for a copy order, names them too.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CopyReportNamesTheReleasesHandledTest {

    /** Every fetch waits for {@link #value}. */
    private static final class GatedFetch extends RecordingTransport {
        final CompletableFuture<Object> value = new CompletableFuture<>();

        @Override
        public CompletableFuture<Object> fetch(String key, int holder, int requester) {
            return value;
        }
    }

    @Test
    void aCopysReportNamesTheReleasesHandledInTheOrderSent() throws Exception {
        GatedFetch transport = new GatedFetch();
        ClusterWorker worker = new ClusterWorker(0, 1, transport);
        try {
            worker.receive(new Message.ReleaseKey("a", 1));
            worker.receive(new Message.ReleaseKey("c", 3));   // ahead of release 2
            worker.receive(new Message.Compute("t", 1, args -> args.get(0), List.of("d"), Map.of("d", List.of(1)), 0, 1));
            transport.value.complete(7);
            assertThat(copyReport(transport, 1)).isEqualTo(new Message.DataAdded(0, "d", Sizes.measure(7), 1));

            worker.receive(new Message.ReleaseKey("b", 2));
            worker.receive(new Message.Replicate("d", List.of(1), 3));   // d held already: reported again
            assertThat(copyReport(transport, 2)).isEqualTo(new Message.DataAdded(0, "d", 0, 3));
        } finally {
            worker.shutdown();
        }
    }

    /** The {@code n}th {@link Message.DataAdded} sent, once sent. */
    private static Message.DataAdded copyReport(RecordingTransport transport, int n) throws InterruptedException {
        for (int seen = 1; ; seen++) {
            List<Message.DataAdded> reports = transport.awaitToScheduler(seen).stream()
                    .filter(m -> m instanceof Message.DataAdded).map(m -> (Message.DataAdded) m).toList();
            if (reports.size() >= n) {
                return reports.get(n - 1);
            }
        }
    }
}
