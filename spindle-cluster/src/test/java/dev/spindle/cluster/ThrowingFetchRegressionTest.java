/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A transport whose fetch throws instead of returning a failed future (one closing, say): the
 * worker takes the throw for a failed fetch from that holder. Escaping, it left the shared fetch
 * uncompleted, and every task waiting for the value waited for good; thrown into the handling of
 * a frame, it lost the rest of the frame.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ThrowingFetchRegressionTest {

    /** Holder 1 fails its fetches as a transport should, holder 2 throws, holder 3 serves. */
    private static final class ThrowingTransport extends RecordingTransport {
        @Override
        public CompletableFuture<Object> fetch(String key, int holder, int requester) {
            if (holder == 1) {
                return CompletableFuture.failedFuture(new IllegalStateException("not held"));
            }
            if (holder == 2) {
                throw new IllegalStateException("transport closing");
            }
            return CompletableFuture.completedFuture(20);
        }
    }

    @Test
    void aFetchThatThrowsAfterAFailedOneReportsTheDependencyMissing() throws Exception {
        ThrowingTransport transport = new ThrowingTransport();
        ClusterWorker worker = new ClusterWorker(0, 1, transport);
        try {
            worker.receive(new Message.Compute("t", 1, args -> args.get(0), List.of("dep"),
                    Map.of("dep", List.of(1, 2)), 0));
            assertThat(transport.awaitFirst()).isEqualTo(new Message.DataMissing(0, "t", 1, "dep", 2));
        } finally {
            worker.shutdown();
        }
    }

    @Test
    void aFetchThatThrowsAtOnceIsTriedAtTheNextHolder() throws Exception {
        ThrowingTransport transport = new ThrowingTransport();
        ClusterWorker worker = new ClusterWorker(0, 1, transport);
        try {
            assertThatCode(() -> worker.receive(new Message.Compute("t", 1, args -> args.get(0), List.of("dep"),
                    Map.of("dep", List.of(2, 3)), 0))).doesNotThrowAnyException();
            assertThat(transport.awaitFinished("t", 1)).isNotEmpty();
        } finally {
            worker.shutdown();
        }
    }
}
