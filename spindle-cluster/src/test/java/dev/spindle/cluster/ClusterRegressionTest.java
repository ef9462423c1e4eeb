/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static dev.spindle.cluster.HandDriven.reply;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Defects found in a review of the scheduler, the worker and their messages: each test failed on
 * the code before its fix (docs/measurements/2026-11-29-s24/cluster-regressions-before-after.txt).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClusterRegressionTest {

    // ---- helpers -----------------------------------------------------------------------------

    private static List<Message.Compute> computes(RecordingTransport t, int worker, String key) {
        List<Message.Compute> out = new ArrayList<>();
        for (RecordingTransport.Sent s : t.sentToWorkers()) {
            if (s.worker() == worker && s.message() instanceof Message.Compute c && c.key().equals(key)) {
                out.add(c);
            }
        }
        return out;
    }

    // ---- 1. a worker-supplied holder id out of range wedges the task for good ------------------

    @Test
    void aDataMissingNamingAnUnknownHolderDoesNotWedgeTheTask() {
        RecordingTransport t = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).build(), t);
        try {
            s.submit(List.of(TaskSpec.builder("a", args -> 1).restrictions(Restrictions.strict(Set.of(0))).build()));
            Message.Compute a = computes(t, 0, "a").get(0);
            reply(s, new Message.TaskFinished(0, "a", a.attempt(), 1, 4, 1000));
            CompletableFuture<Object> b = s.submit(List.of(TaskSpec.builder("b", args -> 2).dependsOn("a")
                    .restrictions(Restrictions.strict(Set.of(1))).build())).get(0);
            Message.Compute first = computes(t, 1, "b").get(0);
            // worker 1 could not fetch 'a' and names a holder id the scheduler does not have
            reply(s, new Message.DataMissing(1, "b", first.attempt(), "a", 99));
            // the task must be placed again (or fail); it is neither
            assertThat(computes(t, 1, "b")).as("b is re-assigned after its DataMissing").hasSize(2);
            assertThat(b).isNotDone();
        } finally {
            s.close();
        }
    }

    /**
     * A fetch that failed (a timeout, say) drops its holder from the value's holders; if that
     * worker still had the value, nothing would ever release its copy: it is told to drop it.
     */
    @Test
    void aHolderDroppedAfterAFailedFetchIsToldToReleaseItsCopy() {
        RecordingTransport t = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).build(), t);
        try {
            s.submit(List.of(TaskSpec.builder("a", args -> 1).restrictions(Restrictions.strict(Set.of(0))).build()));
            reply(s, new Message.TaskFinished(0, "a", computes(t, 0, "a").get(0).attempt(), 1, 4, 1000));
            s.submit(List.of(TaskSpec.builder("b", args -> 2).dependsOn("a")
                    .restrictions(Restrictions.strict(Set.of(1))).build()));
            reply(s, new Message.DataMissing(1, "b", computes(t, 1, "b").get(0).attempt(), "a", 0));
            assertThat(t.sentToWorkers()).as("worker 0 told to drop the copy no longer counted")
                    .anyMatch(x -> x.worker() == 0 && x.message() instanceof Message.ReleaseKey r && r.key().equals("a"));
            assertThat(computes(t, 0, "a")).as("a computed again").hasSize(2);
        } finally {
            s.close();
        }
    }

    // ---- 2. Incarnations: an incarnation lost two generations ago comes back ------------------

    @Test
    void aLostIncarnationIsRefusedForGoodEvenAfterItsSuccessorIsLost() {
        Incarnations<String> ids = new Incarnations<>();
        long first = 1111;
        long second = 2222;
        assertThat(ids.prove(0, "host-a", first)).isEqualTo(Incarnations.Proof.NEW);
        assertThat(ids.lose(0)).isTrue();
        assertThat(ids.prove(0, "host-b", second)).isEqualTo(Incarnations.Proof.REJOINED);
        assertThat(ids.lose(0)).isTrue();
        // the first process (a healed partition) comes back: "refused for good"
        assertThat(ids.prove(0, "host-a", first)).isEqualTo(Incarnations.Proof.TAKEN);
    }

    // ---- 3. a null result travels as a value, not as "not held" ------------------------------

    /** Delivers on one thread, and serves fetches from {@link WorkerNode#valueOrDefault}, as the transports do. */
    private static final class NodeTransport implements Transport {
        final ExecutorService wire = Executors.newSingleThreadExecutor();
        static final Object NOT_HELD = new Object();
        final List<WorkerNode> nodes = new CopyOnWriteArrayList<>();
        volatile ClusterCoordinator coordinator;

        @Override
        public void toWorker(int worker, Message.ToWorker message) {
            run(() -> nodes.get(worker).receive(message));
        }

        @Override
        public void toScheduler(Message.ToScheduler message) {
            run(() -> coordinator.receive(message));
        }

        private void run(Runnable r) {
            try {
                wire.execute(r);
            } catch (java.util.concurrent.RejectedExecutionException closed) {
                // over
            }
        }

        @Override
        public CompletableFuture<Object> fetch(String key, int holder, int requester) {
            Object value = nodes.get(holder).valueOrDefault(key, NOT_HELD);   // as the transports answer
            return value == NOT_HELD
                    ? CompletableFuture.failedFuture(new IllegalStateException(holder + " does not hold " + key))
                    : CompletableFuture.completedFuture(value);
        }

        @Override
        public void workerLost(int worker) {
        }

        @Override
        public long bytesTransferred() {
            return 0;
        }

        @Override
        public void close() {
            wire.shutdownNow();
        }
    }

    @Test
    void aTaskWhoseDependencyReturnedNullOnAnotherWorkerCompletes() throws Exception {
        NodeTransport transport = new NodeTransport();
        for (int i = 0; i < 2; i++) {
            transport.nodes.add(new WorkerNode(i, 1, transport));
        }
        transport.coordinator = ClusterCoordinator.start(CoordinatorSettings.builder().workers(2).threadsPerWorker(1)
                .stealing(false).build(), transport);
        try {
            Client client = transport.coordinator.client();
            ClusterFuture<Object> a = client.submit(TaskSpec.builder("a", (TaskFunction<Object>) args -> null)
                    .restrictions(Restrictions.strict(Set.of(0))).build());
            ClusterFuture<String> b = client.submit(TaskSpec.builder("b", args -> "got " + args.get(0)).dependsOn(a)
                    .restrictions(Restrictions.strict(Set.of(1))).build());
            assertThat(a.get()).isNull();
            CompletableFuture<String> result = b.toCompletableFuture();
            try {
                result.get(5, TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                // fall through to the assertion below
            }
            assertThat(result).as("b, whose dependency's value is null, completes (meanwhile worker 0 ran 'a' %d times)",
                    transport.nodes.get(0).executed()).isCompletedWithValue("got null");
        } finally {
            transport.coordinator.close();
            transport.nodes.forEach(WorkerNode::close);
            transport.close();
        }
    }

    // ---- 4. forgetReleased: a copy that lands after its key was forgotten stays, stale ---------

    @Test
    void aCopyThatArrivesAfterItsKeyWasForgottenIsFreedAndNeverUsedForANewTaskOfThatKey() throws Exception {
        Map<String, CompletableFuture<Object>> held = new ConcurrentHashMap<>();   // until the test completes them
        OneRealWorker w = new OneRealWorker(0, (key, holder) -> held.computeIfAbsent(key + "@" + holder,
                k -> new CompletableFuture<>()));
        GraphScheduler s = new GraphScheduler(HandDriven.settings(3).forgetReleased(true).build(), w);
        w.scheduler = s;
        CountDownLatch busy = new CountDownLatch(1);
        try {
            // k (1 MB) on worker 2, m on worker 1
            s.submit(List.of(TaskSpec.builder("k", args -> 1).restrictions(Restrictions.strict(Set.of(2))).build()));
            reply(s, new Message.TaskFinished(2, "k", w.last(2, "k").attempt(), 1, 1_000_000, 1000));
            s.submit(List.of(TaskSpec.builder("m", args -> 10).restrictions(Restrictions.strict(Set.of(1))).build()));
            reply(s, new Message.TaskFinished(1, "m", w.last(1, "m").attempt(), 10, 4, 1000));
            // workers 1 and 2 are busy, so t goes to worker 0, which starts fetching k and m
            s.submit(List.of(TaskSpec.builder("busy-1", args -> 0).restrictions(Restrictions.strict(Set.of(1)))
                    .durationHint(Duration.ofSeconds(10)).build()));
            s.submit(List.of(TaskSpec.builder("busy-2", args -> 0).restrictions(Restrictions.strict(Set.of(2)))
                    .durationHint(Duration.ofSeconds(10)).build()));
            s.submit(List.of(TaskSpec.builder("t", args -> (Integer) args.get(0) + (Integer) args.get(1))
                    .dependsOn("k", "m").build()));
            w.settle();
            assertThat(w.last(0, "t")).as("t placed on worker 0").isNotNull();
            assertThat(held).containsKeys("k@2", "m@1");
            // now worker 0 is the busy one (a real task that blocks), 1 and 2 are free
            s.submit(List.of(TaskSpec.builder("busy-0", args -> {
                busy.await();
                return 0;
            }).restrictions(Restrictions.strict(Set.of(0))).durationHint(Duration.ofSeconds(100)).build()));
            reply(s, new Message.TaskFinished(1, "busy-1", w.last(1, "busy-1").attempt(), 0, 4, 1000));
            reply(s, new Message.TaskFinished(2, "busy-2", w.last(2, "busy-2").attempt(), 0, 4, 1000));
            w.settle();
            // worker 1 no longer serves m: worker 0 reports it missing and gives t up (its fetch of k goes on)
            held.get("m@1").completeExceptionally(new IllegalStateException("gone"));
            w.settle();
            Message.Compute m2 = w.last(1, "m");
            reply(s, new Message.TaskFinished(1, "m", m2.attempt(), 10, 4, 1000));
            Message.Compute t2 = w.last(2, "t");
            assertThat(t2).as("t re-placed on worker 2").isNotNull();
            reply(s, new Message.TaskFinished(2, "t", t2.attempt(), 11, 4, 1000));
            for (String key : List.of("k", "m", "t", "busy-1", "busy-2")) {
                s.releaseFuture(key);
            }
            w.settle();
            assertThat(s.taskRecords()).as("k, m and t are forgotten").isEqualTo(1);   // busy-0 remains
            // worker 0's fetch of the old k completes now: it stores k and reports DataAdded
            held.get("k@2").complete(1);
            w.settle();
            // (on the reviewed code worker 0 now holds the old k for good; the scheduler ignored its DataAdded)

            // a new task under the forgotten key k, then a task on worker 0 that depends on it
            s.submit(List.of(TaskSpec.builder("k", args -> 2).restrictions(Restrictions.strict(Set.of(1))).build()));
            reply(s, new Message.TaskFinished(1, "k", w.last(1, "k").attempt(), 2, 4, 1000));
            CompletableFuture<Object> d = s.submit(List.of(TaskSpec.builder("d", args -> args.get(0)).dependsOn("k")
                    .restrictions(Restrictions.strict(Set.of(0))).build())).get(0);
            busy.countDown();
            w.settle();
            CompletableFuture<Object> fetchNewK = held.get("k@1");
            if (fetchNewK != null) {
                fetchNewK.complete(2);          // worker 1 serves the new k, if worker 0 asks for it
            }
            Object value = d.get(10, TimeUnit.SECONDS);

            org.assertj.core.api.SoftAssertions soft = new org.assertj.core.api.SoftAssertions();
            soft.assertThat(value).as("d sees the new k's value").isEqualTo(2);
            soft.assertThat(w.releasedTo(0, "k")).as("worker 0 told to drop its copy of the forgotten k").isTrue();
            soft.assertAll();
        } finally {
            busy.countDown();
            s.close();
            w.close();
        }
    }

    // ---- 5. a Replicate whose fetch fails is never reported nor asked again: retire hangs ------

    /** Worker 1 real, its first {@code failing} fetches failing (a timeout, say), later ones answered 1. */
    private static OneRealWorker failingFetches(int failing, java.util.concurrent.atomic.AtomicInteger tried) {
        return new OneRealWorker(1, (key, holder) -> tried.getAndIncrement() < failing
                ? CompletableFuture.failedFuture(new IllegalStateException("timed out"))
                : CompletableFuture.completedFuture(1));
    }

    /** Worker 0 computes "k" and is then retired; returns the retirement. */
    private static CompletableFuture<Void> computeKThenRetireZero(OneRealWorker t, GraphScheduler s) {
        t.scheduler = s;
        s.submit(List.of(TaskSpec.builder("k", args -> 1).restrictions(Restrictions.loose(Set.of(0))).build()));
        reply(s, new Message.TaskFinished(0, "k", computes(t.recorded, 0, "k").get(0).attempt(), 1, 4, 1000));
        return s.retire(0);
    }

    @Test
    void aRetirementSurvivesOneFailedCopyOfItsValues() throws Exception {
        java.util.concurrent.atomic.AtomicInteger tried = new java.util.concurrent.atomic.AtomicInteger();
        OneRealWorker t = failingFetches(1, tried);
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).build(), t);
        try {
            CompletableFuture<Void> retired = computeKThenRetireZero(t, s);
            try {
                retired.get(5, TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                // checked below
            }
            assertThat(retired).as("worker 0 retires (Replicate messages sent: %d, fetches tried: %d)", t.replicates(),
                    tried.get()).isDone();
            assertThat(t.replicates()).as("the copy asked again after it failed").isEqualTo(2);
        } finally {
            s.close();
            t.close();
        }
    }

    /**
     * A value whose copy always fails does not keep its worker retiring for good: after
     * {@link GraphScheduler#MAX_REPLICA_FAILURES} tries the worker retires without it, and the
     * value is computed again when a task needs it.
     */
    @Test
    void aValueThatCannotBeCopiedIsGivenUpAndComputedAgainWhenNeeded() throws Exception {
        OneRealWorker t = failingFetches(Integer.MAX_VALUE, new java.util.concurrent.atomic.AtomicInteger());
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).build(), t);
        try {
            computeKThenRetireZero(t, s).get(30, TimeUnit.SECONDS);
            assertThat(t.replicates()).isEqualTo(GraphScheduler.MAX_REPLICA_FAILURES);
            CompletableFuture<Object> d = s.submit(List.of(TaskSpec.builder("d", args -> (Integer) args.get(0) + 1)
                    .dependsOn("k").build())).get(0);
            assertThat(d.get(30, TimeUnit.SECONDS)).isEqualTo(2);
            assertThat(computes(t.recorded, 1, "k")).as("k computed again, on worker 1").hasSize(1);
        } finally {
            s.close();
            t.close();
        }
    }
}
