/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A {@code stop()} marks the stop as requested before it puts the stop envelope in the mailbox.
 * A sender whose message finds a bounded mailbox full in between must not get its message
 * dropped as "behind the stop" while its next message, finding room once the actor took one,
 * goes into the mailbox ahead of the stop and is processed: one sender's earlier message would
 * be a dead letter and its later one processed, against the per-sender order
 * ({@link ActorRef#tell}: the stop "is ahead of the message, which is a dead letter").
 *
 * <p>The stopping thread is held in that window with {@link ActorCell#stopWindowHook}. Where a
 * sender waits for the stop to be enqueued instead of deciding at once, the test sees it waiting
 * (its stack) and lets the stop go on; either way every message that finds room runs after each
 * earlier message of its sender.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StopRacingAFullBoundedMailboxKeepsSenderOrderTest {

    static final class Recorder {
        final List<Integer> seen = new ArrayList<>();
    }

    @AfterEach
    void removeHook() {
        ActorCell.stopWindowHook = null;
    }

    @Test
    void aTellDeadLetteredDuringAStopIsNotOvertakenByTheSendersNextTell() throws Exception {
        run(false);
    }

    @Test
    void anAskFailedAsStoppedDuringAStopIsNotOvertakenByTheSendersNextAsk() throws Exception {
        run(true);
    }

    /**
     * Fills a mailbox of two (messages 1 and 2), holds a stop between its request and its
     * enqueueing, and has one sender send message 3 (which finds the mailbox full) and, once the
     * actor took message 1, message 4 (which finds room). Then lets the stop go on and runs the
     * actor to its end: message 4 must not have run without message 3.
     */
    private static void run(boolean asks) throws Exception {
        TestSchedulers.Manual scheduler = new TestSchedulers.Manual();
        try (ActorSystem system = ActorSystem.builder().scheduler(scheduler).failureHandler((a, e) -> { }).build()) {
            Recorder recorder = new Recorder();         // runs on this thread only (the manual scheduler)
            ActorRef<Recorder> r = system.spawn(() -> recorder, ActorConfig.builder().name("bounded")
                    .mailboxCapacity(2).maxMessagesPerActivation(1).build());
            r.tell(x -> x.seen.add(1));
            r.tell(x -> x.seen.add(2));                 // full; the activation is queued, not run

            CountDownLatch inWindow = new CountDownLatch(1);
            CountDownLatch releaseStop = new CountDownLatch(1);
            ActorCell.stopWindowHook = ref -> {
                if (ref == r) {
                    inWindow.countDown();
                    await(releaseStop);
                }
            };
            AtomicReference<CompletableFuture<Void>> stopped = new AtomicReference<>();
            Thread stopper = new Thread(() -> stopped.set(r.stop()), "stopper");
            stopper.start();
            await(inWindow);                            // the stop is requested, not yet enqueued

            CountDownLatch firstSent = new CountDownLatch(1);
            CountDownLatch room = new CountDownLatch(1);
            CountDownLatch secondSent = new CountDownLatch(1);
            List<CompletableFuture<Boolean>> answers = new ArrayList<>();
            Thread sender = new Thread(() -> {
                answers.add(send(r, 3, asks));          // finds the mailbox full
                firstSent.countDown();
                await(room);
                answers.add(send(r, 4, asks));          // finds the slot message 1 left
                secondSent.countDown();
            }, "sender");
            sender.start();
            TestSchedulers.awaitCondition("message 3 sent, or its sender waiting for the stop",
                    () -> firstSent.getCount() == 0 || waitsForTheStop(sender));

            assertThat(scheduler.runOne()).as("the activation that takes message 1").isTrue();
            room.countDown();
            if (firstSent.getCount() == 0) {            // message 3 was decided inside the window
                await(secondSent);                      // and message 4 too, before the stop is enqueued
            }
            releaseStop.countDown();
            stopper.join(TimeUnit.SECONDS.toMillis(30));
            sender.join(TimeUnit.SECONDS.toMillis(30));
            assertThat(stopper.isAlive() || sender.isAlive()).as("stopper or sender stuck").isFalse();
            scheduler.runAll();

            assertThat(stopped.get()).succeedsWithin(10, TimeUnit.SECONDS);
            assertThat(recorder.seen).as("messages processed (3 and 4 are one sender's, 3 sent first)")
                    .containsExactly(1, 2);
            for (CompletableFuture<Boolean> answer : answers) {
                if (answer != null) {
                    assertThat(answer.handle((v, t) -> t).join()).isInstanceOf(ActorStoppedException.class);
                }
            }
            assertThat(system.stats()).as("1 and 2 processed; 3 and 4 dead letters")
                    .isEqualTo(new ActorSystemStats(2, 2, 0));
        }
    }

    /** Sends message {@code n}: a tell (null returned) or an ask (its future returned). */
    private static CompletableFuture<Boolean> send(ActorRef<Recorder> r, int n, boolean ask) {
        if (ask) {
            return r.ask(x -> x.seen.add(n));
        }
        r.tell(x -> x.seen.add(n));
        return null;
    }

    /** Whether {@code t} is inside the mailbox's wait for a requested stop to be enqueued. */
    private static boolean waitsForTheStop(Thread t) {
        return Arrays.stream(t.getStackTrace()).anyMatch(f -> f.getClassName().equals(ActorCell.class.getName())
                && f.getMethodName().equals("awaitStopQueued"));
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new AssertionError("timed out");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
