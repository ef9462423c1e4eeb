/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The scheduler driven by hand: a recording transport stands in for the workers, and the test
 * plays their replies, so every interleaving here is deterministic.
 */
class GraphSchedulerTest {

    private final RecordingTransport transport = new RecordingTransport();
    private final GraphScheduler scheduler = new GraphScheduler(
            CoordinatorSettings.builder().workers(2).threadsPerWorker(1).bandwidth(100e6)
                    .latency(Duration.ofMillis(1)).stealing(false).balanceInterval(Duration.ZERO).retries(1)
                    .minStealDuration(Duration.ofMillis(1)).saturatedOccupancy(Duration.ofMillis(400))
                    .defaultDuration(Duration.ofMillis(500)).build(), transport);

    @AfterEach
    void close() {
        scheduler.close();
    }

    /** Ten 1 s tasks that prefer worker 0. */
    private List<CompletableFuture<Object>> tenSlowTasksOnWorkerZero() {
        List<TaskSpec<?>> specs = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            int v = i;
            specs.add(TaskSpec.builder("slow-" + i, args -> v).restrictions(Restrictions.loose(Set.of(0)))
                    .durationHint(Duration.ofSeconds(1)).build());
        }
        return scheduler.submit(specs);
    }

    private List<Message.Compute> computesTo(int worker) {
        List<Message.Compute> out = new ArrayList<>();
        for (RecordingTransport.Sent s : transport.sentToWorkers()) {
            if (s.worker() == worker && s.message() instanceof Message.Compute c) {
                out.add(c);
            }
        }
        return out;
    }

    private List<Message.StealRequest> stealRequests() {
        List<Message.StealRequest> out = new ArrayList<>();
        for (RecordingTransport.Sent s : transport.sentToWorkers()) {
            if (s.message() instanceof Message.StealRequest r) {
                out.add(r);
            }
        }
        return out;
    }

    /** Delivers a worker message and waits until the scheduler has handled it. */
    private void reply(Message.ToScheduler m) {
        scheduler.receive(m);
        scheduler.stealEvents();     // a call queued behind the message: a barrier
    }

    @Test
    void placementFollowsLooseRestrictions() {
        tenSlowTasksOnWorkerZero();
        assertThat(computesTo(0)).hasSize(10);
        assertThat(computesTo(1)).isEmpty();
    }

    @Test
    void aConfirmedStealMovesTheTaskAndTheVictimsLateResultIsIgnored() throws Exception {
        List<CompletableFuture<Object>> futures = tenSlowTasksOnWorkerZero();
        List<Move> moves = scheduler.balanceNow();
        assertThat(moves).hasSize(5);
        Message.StealRequest first = stealRequests().get(0);
        Message.Compute original = computesTo(0).stream().filter(c -> c.key().equals(first.key())).findFirst().orElseThrow();

        reply(new Message.StealResponse(0, first.stealId(), first.key(), first.attempt(), true));
        Message.Compute moved = computesTo(1).stream().filter(c -> c.key().equals(first.key())).findFirst().orElseThrow();
        assertThat(moved.attempt()).isNotEqualTo(original.attempt());

        // the same reply again is stale; nothing is sent twice
        reply(new Message.StealResponse(0, first.stealId(), first.key(), first.attempt(), true));
        assertThat(computesTo(1)).hasSize(1);

        // a result from the victim under the old attempt is not accepted
        int index = Integer.parseInt(first.key().substring("slow-".length()));
        reply(new Message.TaskFinished(0, first.key(), original.attempt(), -1, 4, 1000));
        assertThat(futures.get(index)).isNotDone();

        reply(new Message.TaskFinished(1, first.key(), moved.attempt(), index, 4, 1000));
        assertThat(futures.get(index).get()).isEqualTo(index);

        List<StealEvent> log = scheduler.stealEvents();
        assertThat(log).extracting(StealEvent::outcome).contains(StealEvent.Outcome.REQUESTED,
                StealEvent.Outcome.CONFIRMED, StealEvent.Outcome.STALE);
    }

    @Test
    void aRejectedStealLeavesTheTaskWhereItIs() {
        tenSlowTasksOnWorkerZero();
        scheduler.balanceNow();
        List<Message.StealRequest> requests = stealRequests();
        Message.StealRequest r = requests.get(0);
        for (Message.StealRequest each : requests) {
            reply(new Message.StealResponse(0, each.stealId(), each.key(), each.attempt(), false));
        }
        assertThat(computesTo(1)).isEmpty();
        assertThat(scheduler.stealEvents()).extracting(StealEvent::outcome).contains(StealEvent.Outcome.REJECTED);
        // no longer in flight: the next round proposes them again
        assertThat(scheduler.balanceNow()).extracting(Move::key).contains(r.key());
    }

    @Test
    void aStealReplyAfterTheTaskFinishedIsStale() throws Exception {
        List<CompletableFuture<Object>> futures = tenSlowTasksOnWorkerZero();
        scheduler.balanceNow();
        Message.StealRequest r = stealRequests().get(0);
        Message.Compute c = computesTo(0).stream().filter(x -> x.key().equals(r.key())).findFirst().orElseThrow();
        reply(new Message.TaskFinished(0, c.key(), c.attempt(), 7, 4, 1000));
        reply(new Message.StealResponse(0, r.stealId(), r.key(), r.attempt(), false));
        assertThat(computesTo(1)).isEmpty();
        assertThat(scheduler.stealEvents()).last().extracting(StealEvent::outcome).isEqualTo(StealEvent.Outcome.STALE);
        int index = Integer.parseInt(r.key().substring("slow-".length()));
        assertThat(futures.get(index).get()).isEqualTo(7);
    }

    @Test
    void aFailingTaskIsRetriedThenErrsWithItsOwnException() {
        CompletableFuture<Object> f = scheduler.submit(List.of(TaskSpec.builder("boom-0", args -> 1).build())).get(0);
        CompletableFuture<Object> dependent = scheduler.submit(
                List.of(TaskSpec.builder("after-0", args -> 2).dependsOn("boom-0").build())).get(0);
        IllegalStateException boom = new IllegalStateException("boom");
        // retries = 1 in this config: two failures err the task
        for (int i = 0; i < 2; i++) {
            List<Message.Compute> all = new ArrayList<>(computesTo(0));
            all.addAll(computesTo(1));
            Message.Compute last = all.stream().filter(c -> c.key().equals("boom-0"))
                    .max((a, b) -> Long.compare(a.attempt(), b.attempt())).orElseThrow();
            int worker = computesTo(0).contains(last) ? 0 : 1;
            assertThat(f).isNotDone();
            reply(new Message.TaskErred(worker, "boom-0", last.attempt(), boom, 10));
        }
        assertThatThrownBy(f::get).isInstanceOf(ExecutionException.class).hasCause(boom);
        assertThatThrownBy(dependent::get).isInstanceOf(ExecutionException.class).hasCause(boom);
    }

    @Test
    void badSubmissionsAreRejectedWithTheReason() {
        scheduler.submit(List.of(TaskSpec.builder("a-0", args -> 1).build()));
        assertThatThrownBy(() -> scheduler.submit(List.of(TaskSpec.builder("a-0", args -> 1).build())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a-0");
        assertThatThrownBy(() -> scheduler.submit(List.of(TaskSpec.builder("b-0", args -> 1).dependsOn("nope").build())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nope");
        assertThatThrownBy(() -> scheduler.submit(List.of(TaskSpec.builder("c-0", args -> 1)
                .restrictions(Restrictions.strict(Set.of(5))).build())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("worker 5");
    }

    @Test
    void closeFailsPendingFuturesAndRejectsLaterCalls() {
        CompletableFuture<Object> f = scheduler.submit(List.of(TaskSpec.builder("a-0", args -> 1).build())).get(0);
        scheduler.close();
        assertThatThrownBy(f::get).hasCauseInstanceOf(IllegalStateException.class).hasMessageContaining("a-0");
        assertThatThrownBy(() -> scheduler.submit(List.of(TaskSpec.builder("b-0", args -> 1).build())))
                .isInstanceOf(java.util.concurrent.RejectedExecutionException.class);
    }

    @Test
    void tasksOfAnUnmeasuredKindAreNotStolenUntilOneHasRun() throws Exception {
        List<TaskSpec<?>> specs = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            specs.add(TaskSpec.builder("fresh-" + i, args -> 1).restrictions(Restrictions.loose(Set.of(0))).build());
        }
        scheduler.submit(specs);
        assertThat(scheduler.balanceNow()).isEmpty();
        Message.Compute first = computesTo(0).get(0);
        reply(new Message.TaskFinished(0, first.key(), first.attempt(), 1, 4, 1_000_000_000L));
        assertThat(scheduler.balanceNow()).isNotEmpty();
    }
}
