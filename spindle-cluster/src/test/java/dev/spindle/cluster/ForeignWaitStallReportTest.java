/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A task that waits for a future its own scheduler does not own (another cluster's in the JVM,
 * or any, on a worker whose scheduler is elsewhere: a {@link WorkerNode}'s) on a worker paused
 * over its memory limit with values that cannot spill. A waiting task stopped counting as running
 * ({@link ClusterWorker#helpUntil}) whatever it waited for, but only a wait for a key of the
 * worker's own cluster is named in the stall report: so the worker reported itself stalled with
 * nothing awaited, and its scheduler, with no other worker busy, took the tasks queued there for
 * ones nothing could ever start and failed them, although the waiting task resumes once the other
 * cluster's task ends, and its end may free the memory. On the code before the fix the worker
 * sent a stalled report while the task waited; now the wait counts as running, as it did before
 * waits were uncounted.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ForeignWaitStallReportTest {

    private static final int MB = 1_000_000;

    /** A value that knows its size but cannot be written, so it can never spill. */
    record Unspillable(long sizeInBytes) implements Sized {
    }

    @Test
    void aWorkerWhoseTaskWaitsForAnotherClustersFutureDoesNotReportAStall() throws Exception {
        assertNoStallWhileWaitingForAForeignFuture(new Object());   // the scheduler of another cluster than the future's
    }

    @Test
    void aWorkerServingAnUnknownSchedulerDoesNotReportAStallWhileItsTaskWaits() throws Exception {
        assertNoStallWhileWaitingForAForeignFuture(null);           // as a WorkerNode's: no cluster in this JVM
    }

    private static void assertNoStallWhileWaitingForAForeignFuture(Object servedScheduler) throws Exception {
        try (LocalCluster other = LocalCluster.builder().workers(1).threadsPerWorker(1).latency(Duration.ZERO)
                .bandwidth(1e12).stealing(false).balanceInterval(Duration.ZERO).build()) {
            CountDownLatch go = new CountDownLatch(1);
            ClusterFuture<String> foreign = other.client().submit("foreign", args -> {
                go.await();
                return "foreign's value";
            });
            RecordingTransport transport = new RecordingTransport();
            ClusterWorker worker = new ClusterWorker(0, 1, transport, 10L * MB);
            if (servedScheduler != null) {
                worker.serves(servedScheduler);
            }
            try {
                AtomicReference<Thread> waiter = new AtomicReference<>();
                worker.receive(new Message.Compute("waiter", 1, args -> {
                    waiter.set(Thread.currentThread());
                    return foreign.get(60, TimeUnit.SECONDS);
                }, List.of(), Map.of(), 0));
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (!waitsInHelpUntil(waiter.get())) {   // past the count's change, if any
                    assertThat(System.nanoTime() - deadline).as("the task waits").isNegative();
                    Thread.sleep(5);
                }
                for (int i = 0; i < 9; i++) {         // 9 MB that cannot spill: over the 8 MB pause fraction
                    worker.store().put("pinned-" + i, new Unspillable(MB), MB);
                }
                assertThat(worker.store().stuck()).as("the store is paused with nothing it could spill").isTrue();

                // the reporter sends a task's running report, then its stall report, every round: two
                // running reports more, and a round that looked at the stuck store has ended
                int seen = runningReports(transport);
                deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (runningReports(transport) < seen + 2) {
                    assertThat(System.nanoTime() - deadline).as("the reporter went round").isNegative();
                    Thread.sleep(5);
                }
                assertThat(stalledReports(transport))
                        .as("stall reports while a task of the worker waits for a future its scheduler does not own")
                        .isEmpty();

                go.countDown();
                List<Message.ToScheduler> sent = transport.awaitFinished("waiter");
                assertThat(sent).anyMatch(m -> m instanceof Message.TaskFinished f && f.key().equals("waiter")
                        && "foreign's value".equals(f.value()));
            } finally {
                go.countDown();
                worker.shutdown();
            }
        }
    }

    /** Whether {@code t} is parked in the wait of {@link ClusterWorker#helpUntil}. */
    private static boolean waitsInHelpUntil(Thread t) {
        if (t == null || t.getState() != Thread.State.TIMED_WAITING) {
            return false;
        }
        for (StackTraceElement e : t.getStackTrace()) {
            if (e.getClassName().equals(ClusterWorker.class.getName()) && e.getMethodName().equals("helpUntil")) {
                return true;
            }
        }
        return false;
    }

    private static int runningReports(RecordingTransport transport) {
        synchronized (transport) {
            return (int) transport.running.stream().filter(r -> r.key().equals("waiter")).count();
        }
    }

    private static List<Message.MemoryStall> stalledReports(RecordingTransport transport) {
        synchronized (transport) {
            return transport.toScheduler.stream()
                    .filter(m -> m instanceof Message.MemoryStall s && s.stalled())
                    .map(m -> (Message.MemoryStall) m)
                    .toList();
        }
    }
}
