/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Session-31 review: a transport between JVMs may hand a worker the scheduler's frames out of
 * send order (Hazelcast passes a member's incoming frames through several operation threads), so
 * the scheduler/worker protocol must not depend on the order in which a worker receives them.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MessageOrderRegressionTest {

    /**
     * With {@code forgetReleased}: worker 0 holds k = 1; the client releases k (ReleaseKey to worker
     * 0), submits a new k that worker 1 computes as 2, then d(k) on worker 0. If the task d overtakes
     * the ReleaseKey, worker 0 must not take the old k, which it still holds, for d's input.
     */
    @Test
    void aTaskThatOvertakesTheReleaseOfItsInputDoesNotReadTheReleasedValue() throws Exception {
        Reordering t = new Reordering();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).forgetReleased(true).build(), t);
        t.scheduler = s;
        try {
            CompletableFuture<Object> k1 = s.submit(List.of(TaskSpec.builder("k", args -> 1)
                    .restrictions(Restrictions.strict(Set.of(0))).build())).get(0);
            assertThat(k1.get(30, TimeUnit.SECONDS)).isEqualTo(1);
            t.holdReleases = true;            // the frame with the ReleaseKey is overtaken
            s.releaseFuture("k");
            t.settle();
            assertThat(t.held).as("k released to worker 0").hasSize(1);

            CompletableFuture<Object> k2 = s.submit(List.of(TaskSpec.builder("k", args -> 2)
                    .restrictions(Restrictions.strict(Set.of(1))).build())).get(0);
            t.settle();
            HandDriven.reply(s, new Message.TaskFinished(1, "k", t.last(1, "k").attempt(), 2, 4, 1000));
            assertThat(k2.get(30, TimeUnit.SECONDS)).isEqualTo(2);

            CompletableFuture<Object> d = s.submit(List.of(TaskSpec.builder("d", args -> args.get(0)).dependsOn("k")
                    .restrictions(Restrictions.strict(Set.of(0))).build())).get(0);
            t.settle();
            t.deliverHeld();                  // the ReleaseKey arrives last
            assertThat(d.get(30, TimeUnit.SECONDS)).as("d's input is the new k, computed as 2").isEqualTo(2);
        } finally {
            s.close();
            t.close();
        }
    }

    /**
     * Tasks of equal priority start in the scheduler's assignment order (their attempt numbers),
     * not in the order their frames happened to arrive.
     */
    @Test
    void equalPriorityTasksStartInAssignmentOrderWhateverTheirArrivalOrder() throws Exception {
        List<String> started = new CopyOnWriteArrayList<>();
        try (GatedWorker g = new GatedWorker()) {
            ClusterWorker w = g.worker;
            g.hold();
            // assigned a, then b, then c; b's frame arrives first, c's second, a's last
            for (String key : List.of("b", "c", "a")) {
                long attempt = 2 + "abc".indexOf(key);
                w.receive(new Message.Compute(key, attempt, args -> started.add(key), List.of(), Map.of(), 0));
            }
            g.open();
            List<Message.ToScheduler> replies = g.transport.awaitToScheduler(4);
            assertThat(replies).hasSize(4);
            assertThat(started).as("start order of equal-priority tasks").containsExactly("a", "b", "c");
        }
    }

    /** The counts that order messages cross the wire with them (else the checks above are lost between JVMs). */
    @Test
    void theNumbersThatOrderMessagesTravelWithThem() {
        WireWriter out = new WireWriter();
        MessageCodec.writeBody(out, new WireMessage.Compute("k", 3, new byte[1], List.of("a"), Map.of("a", List.of(1)),
                2, 7), MessageCodec.NONE);
        Object read = MessageCodec.readBody(new WireReader(out.toByteArray(), 0, out.size()), MessageCodec.NONE);
        assertThat(read).isInstanceOfSatisfying(WireMessage.Compute.class, c -> {
            assertThat(c.priority()).isEqualTo(2);
            assertThat(c.releases()).isEqualTo(7);
        });
        WireWriter stall = new WireWriter();
        MessageCodec.writeBody(stall, new Message.MemoryStall(1, true, 2, 3, 4, 5), MessageCodec.NONE);
        assertThat(MessageCodec.readBody(new WireReader(stall.toByteArray(), 0, stall.size()), MessageCodec.NONE))
                .as("a stall report's number travels with it").isEqualTo(new Message.MemoryStall(1, true, 2, 3, 4, 5));
    }

    /**
     * Worker 0 stalled on memory, then its disk took a spill and it started its queued task: it
     * reported stalled, then not stalled. If the first report arrives last, the scheduler must not
     * take worker 0 for stalled (it sends nothing more while its state holds) and fail a task only
     * it may run, which would start once the running one ends.
     */
    @Test
    void aStallReportOvertakenByTheReportThatEndsTheStallIsIgnored() throws Exception {
        RecordingTransport t = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(1).retries(0).build(), t);
        long mb = 1_000_000;
        Set<Long> answered = new java.util.HashSet<>();
        try {
            CompletableFuture<Object> running = s.submit(List.of(TaskSpec.builder("running", args -> 1).build())).get(0);
            long attempt = t.lastCompute("running").attempt();
            Message.MemoryStall stalled = new Message.MemoryStall(0, true, 0, 9 * mb, 10 * mb, 1);
            Message.MemoryStall unstalled = new Message.MemoryStall(0, false, 0, 0, 10 * mb, 2);
            HandDriven.reply(s, unstalled);   // sent second, arrives first
            HandDriven.reply(s, stalled);
            answerWithdrawals(s, t, answered, false);   // a withdrawal of 'running' finds it started

            CompletableFuture<Object> pinned = s.submit(List.of(TaskSpec.builder("pinned", args -> 2).build())).get(0);
            HandDriven.reply(s, new Message.TaskRunning(0, "running", attempt, 200_000_000L));   // its periodic report
            answerWithdrawals(s, t, answered, true);    // a withdrawal of 'pinned' finds it queued behind 'running'
            assertThat(pinned).as("'pinned', queued on a worker that is not stalled").isNotDone();
            HandDriven.reply(s, new Message.TaskFinished(0, "running", attempt, 1, 4, 1000));
            assertThat(running.get(30, TimeUnit.SECONDS)).isEqualTo(1);
        } finally {
            s.close();
        }
    }

    /** Answers every withdrawal (a steal request with a negative id) sent so far and not yet answered. */
    private static void answerWithdrawals(GraphScheduler s, RecordingTransport t, Set<Long> answered,
                                          boolean released) {
        for (RecordingTransport.Sent x : t.sentToWorkers()) {
            if (x.message() instanceof Message.StealRequest r && r.stealId() < 0 && answered.add(r.stealId())) {
                HandDriven.reply(s, new Message.StealResponse(0, r.stealId(), r.key(), r.attempt(), released));
            }
        }
    }

    /**
     * A release that cannot travel (its key is longer than a frame) still reaches the worker's
     * count of releases, as a release of the empty key: else every later task would wait for it.
     */
    @Test
    void aReleaseTooLargeForAFrameStillCounts() {
        List<Object> sent = new CopyOnWriteArrayList<>();
        CoordinatorTransportSupport c = new CoordinatorTransportSupport() {
            @Override
            protected void sendFrame(int worker, List<Object> bodies) {
                for (Object b : bodies) {
                    if (b instanceof Message.ReleaseKey r && r.key().length() > 10) {
                        throw new IllegalArgumentException("over the frame limit");
                    }
                }
                sent.addAll(bodies);
            }

            @Override
            public void toWorker(int worker, Message.ToWorker message) {
            }

            @Override
            public void workerLost(int worker) {
            }
        };
        c.sendWithinFrameLimit(0, List.of(new Message.ReleaseKey("k".repeat(20)), new Message.ReleaseKey("j")));
        assertThat(sent).containsExactly(new Message.ReleaseKey(""), new Message.ReleaseKey("j"));
    }

    /**
     * The scheduler's transport to one real worker (0), delivered in order on one thread, except
     * that {@link Message.ReleaseKey}s can be held back and delivered later, as a frame that is
     * overtaken; worker 1 is played by the test. Worker 0 fetches k from worker 1, which has 2.
     * Also {@code ReplicaOvertakingReleaseTest}'s.
     */
    static final class Reordering extends OneRealWorker {
        final List<Message.ToWorker> held = new ArrayList<>();
        volatile boolean holdReleases;

        Reordering() {
            super(0, (key, holder) -> holder == 1 && key.equals("k") ? CompletableFuture.completedFuture(2)
                    : CompletableFuture.failedFuture(new IllegalStateException("not held")));
        }

        @Override
        public void toWorker(int worker, Message.ToWorker message) {
            if (worker == 0 && holdReleases && message instanceof Message.ReleaseKey) {
                recorded.toWorker(worker, message);
                synchronized (held) {
                    held.add(message);
                }
                return;
            }
            super.toWorker(worker, message);
        }

        void deliverHeld() throws Exception {
            synchronized (held) {
                for (Message.ToWorker m : held) {
                    wire.execute(() -> real.receive(m));
                }
                held.clear();
            }
            settle();
        }
    }
}
