/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Defects found in a review of the actor cell and the system: each test failed on the code before
 * its fix (docs/measurements/2026-11-29-s24/actor-regressions-before-after.txt).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ActorRegressionTest {

    static final class Recorder {
        final List<Integer> seen = new ArrayList<>();
    }

    /**
     * Finding 1: ActorCell.schedule catches only RuntimeException. When the scheduler's execute
     * throws an Error, the activation state stays ACTIVE forever with nobody holding it: every
     * later tell is enqueued and silently never run, every ask hangs, stop() never completes.
     */
    @Test
    void anErrorFromTheSchedulerDoesNotLeaveTheActorWedgedForever() {
        TestSchedulers.ErrorThenManual scheduler = new TestSchedulers.ErrorThenManual(1);
        ActorSystem system = ActorSystem.create(scheduler);
        ActorRef<Recorder> r = system.spawn(Recorder::new, ActorConfig.builder().name("wedged").build());
        assertThatThrownBy(() -> r.tell(x -> x.seen.add(1)))   // the activation's execute throws the Error:
                .isInstanceOf(OutOfMemoryError.class);            // the sender sees it, as from a JDK pool
        assertThat(r.isStopped()).as("the actor ended as rejected").isTrue();
        CompletableFuture<Integer> ask = r.ask(x -> x.seen.size());   // the scheduler works again
        CompletableFuture<Void> stopped = r.stop();
        scheduler.manual.runAll();
        assertThat(ask).as("an ask sent after the refused activation is answered or failed, not stranded")
                .isDone();
        assertThat(stopped).as("stop() completes").isDone();
        assertThat(system.stats().liveActors()).isZero();
        system.close();
    }

    /**
     * Finding 1 (yield path): the resubmission after a full activation throws an Error out of
     * run(), which the Javadoc says never throws, and leaves the remaining messages stranded.
     */
    @Test
    void anErrorFromAResubmissionDoesNotStrandTheRemainingMessages() {
        TestSchedulers.ErrorThenManual scheduler = new TestSchedulers.ErrorThenManual(0);
        ActorSystem system = ActorSystem.create(scheduler);
        ActorRef<Recorder> r = system.spawn(Recorder::new,
                ActorConfig.builder().maxMessagesPerActivation(1).build());
        r.tell(x -> x.seen.add(1));
        CompletableFuture<Integer> pending = r.ask(x -> x.seen.size());
        scheduler.failures.set(1);                 // the resubmission after the first message fails
        Throwable thrownByRun = null;
        try {
            scheduler.manual.runOne();
        } catch (Throwable t) {
            thrownByRun = t;
        }
        scheduler.manual.runAll();
        assertThat(thrownByRun).as("ActorCell.run() never throws").isNull();
        assertThat(pending).as("the ask left in the mailbox is answered or failed").isDone();
        system.close();
    }

    /**
     * Finding 2: an ActorRef is the actor's Runnable. Anyone holding a reference can run an
     * activation on their own thread ({@code ((Runnable) ref).run()}, or by handing the ref to
     * anything that runs Runnables), while the real activation runs elsewhere: two threads
     * inside one actor.
     */
    @Test
    void holdingAnActorRefDoesNotLetAThreadRunTheActorConcurrently() throws Exception {
        TestSchedulers.Manual scheduler = new TestSchedulers.Manual();
        try (ActorSystem system = ActorSystem.create(scheduler)) {
            ActorRef<Recorder> r = system.spawn(Recorder::new);
            AtomicInteger inside = new AtomicInteger();
            AtomicInteger maxInside = new AtomicInteger();
            CountDownLatch entered = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            r.tell(x -> {
                maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                entered.countDown();
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                inside.decrementAndGet();
            });
            Thread worker = new Thread(scheduler::runOne, "worker");
            worker.start();
            assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
            r.tell(x -> {
                maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                inside.decrementAndGet();
            });
            Object handle = r;
            assertThat(handle).as("a reference is not the actor's task").isNotInstanceOf(Runnable.class);
            if (handle instanceof Runnable runnable) {
                runnable.run();                    // a holder of the ref runs "an activation"
            }
            release.countDown();
            worker.join();
            scheduler.runAll();
            assertThat(maxInside.get()).as("threads inside the actor at once").isEqualTo(1);
        }
    }

    /**
     * Finding 3: close() on a system that owns its scheduler is documented to wait until every
     * actor has processed its stop. A second caller (e.g. a shutdown hook racing the main
     * thread's try-with-resources) returns at once while the first is still closing: the actors
     * are still running and the scheduler's threads alive.
     */
    @Test
    void aSecondConcurrentCloseAlsoWaitsForTheActorsAndTheScheduler() throws Exception {
        ActorSystem system = ActorSystem.create();
        ActorRef<Recorder> r = system.spawn(Recorder::new);
        CountDownLatch release = TestSchedulers.holdInATell(r);
        Thread first = new Thread(system::close, "first-closer");
        first.start();
        TestSchedulers.awaitCondition("first close under way", system::isClosed);

        // release the actor only once this thread is waiting inside the second close (fixed
        // code), or once the second close has returned (code as reviewed)
        Thread main = Thread.currentThread();
        AtomicBoolean inSecondClose = new AtomicBoolean();
        AtomicBoolean secondReturned = new AtomicBoolean();
        Thread releaser = new Thread(() -> {
            while (!secondReturned.get()) {
                Thread.State s = main.getState();
                if (inSecondClose.get() && (s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING)) {
                    break;
                }
                Thread.onSpinWait();
            }
            release.countDown();
        }, "releaser");
        releaser.start();
        inSecondClose.set(true);
        system.close();
        boolean stoppedWhenSecondCloseReturned = r.isStopped();
        boolean terminatedWhenSecondCloseReturned = ((ExecutorService) system.scheduler()).isTerminated();
        secondReturned.set(true);
        releaser.join();
        first.join();
        assertThat(stoppedWhenSecondCloseReturned).as("actor stopped when the second close() returned").isTrue();
        assertThat(terminatedWhenSecondCloseReturned).as("owned scheduler terminated when the second close() returned")
                .isTrue();
    }

    /**
     * Finding 4: stop() hands every caller the actor's one internal termination future. One
     * caller bounding its own wait with {@code orTimeout} (or cancelling, or completing it)
     * completes that shared future for everybody: after the actor has really stopped,
     * {@code stop()} still returns a future failed with that caller's TimeoutException, though
     * the Javadoc says it completes (normally) when the actor has stopped.
     */
    @Test
    void oneCallerBoundingItsWaitOnStopDoesNotPoisonTheFutureForEveryOtherCaller() throws Exception {
        TestSchedulers.Manual scheduler = new TestSchedulers.Manual();
        try (ActorSystem system = ActorSystem.create(scheduler)) {
            ActorRef<Recorder> r = system.spawn(Recorder::new);
            r.tell(x -> x.seen.add(1));
            CompletableFuture<Void> impatient = r.stop().orTimeout(1, TimeUnit.MILLISECONDS);
            TestSchedulers.awaitCondition("the impatient caller's bound expired", impatient::isDone);
            scheduler.runAll();                    // the actor processes its message and its stop
            assertThat(r.isStopped()).isTrue();
            assertThat(r.stop()).as("stop() once the actor has stopped").isCompletedWithValue(null);
        }
    }
}
