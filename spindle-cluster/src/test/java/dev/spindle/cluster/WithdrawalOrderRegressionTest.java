/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Hazelcast transport may hand a worker the scheduler's frames out of send order (a member's
 * incoming frames pass through several operation threads; see {@link MessageOrderRegressionTest}).
 * A task is placed on a worker whose stall report is still on its way; the report arrives, the
 * scheduler withdraws the task (a steal request with a negative id), and the withdrawal overtakes
 * the task's {@link Message.Compute}. The worker, which had no such job yet, answered
 * {@code released=false}, which the scheduler takes for "started": it never asked again for that
 * attempt. The Compute then arrived at the still-paused worker, which never started it: the
 * caller's future never completed (nothing but the client could free the memory, which is exactly
 * when the scheduler is meant to fail the task naming the memory). Found by review (session 41);
 * the stalled-worker test failed before the fix (the future was still waiting after 20 s).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WithdrawalOrderRegressionTest {

    private static final int MB = 1_000_000;
    private static final long LIMIT = 10L * MB;

    /** A value that knows its size but cannot be written, so it can never spill. */
    record Unspillable(long sizeInBytes) implements Sized {
    }

    /**
     * A {@link GraphScheduler} wired to one real {@link ClusterWorker} (id 0, with a memory
     * limit), delivering the scheduler's messages in order except the Computes of
     * {@link #holdComputeOf}, held until {@link #deliverHeld}; the worker's stall reports are held
     * until {@link #deliverStalls}.
     */
    static final class Reordering extends OneRealWorker {
        final List<Message.Compute> heldComputes = new ArrayList<>();
        final List<Message.MemoryStall> heldStalls = new ArrayList<>();
        final List<Message.StealResponse> responses = new ArrayList<>();
        volatile String holdComputeOf;

        Reordering() {
            super(0, (key, holder) -> CompletableFuture.failedFuture(new IllegalStateException("no data plane")), LIMIT);
        }

        @Override
        public void toWorker(int w, Message.ToWorker message) {
            synchronized (this) {
                if (message instanceof Message.Compute c && c.key().equals(holdComputeOf)) {
                    recorded.toWorker(w, message);
                    heldComputes.add(c);     // its frame is overtaken by the ones sent after it
                    return;
                }
            }
            super.toWorker(w, message);
        }

        @Override
        public void toScheduler(Message.ToScheduler message) {
            if (message instanceof Message.MemoryStall m) {
                synchronized (this) {
                    heldStalls.add(m);
                    notifyAll();
                }
                return;
            }
            if (message instanceof Message.StealResponse r) {
                synchronized (this) {
                    responses.add(r);
                }
            }
            super.toScheduler(message);
        }

        synchronized void awaitStallReport() throws InterruptedException {
            while (heldStalls.stream().noneMatch(Message.MemoryStall::stalled)) {
                wait();
            }
        }

        void deliverStalls() throws Exception {
            List<Message.MemoryStall> due;
            synchronized (this) {
                due = new ArrayList<>(heldStalls);
                heldStalls.clear();
            }
            for (Message.MemoryStall m : due) {
                scheduler.receive(m);
            }
            settle();
        }

        void deliverHeld() throws Exception {
            List<Message.Compute> due;
            synchronized (this) {
                due = new ArrayList<>(heldComputes);
                heldComputes.clear();
                holdComputeOf = null;
            }
            for (Message.Compute c : due) {
                wire.execute(() -> real.receive(c));
            }
            settle();
        }

        synchronized List<Message.StealResponse> responses() {
            return List.copyOf(responses);
        }

        boolean withdrawalSent(String key) {
            return recorded.sentToWorkers().stream().anyMatch(x -> x.message() instanceof Message.StealRequest r
                    && r.key().equals(key) && r.stealId() < 0);
        }
    }

    /**
     * A plain steal that overtakes its task: the answer must stay true. Released, the task must
     * not run here when it arrives (the scheduler gave it to the thief); a steal request for a
     * task that already ran here is still refused (its report may not have reached the scheduler).
     */
    @Test
    void aStealThatOvertakesItsTaskIsAnsweredTrulyAndOneAfterTheTaskEndedIsRefused() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        try (GatedWorker g = new GatedWorker()) {
            ClusterWorker w = g.worker;
            w.receive(new Message.StealRequest(5, "x", 7));          // overtook Compute("x", 7)
            List<Message.ToScheduler> replies = g.transport.awaitToScheduler(1);
            assertThat(replies.get(0)).isEqualTo(new Message.StealResponse(0, 5, "x", 7, true));
            w.receive(new Message.Compute("x", 7, args -> runs.incrementAndGet(), List.of(), Map.of(), 0));
            w.receive(new Message.Compute("y", 8, args -> 1, List.of(), Map.of(), 0));
            g.transport.awaitFinished("y", 8);
            assertThat(runs).as("runs of the attempt given up before it arrived").hasValue(0);
            assertThat(w.retainedForTests()).containsEntry("jobs", 0).containsEntry("withdrawn", 0);

            w.receive(new Message.StealRequest(6, "y", 8));          // sent before y's report reached the scheduler
            replies = g.transport.awaitToScheduler(3);
            assertThat(replies).contains(new Message.StealResponse(0, 6, "y", 8, false));
            assertThat(w.retainedForTests()).containsEntry("withdrawn", 0);
        }
    }

    @Test
    void aWithdrawalThatOvertakesItsTaskLeavesNoTaskWaitingForGoodOnAStalledWorker() throws Exception {
        Reordering t = new Reordering();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(1).retries(0).build(), t);
        t.scheduler = s;
        try {
            // worker 0 holds 9 MB that cannot spill: paused over its 8 MB pause fraction, stuck
            for (int i = 0; i < 9; i++) {
                s.submit(List.of(TaskSpec.builder("held-" + i, args -> new Unspillable(MB))
                        .restrictions(Restrictions.strict(Set.of(0))).build())).get(0).get(20, TimeUnit.SECONDS);
            }
            assertThat(t.real.store().paused()).as("worker 0 paused").isTrue();
            t.awaitStallReport();             // its stall report is on its way to the scheduler

            // 'next' is placed on worker 0 before the scheduler learns of the stall; its frame is slow
            t.holdComputeOf = "next";
            CompletableFuture<Object> next = s.submit(List.of(TaskSpec.builder("next", args -> 42).build())).get(0);
            t.settle();

            // the stall report arrives: 'next' is withdrawn, and the withdrawal overtakes its Compute
            t.deliverStalls();
            assertThat(t.withdrawalSent("next")).as("withdrawal of 'next' sent").isTrue();
            assertThat(t.responses()).as("the worker's answer to the withdrawal").hasSize(1);

            // the Compute arrives last, at the still-paused worker
            t.deliverHeld();
            assertThat(t.real.store().paused()).as("worker 0 still paused").isTrue();

            assertThatThrownBy(() -> next.get(20, TimeUnit.SECONDS))
                    .as("'next', queued only on a stalled worker with nothing making progress: fails naming"
                            + " the memory instead of waiting for good (worker answered %s, worker holds %s)",
                            t.responses(), t.real.retainedForTests())
                    .isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("'next'")
                    .hasMessageContaining("cannot spill");
            t.settle();
            assertThat(t.real.retainedForTests()).as("the late Compute of the withdrawn attempt is dropped")
                    .containsEntry("jobs", 0).containsEntry("ready", 0);
            assertThat(s.retainedForTests()).as("withdrawals left in flight").containsEntry("withdrawals", 0);
        } finally {
            s.close();
            t.close();
        }
    }
}
