/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.pool.WorkSharingPool;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A second review of the change that made {@code stop()}'s future complete only after the
 * messages behind the stop were rejected. Each test failed on the code before its fix
 * (review-before-after.txt of the review that added them), or checks a contract that held.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ActorStopSecondReviewRegressionTest {

    /** How long a stage waits on a stop before the test calls it a hang. */
    private static final long HANG_SECONDS = 10;

    static final class Recorder {
        final List<Integer> seen = new ArrayList<>();
    }

    /**
     * Waits on {@code ref.stop()} from wherever it runs; records a hang (a timeout) or any
     * other failure instead of blocking for good, so that a failing run ends.
     */
    private static void awaitStop(ActorRef<?> ref, AtomicReference<Throwable> problem, AtomicBoolean returned) {
        try {
            ref.stop().get(HANG_SECONDS, TimeUnit.SECONDS);
            returned.set(true);
        } catch (TimeoutException e) {
            problem.set(new AssertionError("stop() of '" + ref.name()
                    + "' never completed for a stage of an ask its stop rejected", e));
        } catch (Throwable t) {
            problem.set(t);
        }
    }

    /**
     * Defect 1: a dependent stage of an ask queued behind the stop runs on the thread that
     * rejects it, inside the rejection loop. Once the termination future completed only after
     * that loop, a stage that waited for the actor's stop ({@code ref.stop().join()}) waited for
     * itself: the worker hung. Before the change the future was already complete there.
     */
    @Test
    void aRejectedAsksStageThatWaitsForTheStopDoesNotHang() {
        TestSchedulers.Manual scheduler = new TestSchedulers.Manual();
        try (ActorSystem system = ActorSystem.create(scheduler)) {
            ActorRef<Recorder> r = system.spawn(Recorder::new);
            r.tell(x -> x.seen.add(1));
            r.stop();
            AtomicReference<Throwable> problem = new AtomicReference<>();
            AtomicBoolean returned = new AtomicBoolean();
            CompletableFuture<Integer> behind = r.ask(x -> x.seen.size());
            behind.whenComplete((v, ex) -> awaitStop(r, problem, returned));
            scheduler.runAll();

            assertThat(problem.get()).as("what the stage's wait for the stop met").isNull();
            assertThat(returned).as("the stage's wait for the stop returned").isTrue();
            assertThat(behind).isCompletedExceptionally();
            assertThat(r.stop()).isDone();
            assertThat(system.stats().deadLetters()).isEqualTo(1);
        }
    }

    /**
     * Defect 1 on the rejected path: the scheduler refuses the resubmission after a full
     * activation, and the holder rejects the ask waiting behind; its stage waits for the stop.
     */
    @Test
    void aStageOfAnAskRejectedByARefusedSchedulerThatWaitsForTheStopDoesNotHang() {
        TestSchedulers.Manual scheduler = new TestSchedulers.Manual();
        try (ActorSystem system = ActorSystem.create(scheduler)) {
            ActorRef<Recorder> r = system.spawn(Recorder::new,
                    ActorConfig.builder().name("refused").maxMessagesPerActivation(1).build());
            r.tell(x -> x.seen.add(1));
            AtomicReference<Throwable> problem = new AtomicReference<>();
            AtomicBoolean returned = new AtomicBoolean();
            CompletableFuture<Integer> behind = r.ask(x -> x.seen.size());
            behind.whenComplete((v, ex) -> awaitStop(r, problem, returned));
            scheduler.rejecting = true;                  // the resubmission after the tell is refused
            scheduler.runAll();

            assertThat(r.isStopped()).isTrue();
            assertThat(problem.get()).as("what the stage's wait for the stop met").isNull();
            assertThat(returned).as("the stage's wait for the stop returned").isTrue();
            assertThat(behind).isCompletedExceptionally();
        }
    }

    /**
     * The promise the change made still holds for every other thread: a thread woken from
     * {@code stop().join()} finds each ask behind the stop failed, also when a stage of one of
     * those asks waited on the stop itself on the actor's thread.
     */
    @Test
    void otherThreadsStillFindEveryAskFailedOnceStopCompletes() throws Exception {
        try (WorkSharingPool pool = WorkSharingPool.builder().workers(1).name("stop-second").build();
                ActorSystem system = ActorSystem.create(pool)) {
            for (int round = 0; round < 20; round++) {
                ActorRef<Recorder> r = system.spawn(Recorder::new);
                CountDownLatch release = TestSchedulers.holdInATell(r);
                CompletableFuture<Void> stopped = r.stop();
                AtomicReference<Throwable> problem = new AtomicReference<>();
                AtomicBoolean returned = new AtomicBoolean();
                r.ask(x -> x.seen.size()).whenComplete((v, ex) -> awaitStop(r, problem, returned));
                List<CompletableFuture<Integer>> behind = new ArrayList<>();
                for (int i = 0; i < 100; i++) {
                    behind.add(r.ask(x -> x.seen.size()));
                }
                release.countDown();
                stopped.get(30, TimeUnit.SECONDS);

                assertThat(behind.stream().filter(f -> !f.isDone()).count())
                        .as("round %d: asks still pending right after stop().join()", round).isZero();
                assertThat(problem.get()).as("round %d: the stage's wait for the stop", round).isNull();
                assertThat(returned).isTrue();
            }
        }
    }

    /**
     * Held: a failure handler that throws, given the scheduler's Error from a resubmission, is
     * ignored; the actor has ended once, its termination completed once, the system counts it
     * ended once.
     */
    @Test
    void aThrowingFailureHandlerOnAResubmissionErrorIsIgnored() {
        TestSchedulers.ErrorThenManual scheduler = new TestSchedulers.ErrorThenManual(0);
        List<String> seen = new CopyOnWriteArrayList<>();
        ActorSystem system = ActorSystem.builder().scheduler(scheduler)
                .failureHandler((actor, failure) -> {
                    seen.add(actor.isStopped() + " " + actor.stop().isDone());
                    throw new IllegalStateException("handler fails");
                }).build();
        ActorRef<Recorder> r = system.spawn(Recorder::new,
                ActorConfig.builder().name("handler-throws").maxMessagesPerActivation(1).build());
        r.tell(x -> x.seen.add(1));
        r.tell(x -> x.seen.add(2));
        scheduler.failures.set(1);
        scheduler.manual.runAll();

        assertThat(seen).as("the handler saw an ended actor whose stop had completed")
                .containsExactly("true true");
        assertThat(r.stop()).isDone();
        assertThat(system.stats().liveActors()).isZero();
        assertThat(system.stats().deadLetters()).isEqualTo(1);
        system.close();
    }

    /**
     * Held: senders racing a stop on a real pool. No message runs on the actor's object after
     * {@code stop()}'s future completed, and every message is either delivered or a dead letter.
     */
    @Test
    void noMessageRunsAfterStopCompletedUnderRacingSenders() throws Exception {
        try (WorkSharingPool pool = WorkSharingPool.builder().workers(2).name("stop-race").build();
                ActorSystem system = ActorSystem.create(pool)) {
            for (int round = 0; round < 20; round++) {
                AtomicBoolean ended = new AtomicBoolean();
                AtomicInteger late = new AtomicInteger();
                AtomicInteger delivered = new AtomicInteger();
                ActorRef<Recorder> r = system.spawn(Recorder::new);
                long deadBefore = system.stats().deadLetters();
                int senders = 2;
                int perSender = 2000;
                CountDownLatch go = new CountDownLatch(1);
                List<Thread> threads = new ArrayList<>();
                for (int s = 0; s < senders; s++) {
                    Thread t = new Thread(() -> {
                        try {
                            go.await();
                        } catch (InterruptedException e) {
                            return;
                        }
                        for (int i = 0; i < perSender; i++) {
                            r.tell(x -> {
                                if (ended.get()) {
                                    late.incrementAndGet();
                                }
                                delivered.incrementAndGet();
                            });
                        }
                    });
                    t.start();
                    threads.add(t);
                }
                go.countDown();
                CompletableFuture<Void> stopped = r.stop().thenRun(() -> ended.set(true));
                for (Thread t : threads) {
                    t.join(30_000);
                }
                stopped.get(30, TimeUnit.SECONDS);
                assertThat(late.get()).as("round %d: messages run after stop() completed", round).isZero();
                assertThat(delivered.get() + system.stats().deadLetters() - deadBefore)
                        .as("round %d: delivered plus dead letters", round).isEqualTo((long) senders * perSender);
            }
        }
    }
}
