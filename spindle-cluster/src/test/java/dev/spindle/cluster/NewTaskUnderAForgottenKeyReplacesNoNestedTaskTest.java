/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A task that submits a nested task from its function may submit that key again on a retry,
 * replacing the record its failed attempt made (GraphScheduler.resubmittable). With
 * {@code forgetReleased}, a task's key is free again once it is forgotten, and a new task may be
 * submitted under it: that is another task, and the nested keys its function submits are new
 * submissions. Taken for a retry's, they replaced the nested record of the forgotten task while
 * the client still held its future, so that a task given that future as a dependency computed
 * with the new task's value, not the one the future had.
 */
class NewTaskUnderAForgottenKeyReplacesNoNestedTaskTest {

    @Test
    void aNestedKeyStillKnownIsRefusedToANewTaskUnderItsSubmittersKey() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(1).threadsPerWorker(2).retries(0)
                .forgetReleased(true).build()) {
            Client client = cluster.client();
            Map<String, ClusterFuture<String>> parts = new ConcurrentHashMap<>();
            ClusterFuture<String> first = client.submit("job", a -> {
                ClusterFuture<String> part = client.submit("job-part", x -> "first");
                parts.put("first", part);
                return part.get(30, SECONDS);
            });
            assertThat(first.get(30, SECONDS)).isEqualTo("first");
            first.release();
            assertThat(cluster.taskRecords()).as("'job' forgotten, 'job-part' kept: its future is held").isEqualTo(1);

            ClusterFuture<String> second = client.submit("job", a -> {
                ClusterFuture<String> part = client.submit("job-part", x -> "second");
                return part.get(30, SECONDS);
            });
            assertThatThrownBy(() -> second.get(30, SECONDS)).as("the new task's submission of a known key")
                    .isInstanceOf(ExecutionException.class).hasRootCauseInstanceOf(IllegalArgumentException.class)
                    .hasStackTraceContaining("'job-part' was already submitted");

            ClusterFuture<String> reader = client.submit("reader", args -> (String) args.get(0), parts.get("first"));
            assertThat(reader.get(30, SECONDS)).as("what a dependent of the first part's future reads")
                    .isEqualTo(parts.get("first").get(30, SECONDS)).isEqualTo("first");
        }
    }

    /** The other side: a retry of the same task still submits its nested key again, as before. */
    @Test
    void aRetryOfTheSameTaskStillReplacesItsNestedTask() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(1).threadsPerWorker(2).retries(1)
                .forgetReleased(true).build()) {
            Client client = cluster.client();
            AtomicInteger attempts = new AtomicInteger();
            ClusterFuture<String> job = client.submit("job", a -> {
                int attempt = attempts.incrementAndGet();
                ClusterFuture<String> part = client.submit("job-part", x -> "part of attempt " + attempt);
                String v = part.get(30, SECONDS);
                if (attempt == 1) {
                    throw new IOException("the first attempt fails once its part is done");
                }
                return v;
            });
            assertThat(job.get(30, SECONDS)).isEqualTo("part of attempt 2");
        }
    }
}
