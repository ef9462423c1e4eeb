/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Scheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An actor on a scheduler that runs each task inside its {@code execute}, on the submitting thread
 * ({@code Runnable::run}; a saturation policy that runs the task in the caller does the same), with
 * a backlog bigger than its messages per activation. Each resubmission after a full activation ran
 * the next activation nested in the one that resubmitted it, so the stack grew by a few frames per
 * activation until it overflowed; where the overflow struck between an activation's claim of the
 * actor and its loop's guard, or in the recovery of one that struck the loop, the actor was left
 * {@code ACTIVE} with nobody holding it: the rest of the backlog and the stop behind it waited for
 * good, and every later send or {@code stop()} found the actor busy. Before the fix every round
 * below failed so (on a 512 KiB stack, some 600 messages of 20,000 ran, the stop never completed,
 * however often {@code stop()} was called again). Now the resubmitted activation leaves itself to
 * the one that resubmitted it, which runs it in a loop: the stack stays flat, every message runs,
 * nothing is reported, and the stop completes at once.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ACallerRunsSchedulerRunsABacklogWithoutRecursionTest {

    private static final int ROUNDS = 5;
    private static final int BACKLOG = 20_000;

    @Test
    void aBacklogOfOneMessageActivationsRunsOnTheSendersThreadAndTheStopCompletes() throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        // A small stack, so that the recursion this guards against overflows it well within the backlog
        Thread t = new Thread(null, () -> {
            try {
                for (int round = 0; round < ROUNDS; round++) {
                    round(round);
                }
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "caller-runs", 512 * 1024);
        t.start();
        t.join();
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
    }

    private static void round(int round) {
        Scheduler callerRuns = Runnable::run;
        AtomicLong ran = new AtomicLong();
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        ActorSystem system = ActorSystem.builder().scheduler(callerRuns)
                .failureHandler((a, f) -> reported.add(f)).build();
        ActorRef<Object> ref = system.spawn(Object::new,
                ActorConfig.builder().name("backlogged-" + round).maxMessagesPerActivation(1 + round % 2).build());
        ref.tell(o -> {
            for (int i = 0; i < BACKLOG; i++) {           // queued behind this message, which holds the actor
                ref.tell(x -> ran.incrementAndGet());
            }
        });
        CompletableFuture<Void> stopped = ref.stop();
        // Each stop() activates an idle actor whose stop is queued, as a send would: bounded nudges,
        // so that an actor left idle with its backlog (rather than held) is not taken for a wedge
        for (int nudge = 0; nudge < 100 && !stopped.isDone(); nudge++) {
            stopped = ref.stop();
        }
        ActorSystemStats stats = system.stats();
        assertThat(stopped).as("round %d: the stop completed (%s, %s, ran %d)", round, ref, stats, ran.get())
                .isCompleted();
        assertThat(ran.get()).as("round %d: every message of the backlog ran", round).isEqualTo(BACKLOG);
        assertThat(stats.messagesProcessed()).as("round %d: processed; %s", round, stats).isEqualTo(BACKLOG + 1);
        assertThat(stats.deadLetters()).as("round %d: dead letters", round).isZero();
        assertThat(stats.liveActors()).as("round %d: live actors", round).isZero();
        assertThat(reported).as("round %d: failures reported", round).isEmpty();
    }

    /** The actor of the concurrent test: each sender's sequence numbers as they are processed. */
    static final class Log {
        final int[] next;
        final AtomicReference<String> disorder;

        Log(int senders, AtomicReference<String> disorder) {
            this.next = new int[senders];
            this.disorder = disorder;
        }

        void receive(int sender, int seq) {
            if (seq != next[sender]) {
                disorder.compareAndSet(null, "sender " + sender + ": " + seq + " processed where " + next[sender]
                        + " was due");
            }
            next[sender] = seq + 1;
        }
    }

    /**
     * Senders on threads of their own, each running the activations it starts (the scheduler runs
     * them inside {@code execute}), while the others queue behind it, and a stop racing them: every
     * message whose send returned is processed or a dead letter, exactly; each sender's processed
     * messages are a prefix of what it sent, in order; every ask completes; the stop completes.
     * The sender that holds the actor runs what the others queue meanwhile, one or two messages
     * per activation, so before the fix its stack grew with that backlog (with the resubmission
     * made to recurse again, rounds fail: the actor is left held and the stop never completes).
     */
    @Test
    void concurrentSendersOnACallerRunsSchedulerLoseNoMessage() throws Exception {
        SplittableRandom master = new SplittableRandom(20261207L);
        for (int round = 0; round < ROUNDS; round++) {
            concurrentRound(round, master.split());
        }
    }

    private static void concurrentRound(int round, SplittableRandom rnd) throws Exception {
        int senders = 3;
        int perSender = 4_000;
        Scheduler callerRuns = Runnable::run;
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        ActorSystem system = ActorSystem.builder().scheduler(callerRuns)
                .failureHandler((a, f) -> reported.add(f)).build();
        AtomicReference<String> disorder = new AtomicReference<>();
        ActorRef<Log> ref = system.spawn(() -> new Log(senders, disorder),
                ActorConfig.builder().name("shared-" + round).maxMessagesPerActivation(1 + rnd.nextInt(2)).build());
        LongAdder sent = new LongAdder();
        List<CompletableFuture<Integer>> asks = new CopyOnWriteArrayList<>();
        AtomicReference<Throwable> unexpected = new AtomicReference<>();
        CountDownLatch go = new CountDownLatch(1);
        long stopAt = rnd.nextLong(senders * (long) perSender);
        List<CompletableFuture<Void>> stops = new CopyOnWriteArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int s = 0; s < senders; s++) {
            int sender = s;
            long seed = rnd.nextLong();
            threads.add(new Thread(null, () -> {
                SplittableRandom local = new SplittableRandom(seed);
                try {
                    go.await();
                    for (int i = 0; i < perSender; i++) {
                        int seq = i;
                        if (local.nextInt(16) == 0) {
                            asks.add(ref.ask(log -> {
                                log.receive(sender, seq);
                                return seq;
                            }));
                        } else {
                            ref.tell(log -> log.receive(sender, seq));
                        }
                        sent.increment();
                        if (sender == 0 && sent.sum() >= stopAt && stops.isEmpty()) {
                            stops.add(ref.stop());
                        }
                    }
                } catch (Throwable e) {
                    unexpected.compareAndSet(null, e);
                }
            }, "caller-runs-sender-" + s, 384 * 1024));
        }
        threads.forEach(Thread::start);
        go.countDown();
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(60));
            assertThat(t.isAlive()).as("round %d: %s finished", round, t.getName()).isFalse();
        }
        assertThat(unexpected.get()).as("round %d: nothing thrown to a sender", round).isNull();
        CompletableFuture<Void> stopped = ref.stop();
        assertThat(stopped).as("round %d: the stop completed (%s, %s)", round, ref, system.stats())
                .succeedsWithin(Duration.ofSeconds(30));
        for (CompletableFuture<Integer> ask : asks) {
            assertThat(ask.handle((v, t) -> t == null || t instanceof ActorStoppedException))
                    .as("round %d: an ask answered, or failed as stopped", round).isCompletedWithValue(true);
        }
        ActorSystemStats stats = system.stats();
        assertThat(stats.messagesProcessed() + stats.deadLetters())
                .as("round %d: processed + dead letters, of %d sent; %s", round, sent.sum(), stats)
                .isEqualTo(sent.sum());
        assertThat(stats.liveActors()).as("round %d: live actors", round).isZero();
        assertThat(reported).as("round %d: failures reported", round).isEmpty();
        assertThat(disorder.get()).as("round %d: each sender's processed messages, in order", round).isNull();
    }
}
