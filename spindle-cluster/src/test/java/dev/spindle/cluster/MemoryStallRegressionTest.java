/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static dev.spindle.cluster.HandDriven.reply;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker over its pause fraction with values that cannot spill stays paused until something
 * it holds is released. Before the fix, when every worker was so paused and none had a task
 * running, the tasks queued on them never started and never failed: the caller's future never
 * completed, with no sign of why (as in Dask). A value that could spill but was kept in memory as
 * the one just stored paused its worker the same way. Now such tasks fail with an exception that
 * names the memory limit, the paused workers and the bytes that cannot spill, and the kept value
 * spills; a worker that can still make progress keeps the old behaviour: the paused one waits.
 * The first two tests failed on the code before the fix: after 20 s the future was still
 * incomplete, its worker paused with 9,000,000 (and 8,500,027) bytes in memory.
 *
 * <p>Two gaps were left: (a) a worker whose disk refused every spill stayed paused with values it
 * could not spill but that counted as spillable, so it never stalled and its queued task waited
 * for good; (b) a worker that was not paused idled while a task waited for good on a stalled one:
 * a task only stalled workers may run, or one that could run on the idle worker but was never
 * moved there (stealing off, or a lone queued task, which balancing never takes). On the code
 * before their fix the cluster tests of those timed out after 30 s, and the others failed at once
 * (the store was not stuck; both tasks failed before their worker answered; a task was placed on
 * the stalled worker while the other idled). Now a refused spill counts as a value
 * that cannot spill until a spill succeeds; the scheduler takes a stalled worker's queued tasks
 * back by the steal protocol (a worker that unstalled and started one keeps it), places those
 * another worker may run there, and fails the others only once nothing but the client could
 * make progress: never while another worker has a task or a release is on its way.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MemoryStallRegressionTest {

    private static final int MB = 1_000_000;
    private static final long LIMIT = 10L * MB;

    /** A value that knows its size but cannot be written, so it can never spill. */
    record Unspillable(long sizeInBytes) implements Sized {
    }

    private static LocalCluster.Builder cluster(int workers) {
        return LocalCluster.builder().workers(workers).threadsPerWorker(1).latency(Duration.ZERO).bandwidth(1e12)
                .stealing(false).balanceInterval(Duration.ZERO).retries(0).memoryLimitPerWorker(LIMIT);
    }

    /** Nine values of 1 MB that cannot spill on worker 0: 9 MB, over its 8 MB pause fraction. */
    private static List<ClusterFuture<Unspillable>> pauseWorkerZero(Client client, String prefix) throws Exception {
        List<ClusterFuture<Unspillable>> held = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            ClusterFuture<Unspillable> f = client.submit(TaskSpec.builder(prefix + i, args -> new Unspillable(MB))
                    .restrictions(Restrictions.strict(Set.of(0))).build());
            f.get(20, TimeUnit.SECONDS);
            held.add(f);
        }
        return held;
    }

    @Test
    void aTaskNoPausedWorkerCanEverStartFailsNamingTheMemoryInsteadOfHanging() throws Exception {
        try (LocalCluster cluster = cluster(1).build()) {
            Client client = cluster.client();
            List<ClusterFuture<Unspillable>> held = pauseWorkerZero(client, "pinned-");
            assertThat(cluster.stats().workers().get(0).paused()).as("worker 0 paused").isTrue();

            CompletableFuture<Integer> next = client.submit("next", args -> 42).toCompletableFuture();
            awaitQuietly(next);
            assertThat(next).as("'next', queued on the only worker, paused with 9 MB that cannot spill (stats: %s)",
                    cluster.stats()).isCompletedExceptionally();
            assertThat(cause(next)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("'next'")
                    .hasMessageContaining("worker 0")
                    .hasMessageContaining("9000000 bytes")
                    .hasMessageContaining("cannot spill")
                    .hasMessageContaining("memory limit of 10000000 bytes");

            // a task submitted while the cluster stays so is told at once, not queued for good
            CompletableFuture<Integer> later = client.submit("later", args -> 43).toCompletableFuture();
            awaitQuietly(later);
            assertThat(later).as("'later', submitted to the stalled cluster").isCompletedExceptionally();
            assertThat(cause(later)).isInstanceOf(IllegalStateException.class).hasMessageContaining("cannot spill");

            // once the client releases what it holds, the worker runs tasks again
            held.forEach(ClusterFuture::release);
            assertThat(client.submit("again", args -> 44).get(20, TimeUnit.SECONDS)).isEqualTo(44);
        }
    }

    @Test
    void aValueKeptInMemoryAsTheOneJustStoredSpillsWhenItsWorkerIsPausedInsteadOfStallingIt() throws Exception {
        try (LocalCluster cluster = cluster(1).build()) {
            Client client = cluster.client();
            List<ClusterFuture<?>> held = new ArrayList<>();
            for (int i = 0; i < 7; i++) {             // 7 MB that cannot spill: over the target, under the pause
                ClusterFuture<Unspillable> f = client.submit("pinned-" + i, args -> new Unspillable(MB));
                f.get(20, TimeUnit.SECONDS);
                held.add(f);
            }
            // 1.5 MB that can spill, kept in memory as the value just stored: 8.5 MB, paused
            ClusterFuture<byte[]> spillable = client.submit("spillable", args -> new byte[3 * MB / 2]);
            spillable.get(20, TimeUnit.SECONDS);
            held.add(spillable);

            CompletableFuture<Integer> next = client.submit("next", args -> 42).toCompletableFuture();
            awaitQuietly(next);
            assertThat(next).as("'next', on a worker paused by a value it could spill (stats: %s)", cluster.stats())
                    .isCompletedWithValue(42);
            assertThat(cluster.stats().workers().get(0).spilledBytes()).as("bytes spilled").isPositive();
            assertThat(held).hasSize(8);
        }
    }

    @Test
    void aPausedWorkerWaitsWhileAnotherWorkerRunsATaskWhoseEndFreesItsValues() throws Exception {
        try (LocalCluster cluster = cluster(2).build()) {
            Client client = cluster.client();
            CountDownLatch go = new CountDownLatch(1);
            ClusterFuture<Integer> slow = client.submit(TaskSpec.<Integer>builder("slow", args -> {
                go.await();
                throw new IllegalArgumentException("slow gave up");
            }).restrictions(Restrictions.strict(Set.of(1))).build());
            List<ClusterFuture<Unspillable>> pinned = pauseWorkerZero(client, "pinned-");
            List<ClusterFuture<?>> inputs = new ArrayList<>(pinned);
            inputs.add(slow);
            // holds the values on worker 0 until slow ends; the client holds them no longer
            ClusterFuture<Integer> gate = client.submit("gate", args -> 0, inputs.toArray(new ClusterFuture<?>[0]));
            pinned.forEach(ClusterFuture::release);
            CompletableFuture<Integer> next = client.submit(TaskSpec.builder("next", args -> 42)
                    .restrictions(Restrictions.strict(Set.of(0))).build()).toCompletableFuture();

            assertThat(cluster.stats().workers().get(0).paused()).as("worker 0 paused").isTrue();
            Thread.sleep(500);                        // several of worker 0's reports: no failure while slow runs
            assertThat(next).as("'next', while worker 1 runs a task that can free worker 0's values").isNotDone();

            go.countDown();                           // slow fails, gate with it, and worker 0's values go
            assertThat(next.get(20, TimeUnit.SECONDS)).isEqualTo(42);
            CompletableFuture<Integer> g = gate.toCompletableFuture();
            awaitQuietly(g);
            assertThat(cause(g)).as("gate fails with slow's own exception").hasMessageContaining("slow gave up");
        }
    }

    // ---- (a) a spill directory that refuses every write --------------------------------------------------

    /** A value that knows its size and can spill, unless the disk refuses it. */
    record Spillable(long sizeInBytes) implements Sized, java.io.Serializable {
    }

    /** A cluster of one worker whose spills go under {@code spillParent}; LocalCluster spills under java.io.tmpdir. */
    private record OneWorkerCluster(GraphScheduler scheduler, ClusterWorker worker, LocalTransport transport,
                                    Client client) implements AutoCloseable {
        static OneWorkerCluster spillingUnder(Path spillParent) {
            LocalTransport transport = new LocalTransport(1e12, 0);
            ClusterWorker worker = new ClusterWorker(0, 1, transport, new WorkerMemory(LIMIT, spillParent), false);
            GraphScheduler scheduler = new GraphScheduler(CoordinatorSettings.builder().workers(1).threadsPerWorker(1)
                    .latency(Duration.ZERO).bandwidth(1e12).stealing(false).balanceInterval(Duration.ZERO).retries(0)
                    .build(), transport);
            transport.connect(List.of(worker), scheduler::receive);
            return new OneWorkerCluster(scheduler, worker, transport, new Client(scheduler));
        }

        @Override
        public void close() {
            scheduler.close();
            worker.shutdown();
            transport.close();
        }
    }

    @Test
    void aStoreWhoseDiskRefusesEverySpillIsStuckUntilASpillSucceeds(@TempDir Path dir) throws Exception {
        Path parent = dir.resolve("not-a-directory");
        Files.writeString(parent, "the spill directory cannot be made under a file");
        DataStore store = new DataStore(new WorkerMemory(LIMIT, parent));
        try {
            for (int i = 0; i < 9; i++) {
                store.put("k-" + i, new Spillable(MB), MB);
            }
            assertThat(store.paused()).as("paused: nothing could spill").isTrue();
            assertThat(store.stuck()).as("stuck: every value it could spill, the disk refused").isTrue();

            Files.delete(parent);
            Files.createDirectory(parent);                // the disk takes writes again
            assertThat(store.stuck()).as("stuck once a spill succeeds").isFalse();
            assertThat(store.paused()).as("paused once spilled down to the target").isFalse();
            assertThat(store.spilledBytes()).isPositive();
        } finally {
            store.clear();
        }
    }

    @Test
    void aWorkerWhoseDiskRefusesEverySpillFailsItsQueuedTaskNamingTheMemoryAndRunsAgainOnceTheDiskTakesThem(
            @TempDir Path dir) throws Exception {
        Path parent = dir.resolve("not-a-directory");
        Files.writeString(parent, "the spill directory cannot be made under a file");
        try (OneWorkerCluster cluster = OneWorkerCluster.spillingUnder(parent)) {
            Client client = cluster.client();
            List<ClusterFuture<Spillable>> held = new ArrayList<>();
            for (int i = 0; i < 9; i++) {             // 9 MB that could spill, but the disk refuses every write
                ClusterFuture<Spillable> f = client.submit("value-" + i, args -> new Spillable(MB));
                f.get(20, TimeUnit.SECONDS);
                held.add(f);
            }
            assertThat(cluster.worker().store().paused()).as("worker 0 paused").isTrue();

            ClusterFuture<Integer> next = client.submit("next", args -> 42);
            assertThatThrownBy(() -> next.get(30, TimeUnit.SECONDS))
                    .as("'next', queued on the only worker, whose disk refuses to take its values")
                    .isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("'next'")
                    .hasMessageContaining("worker 0")
                    .hasMessageContaining("cannot spill")
                    .hasMessageContaining("memory limit of 10000000 bytes");

            Files.delete(parent);
            Files.createDirectory(parent);            // the disk takes writes again: the worker spills and runs
            assertThat(awaitValue(client, "again", 44)).as("'again', once the disk takes writes").isEqualTo(44);
            assertThat(cluster.worker().store().spilledBytes()).as("bytes spilled").isPositive();
            assertThat(held).hasSize(9);
        }
    }

    /**
     * Submits tasks {@code key-0, key-1, ...} returning {@code value} until one succeeds: a task
     * submitted before the worker's next report that it stalls no more fails at once.
     */
    private static int awaitValue(Client client, String key, int value) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (int i = 0; ; i++) {
            try {
                return client.submit(key + "-" + i, args -> value).get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (System.nanoTime() - deadline > 0) {
                    throw e;
                }
                Thread.sleep(50);
            }
        }
    }

    // ---- a worker that unstalls on its own (its disk took a spill) keeps the task it started -------------

    @Test
    void aWithdrawnTaskFailsOnlyOnceItsWorkerGaveItUpAndOneItStartedMeanwhileFinishes() throws Exception {
        RecordingTransport t = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(1).retries(0).build(), t);
        try {
            List<CompletableFuture<Object>> fs = s.submit(List.of(TaskSpec.builder("given-up", args -> 1).build(),
                    TaskSpec.builder("started", args -> 2).build()));
            HandDriven.reply(s, new Message.MemoryStall(0, true, 0, 9L * MB, LIMIT));
            Message.StealRequest givenUp = withdrawal(t, "given-up");
            Message.StealRequest started = withdrawal(t, "started");
            assertThat(fs).as("nothing fails before the worker answers the withdrawals").noneMatch(f -> f.isDone());

            HandDriven.reply(s, new Message.StealResponse(0, givenUp.stealId(), "given-up", givenUp.attempt(), true));
            awaitQuietly(fs.get(0));
            assertThat(fs.get(0)).as("'given-up', which the stalled worker gave up").isCompletedExceptionally();
            assertThat(cause(fs.get(0))).isInstanceOf(IllegalStateException.class).hasMessageContaining("cannot spill");

            // its disk took a spill meanwhile: it unstalled and started the task before the withdrawal came
            HandDriven.reply(s, new Message.StealResponse(0, started.stealId(), "started", started.attempt(), false));
            assertThat(fs.get(1)).as("'started', which the worker started before the withdrawal came").isNotDone();
            HandDriven.reply(s, new Message.TaskFinished(0, "started", started.attempt(), 2, 4, 1000));
            assertThat(fs.get(1).get(20, TimeUnit.SECONDS)).isEqualTo(2);
        } finally {
            s.close();
        }
    }

    /** The withdrawal of {@code key} the scheduler sent (a steal request with a negative id). */
    private static Message.StealRequest withdrawal(RecordingTransport t, String key) {
        return t.sentToWorkers().stream().map(RecordingTransport.Sent::message)
                .filter(m -> m instanceof Message.StealRequest r && r.key().equals(key) && r.stealId() < 0)
                .map(Message.StealRequest.class::cast).findFirst()
                .orElseThrow(() -> new AssertionError("no withdrawal of '" + key + "' in " + t.sentToWorkers()));
    }

    @Test
    void aTaskOnlyAStalledWorkerMayRunWaitsWhileAnotherWorkerHasATaskAndWhileAReleaseIsOnItsWay() throws Exception {
        RecordingTransport t = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).retries(0).build(), t);
        try {
            s.submit(List.of(TaskSpec.builder("v", args -> 1).restrictions(Restrictions.strict(Set.of(0))).build()));
            HandDriven.reply(s, new Message.TaskFinished(0, "v", sent(t, 0, "v").attempt(), 1, 4, 1000));
            HandDriven.reply(s, new Message.MemoryStall(0, true, 0, 9L * MB, LIMIT));
            // 'uses-v' frees v on worker 0 when it ends; only worker 0 may run 'pinned'
            List<CompletableFuture<Object>> fs = s.submit(List.of(
                    TaskSpec.builder("uses-v", args -> 2).dependsOn("v").build(),
                    TaskSpec.builder("pinned", args -> 3).restrictions(Restrictions.strict(Set.of(0))).build()));
            s.releaseFuture("v");
            assertThat(sent(t, 1, "uses-v")).as("'uses-v' placed on worker 1, which is not stalled").isNotNull();
            assertThat(sent(t, 0, "pinned")).as("'pinned' waits on worker 0").isNotNull();
            s.stealEvents();
            assertThat(withdrawals(t, "pinned")).as("withdrawals of 'pinned' while worker 1 has a task").isZero();

            // its end releases v on worker 0: a report that has not handled that release fails nothing
            HandDriven.reply(s, new Message.TaskFinished(1, "uses-v", sent(t, 1, "uses-v").attempt(), 2, 4, 1000));
            HandDriven.reply(s, new Message.MemoryStall(0, true, 0, 9L * MB - 4, LIMIT));
            assertThat(withdrawals(t, "pinned")).as("withdrawals of 'pinned' while a release is on its way").isZero();
            assertThat(fs.get(1)).isNotDone();

            // still stalled once it handled the release, and worker 1 idles: nothing can make progress
            HandDriven.reply(s, new Message.MemoryStall(0, true, 1, 9L * MB - 4, LIMIT));
            Message.StealRequest w = withdrawal(t, "pinned");
            HandDriven.reply(s, new Message.StealResponse(0, w.stealId(), "pinned", w.attempt(), true));
            awaitQuietly(fs.get(1));
            assertThat(cause(fs.get(1))).as("'pinned', once nothing could make progress")
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("worker 0 holds 8999996 bytes");
            assertThat(fs.get(0).get(20, TimeUnit.SECONDS)).isEqualTo(2);
        } finally {
            s.close();
        }
    }

    /** The last task {@code key} sent to {@code worker}, or null. */
    private static Message.Compute sent(RecordingTransport t, int worker, String key) {
        Message.Compute last = null;
        for (RecordingTransport.Sent x : t.sentToWorkers()) {
            if (x.worker() == worker && x.message() instanceof Message.Compute c && c.key().equals(key)) {
                last = c;
            }
        }
        return last;
    }

    private static long withdrawals(RecordingTransport t, String key) {
        return t.sentToWorkers().stream().map(RecordingTransport.Sent::message)
                .filter(m -> m instanceof Message.StealRequest r && r.key().equals(key) && r.stealId() < 0).count();
    }

    // ---- (b) an idle worker that may not, or is never asked to, take the task ---------------------------

    @Test
    void aTaskOnlyStalledWorkersMayRunFailsNamingTheMemoryWhileAnotherWorkerIdles() throws Exception {
        try (LocalCluster cluster = cluster(2).build()) {
            Client client = cluster.client();
            List<ClusterFuture<Unspillable>> held = pauseWorkerZero(client, "pinned-");
            assertThat(cluster.stats().workers().get(0).paused()).as("worker 0 paused").isTrue();

            ClusterFuture<Integer> next = client.submit(TaskSpec.builder("next", args -> 42)
                    .restrictions(Restrictions.strict(Set.of(0))).build());
            assertThatThrownBy(() -> next.get(30, TimeUnit.SECONDS))
                    .as("'next', which only worker 0 may run, while worker 1 idles")
                    .isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("'next'")
                    .hasMessageContaining("worker 0 holds 9000000 bytes")
                    .hasMessageContaining("cannot spill")
                    .hasMessageContaining("memory limit of 10000000 bytes");
            assertThat(client.submit("free", args -> 43).get(20, TimeUnit.SECONDS))
                    .as("a task worker 1 may run").isEqualTo(43);
            assertThat(held).hasSize(9);
        }
    }

    @Test
    void aTaskQueuedOnAWorkerThatStallsMovesToAnIdleWorkerWithStealingOff() throws Exception {
        queuedOnAWorkerThatStallsMovesToTheIdleOne(cluster(2));
    }

    @Test
    void aTaskQueuedOnAWorkerThatStallsMovesToAnIdleWorkerWithStealingOn() throws Exception {
        // a victim keeps as many tasks as it has threads, so balancing never takes a lone queued task
        queuedOnAWorkerThatStallsMovesToTheIdleOne(cluster(2).stealing(true).balanceInterval(Duration.ofMillis(20)));
    }

    private static void queuedOnAWorkerThatStallsMovesToTheIdleOne(LocalCluster.Builder builder) throws Exception {
        try (LocalCluster cluster = builder.build()) {
            Client client = cluster.client();
            List<ClusterFuture<?>> held = new ArrayList<>();
            for (int i = 0; i < 8; i++) {             // 8 MB that cannot spill: at the pause fraction, not over it
                ClusterFuture<Unspillable> f = client.submit(TaskSpec.builder("pinned-" + i, args -> new Unspillable(MB))
                        .restrictions(Restrictions.strict(Set.of(0))).build());
                f.get(20, TimeUnit.SECONDS);
                held.add(f);
            }
            CountDownLatch go = new CountDownLatch(1);
            ClusterFuture<Unspillable> ninth = client.submit(TaskSpec.builder("ninth", args -> {
                go.await();
                return new Unspillable(MB);
            }).restrictions(Restrictions.strict(Set.of(0))).build());
            // worker 0 is preferred, not required: queued there behind 'ninth', whose value pauses it
            ClusterFuture<Integer> next = client.submit(TaskSpec.builder("next", args -> 42)
                    .restrictions(Restrictions.loose(Set.of(0))).build());
            assertThat(cluster.stats().workers().get(0).processing()).as("'ninth' and 'next' on worker 0").isEqualTo(2);
            go.countDown();
            held.add(ninth);
            ninth.get(20, TimeUnit.SECONDS);

            assertThat(next.get(30, TimeUnit.SECONDS)).as("'next', queued on worker 0, stalled, while worker 1 idles")
                    .isEqualTo(42);
            assertThat(cluster.taskEvents()).filteredOn(e -> e.key().equals("next"))
                    .extracting(TaskEvent::worker).containsExactly(1);
            assertThat(cluster.stats().workers().get(0).paused()).as("worker 0 paused").isTrue();
        }
    }

    @Test
    void aTaskWhoseInputIsOnlyOnAStalledWorkerRunsOnAnIdleWorker() throws Exception {
        try (LocalCluster cluster = cluster(2).build()) {
            Client client = cluster.client();
            List<ClusterFuture<Unspillable>> held = pauseWorkerZero(client, "pinned-");
            assertThat(cluster.stats().workers().get(0).paused()).as("worker 0 paused").isTrue();

            // its input is on worker 0 only, which placement prefers (no transfer), while worker 1 idles
            ClusterFuture<Long> next = client.submit("next", args -> ((Unspillable) args.get(0)).sizeInBytes(),
                    held.get(0));
            assertThat(next.get(30, TimeUnit.SECONDS)).as("'next', whose input only a stalled worker holds")
                    .isEqualTo(MB);
            assertThat(cluster.taskEvents()).filteredOn(e -> e.key().equals("next"))
                    .extracting(TaskEvent::worker).containsExactly(1);
        }
    }

    /** Waits up to 20 s for {@code f}, however it ends; the assertion that follows says what was expected. */
    private static void awaitQuietly(CompletableFuture<?> f) throws InterruptedException {
        try {
            f.get(20, TimeUnit.SECONDS);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            // see the assertion
        }
    }

    private static Throwable cause(CompletableFuture<?> f) {
        try {
            f.join();
            return null;
        } catch (java.util.concurrent.CompletionException e) {
            return e.getCause();
        }
    }


    /**
     * A task being taken back from a stalled worker (a withdrawal: a steal request with a
     * negative id) was still offered to a balance round once its worker stopped counting as
     * stalled (a release was sent to it). The round's steal overwrote the task's steal id; the
     * worker gave the task up to the withdrawal, which the scheduler then ignored (its id was no
     * longer the task's), and refused the steal (the job was gone): the task stayed assigned to
     * a worker that had dropped it, its future never completed, and the leaked withdrawal kept
     * the stall check from ever failing a task. Found by review (session 41); failed before the
     * fix ("'c', given up by worker 0, is assigned again").
     */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aTaskWithdrawnFromAStalledWorkerIsNotStolenTooAndRunsOnceGivenUp() throws Exception {
        RecordingTransport t = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).build(), t);
        try {
            // 'x' held on worker 0; its release will make worker 0 count as not stalled
            s.submit(List.of(TaskSpec.builder("x", args -> 0).restrictions(Restrictions.loose(Set.of(0))).build()));
            reply(s, new Message.TaskFinished(0, "x", t.lastCompute("x").attempt(), 0, 8, 1000));

            List<String> keys = List.of("a", "b", "c");
            List<TaskSpec<?>> specs = new ArrayList<>();
            for (String k : keys) {
                specs.add(TaskSpec.builder(k, args -> k).restrictions(Restrictions.loose(Set.of(0)))
                        .durationHint(Duration.ofSeconds(1)).build());
            }
            List<CompletableFuture<Object>> fs = s.submit(specs);
            Map<String, Long> firstAttempt = new HashMap<>();
            for (String k : keys) {
                assertThat(t.workerOfLastCompute(k)).isZero();
                firstAttempt.put(k, t.lastCompute(k).attempt());
            }

            // worker 0 stalls: its queued tasks are withdrawn (worker 1 may run them)
            reply(s, new Message.MemoryStall(0, true, 0, 9 * MB, 10 * MB, 1));
            // the client releases 'x': a release to worker 0, which no longer counts as stalled
            s.releaseFuture("x");
            s.balanceNow();                   // a round while the withdrawals travel

            // worker 0 answers every steal request in the order sent: the first for a job gives it up
            Map<String, Long> jobs = new HashMap<>(firstAttempt);
            int answered = 0;
            while (true) {
                List<RecordingTransport.Sent> sent = t.sentToWorkers();
                List<Message.StealRequest> requests = new ArrayList<>();
                for (RecordingTransport.Sent x : sent) {
                    if (x.worker() == 0 && x.message() instanceof Message.StealRequest r) {
                        requests.add(r);
                    }
                }
                if (answered == requests.size()) {
                    break;
                }
                Message.StealRequest r = requests.get(answered++);
                boolean released = jobs.get(r.key()) != null && jobs.get(r.key()) == r.attempt();
                if (released) {
                    jobs.remove(r.key());
                }
                reply(s, new Message.StealResponse(0, r.stealId(), r.key(), r.attempt(), released));
            }

            for (String k : keys) {
                assertThat(t.lastCompute(k).attempt()).as("'%s', given up by worker 0, is assigned again", k)
                        .isNotEqualTo(firstAttempt.get(k));
            }
            assertThat(s.retainedForTests()).as("steals and withdrawals left in flight")
                    .containsEntry("withdrawals", 0).containsEntry("inFlight", 0);
            // the new attempts finish and complete the futures
            for (String k : keys) {
                Message.Compute c = t.lastCompute(k);
                reply(s, new Message.TaskFinished(t.workerOfLastCompute(k), k, c.attempt(), k, 8, 1000));
            }
            for (int i = 0; i < keys.size(); i++) {
                assertThat(fs.get(i).get(10, TimeUnit.SECONDS)).isEqualTo(keys.get(i));
            }
        } finally {
            s.close();
        }
    }
}
