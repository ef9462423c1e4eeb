/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static dev.spindle.async.WakerSemanticsTest.WAIT_S;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A HYBRID worker's wake-up count ({@code SchedulerStats.WorkerStats.wakeups()}) counts each
 * wake-up once, also when a watcher spilled the worker's stalled hot queue
 * ({@code AsyncWorker.stalled}, {@code HotQueue.spillTo}) back to its wake channel. Before the fix
 * the worker counted a batch as it moved it from its wake channel into the hot queue, and counted
 * the spilled cells again when it took them back: {@code n} wake-ups of which {@code n - 1} were
 * spilled read {@code 2n - 1}.
 */
class HybridStatsRegressionTest {

    private static final int WOKEN = 5;

    /**
     * One worker, driven by hand: {@value #WOKEN} tasks wait on promises; all are completed while
     * the worker is held, so they enter its hot queue in one batch; the first to run blocks, and
     * the test spills the other four as a watcher would. Every task is woken exactly once.
     */
    @Test
    void aSpilledHotCellIsCountedOnceInItsWorkersWakeups() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).policy(AsyncPolicy.HYBRID).build()) {
            List<AsyncPromise<String>> gos = new ArrayList<>();
            List<JoinHandle<String>> handles = new ArrayList<>();
            CountDownLatch firstPolls = new CountDownLatch(WOKEN);
            AtomicBoolean firstTaken = new AtomicBoolean();
            CountDownLatch firstRuns = new CountDownLatch(1);
            CountDownLatch releaseFirst = new CountDownLatch(1);
            for (int i = 0; i < WOKEN; i++) {
                AsyncPromise<String> go = new AsyncPromise<>();
                gos.add(go);
                handles.add(rt.spawn(cx -> {
                    Poll<String> p = go.poll(cx);
                    if (!p.isReady()) {
                        firstPolls.countDown();
                        return Poll.pending();
                    }
                    if (firstTaken.compareAndSet(false, true)) {
                        firstRuns.countDown();                  // the rest of the batch waits in hot
                        awaitOrFail(releaseFirst);
                    }
                    return Poll.ready(p.value());
                }));
            }
            assertThat(firstPolls.await(WAIT_S, TimeUnit.SECONDS)).isTrue();
            StalledPollTest.awaitParked(rt, 1);
            assertThat(rt.stats().wakeups()).as("no wake-up yet").isZero();

            HeldWorker held = new HeldWorker(rt);
            for (AsyncPromise<String> go : gos) {
                go.complete("woken");                           // into the held worker's wake channel
            }
            held.release();                                     // it takes all five as one hot batch
            assertThat(firstRuns.await(WAIT_S, TimeUnit.SECONDS)).isTrue();

            AsyncWorker worker = rt.workers[0];
            worker.stalled();                                   // as the watcher would: spill hot
            assertThat(worker.wakeChannel.size()).as("the spilled cells").isEqualTo(WOKEN - 1);
            releaseFirst.countDown();
            for (JoinHandle<String> h : handles) {
                assertThat(h.get(WAIT_S, TimeUnit.SECONDS)).isEqualTo("woken");
            }

            assertThat(rt.stats().wakeups()).as("wake-ups counted, each task woken once").isEqualTo(WOKEN);
        }
    }

    private static void awaitOrFail(CountDownLatch latch) {
        try {
            if (!latch.await(2 * WAIT_S, TimeUnit.SECONDS)) {
                throw new IllegalStateException("never released");
            }
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
