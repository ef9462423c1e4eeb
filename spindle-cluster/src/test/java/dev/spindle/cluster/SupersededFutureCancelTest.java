/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A retried task submits its nested key again, and the record of the retry's submission replaces
 * the first attempt's; the first attempt's future of that key stays with whoever holds it. A
 * release or a cancel names only the key, and the scheduler counted the futures of replaced
 * records to tell them apart ({@code TaskState.supersededFutures}): the first that came was taken
 * for the replaced record's, whoever's it was. For a release either way that was all the same, but
 * a cancel is not a release: the retry's future released (the nested task to run for what it does)
 * and then the first attempt's cancelled, the cancel forgot the retry's task, which never ran; the
 * retry's future cancelled and then the first attempt's released, the cancel was taken for the
 * first attempt's release and the task ran (its cancel returned true). Each future now names its
 * own record: the value is wanted while any future of the key is held, as before, and only the
 * retry's own cancel cancels the retry's task, which is forgotten once no future of its key is held.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SupersededFutureCancelTest {

    /** Ran while the gate holds the nested task back; the futures each attempt got of it. */
    private static final class Attempts {
        final CountDownLatch gate = new CountDownLatch(1);
        final AtomicInteger started = new AtomicInteger();
        final CountDownLatch nestedRan = new CountDownLatch(1);
        final AtomicReference<ClusterFuture<String>> first = new AtomicReference<>();
        final AtomicReference<ClusterFuture<String>> retry = new AtomicReference<>();
    }

    /**
     * Submits "outer", whose first attempt submits "outer-nested" (behind "gate") and fails, and
     * whose retry submits it again and does {@code withItsOwn} with its future; returns once the
     * retry has ended.
     */
    private static Attempts run(Client client, java.util.function.Consumer<ClusterFuture<String>> withItsOwn)
            throws Exception {
        Attempts a = new Attempts();
        client.submit("gate", args -> {
            a.gate.await(30, TimeUnit.SECONDS);
            return "open";
        });
        ClusterFuture<String> outer = client.submit("outer", args -> {
            ClusterFuture<String> nested = client.submit(TaskSpec.builder("outer-nested", x -> {
                a.nestedRan.countDown();
                return "nested";
            }).dependsOn("gate").build());
            if (a.started.incrementAndGet() == 1) {
                a.first.set(nested);          // held: no cleaner releases it meanwhile
                throw new IOException("fails after submitting its nested task");
            }
            a.retry.set(nested);
            withItsOwn.accept(nested);
            return "done";
        });
        assertThat(outer.get(30, TimeUnit.SECONDS)).isEqualTo("done");
        assertThat(a.started.get()).as("outer ran twice").isEqualTo(2);
        return a;
    }

    @Test
    void theRetrysReleasedTaskStillRunsWhenTheFirstAttemptsFutureIsCancelled() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(1).threadsPerWorker(4).retries(1).build()) {
            Client client = cluster.client();
            Attempts a = run(client, ClusterFuture::release);   // for what it does: it runs
            assertThat(a.first.get().cancel(false)).as("the first attempt's future, not done").isTrue();

            a.gate.countDown();
            assertThat(a.nestedRan.await(30, TimeUnit.SECONDS)).as("the nested task, released by the retry, ran")
                    .isTrue();
        }
    }

    @Test
    void theRetrysCancelForgetsItsTaskOnceTheFirstAttemptsFutureIsReleased() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(1).threadsPerWorker(4).retries(1)
                .forgetReleased(true).build()) {
            Client client = cluster.client();
            Attempts a = run(client, f -> assertThat(f.cancel(false)).isTrue());
            a.first.get().release();

            // forgotten at the cancel, its key is free again; still waiting for the gate, it is not
            ClusterFuture<String> again = client.submit("outer-nested", args -> "again");
            assertThat(again.get(30, TimeUnit.SECONDS)).isEqualTo("again");
            a.gate.countDown();
            assertThat(a.nestedRan.getCount()).as("the cancelled nested task did not run").isEqualTo(1);
        }
    }
}
