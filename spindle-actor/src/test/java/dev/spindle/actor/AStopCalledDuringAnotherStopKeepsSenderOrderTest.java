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
 * A {@code stop()} that finds another caller's stop already requested does not queue a stop of
 * its own. If it returned while that other stop was still between its request and its place in
 * the mailbox, the caller's next message went into the mailbox ahead of every stop and was
 * processed, although its sender had stopped the actor first: the stop "is a message like any
 * other" ({@link ActorRef#stop()}), and one sender's messages run in the order sent.
 *
 * <p>The first stopping thread is held in that window with {@link ActorCell#stopWindowHook}. The
 * second caller either sends its message at once (before the fix) or is seen waiting for the
 * first stop to be enqueued (its stack); then the first stop goes on.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AStopCalledDuringAnotherStopKeepsSenderOrderTest {

    static final class Recorder {
        final List<Integer> seen = new ArrayList<>();
    }

    @AfterEach
    void removeHook() {
        ActorCell.stopWindowHook = null;
    }

    @Test
    void aTellSentAfterStopReturnedIsADeadLetterWhileAnotherStopIsBeingQueued() throws Exception {
        run(false);
    }

    @Test
    void anAskSentAfterStopReturnedFailsWhileAnotherStopIsBeingQueued() throws Exception {
        run(true);
    }

    private static void run(boolean ask) throws Exception {
        TestSchedulers.Manual scheduler = new TestSchedulers.Manual();
        try (ActorSystem system = ActorSystem.builder().scheduler(scheduler).failureHandler((a, e) -> { }).build()) {
            Recorder recorder = new Recorder();         // runs on this thread only (the manual scheduler)
            ActorRef<Recorder> r = system.spawn(() -> recorder);

            CountDownLatch inWindow = new CountDownLatch(1);
            CountDownLatch releaseStop = new CountDownLatch(1);
            ActorCell.stopWindowHook = ref -> {
                if (ref == r) {
                    inWindow.countDown();
                    await(releaseStop);
                }
            };
            AtomicReference<CompletableFuture<Void>> firstStop = new AtomicReference<>();
            Thread first = new Thread(() -> firstStop.set(r.stop()), "first-stopper");
            first.start();
            await(inWindow);                            // the first stop is requested, not yet enqueued

            CountDownLatch sent = new CountDownLatch(1);
            AtomicReference<CompletableFuture<Boolean>> answer = new AtomicReference<>();
            AtomicReference<CompletableFuture<Void>> secondStop = new AtomicReference<>();
            Thread second = new Thread(() -> {
                secondStop.set(r.stop());               // the actor is asked to stop...
                if (ask) {                              // ...then sent a message: behind the stop
                    answer.set(r.ask(x -> x.seen.add(1)));
                } else {
                    r.tell(x -> x.seen.add(1));
                }
                sent.countDown();
            }, "second-stopper");
            second.start();
            TestSchedulers.awaitCondition("the second stopper's message sent, or its stop waiting for the first",
                    () -> sent.getCount() == 0 || waitsForTheStop(second));

            releaseStop.countDown();
            first.join(TimeUnit.SECONDS.toMillis(30));
            second.join(TimeUnit.SECONDS.toMillis(30));
            assertThat(first.isAlive() || second.isAlive()).as("a stopper stuck").isFalse();
            scheduler.runAll();

            assertThat(firstStop.get()).succeedsWithin(10, TimeUnit.SECONDS);
            assertThat(secondStop.get()).succeedsWithin(10, TimeUnit.SECONDS);
            assertThat(recorder.seen).as("messages processed after their sender's stop()").isEmpty();
            if (ask) {
                assertThat(answer.get().handle((v, t) -> t).join()).isInstanceOf(ActorStoppedException.class);
            }
            assertThat(system.stats()).as("the message sent after stop() is a dead letter")
                    .isEqualTo(new ActorSystemStats(0, 1, 0));
        }
    }

    /** Whether {@code t} is inside the wait for a requested stop to be enqueued. */
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
