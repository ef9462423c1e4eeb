/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.Hints;
import dev.spindle.Scheduler;
import dev.spindle.testkit.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A scheduler that throws after it queued the activation (a pool whose {@code addWorker} fails
 * once the task is in its queue), and a stack overflow at the entry of the claim-back's
 * compare-and-set that follows (a sender or an activation deep in a stack): the queued task may
 * claim the activation before the thread that scheduled it looks at the state, and the
 * {@code ACTIVE} it then reads is the task's. Before {@code ActorCell.claimBackBy}, that thread
 * took it for its own: a sender gave it back with a store of {@code IDLE} under the running task,
 * and its next message started a second activation beside the first; an activation that
 * resubmitted ran its recovery (abandoning the envelope at the head, resubmitting once more) while
 * the task ran the actor. Both cases failed on the code before the fix: the state read
 * {@code IDLE} while a message was being processed, and a second {@code execute} started a second
 * activation of the actor.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AClaimBackThatOverflowsLeavesOneHolderTest {

    /** Runs each activation on a thread of its own; throws once armed, after the task has started. */
    static final class QueuesThenThrows implements Scheduler, AutoCloseable {
        final ExecutorService threads = Executors.newCachedThreadPool();
        final AtomicInteger executes = new AtomicInteger();
        final AtomicBoolean armed = new AtomicBoolean();
        final CountDownLatch taskRunning = new CountDownLatch(1);
        final Error failure = new OutOfMemoryError("unable to create native thread");

        @Override
        public void execute(Runnable task) {
            execute(task, Hints.DEFAULT);
        }

        @Override
        public void execute(Runnable task, Hints hints) {
            executes.incrementAndGet();
            threads.execute(task);
            if (armed.compareAndSet(true, false)) {
                // the queued task has claimed the activation and runs a message before the throw
                Await.ignoringInterrupts(taskRunning);
                throw failure;
            }
        }

        @Override
        public void close() {
            threads.shutdownNow();
        }
    }

    /** An actor's messages, noting whether two of them ever ran at once. */
    static final class Overlaps {
        final AtomicInteger inside = new AtomicInteger();
        final AtomicBoolean overlapped = new AtomicBoolean();
        final AtomicInteger processed = new AtomicInteger();

        void enter() {
            if (inside.incrementAndGet() > 1) {
                overlapped.set(true);
            }
        }

        void exit() {
            processed.incrementAndGet();
            inside.decrementAndGet();
        }
    }

    /** Makes the claim-back's compare-and-set overflow at its entry, once. */
    private static void overflowTheNextClaimBack() {
        AtomicBoolean once = new AtomicBoolean();
        ActorCell.claimBackHook = () -> {
            if (once.compareAndSet(false, true)) {
                throw new StackOverflowError("at the claim-back's compare-and-set");
            }
        };
    }

    @AfterEach
    void clearHook() {
        ActorCell.claimBackHook = null;
    }

    @Test
    void aSenderWhoseClaimBackOverflowedLeavesTheActivationToTheTaskThatClaimedIt() throws Exception {
        Overlaps overlaps = new Overlaps();
        CountDownLatch release = new CountDownLatch(1);
        try (QueuesThenThrows scheduler = new QueuesThenThrows();
                ActorSystem system = ActorSystem.builder().scheduler(scheduler).build()) {
            ActorRef<int[]> ref = system.spawn(() -> new int[1], ActorConfig.builder().name("held").build());
            int executesBefore = scheduler.executes.get();

            scheduler.armed.set(true);
            overflowTheNextClaimBack();
            assertThatThrownBy(() -> ref.tell(x -> {
                overlaps.enter();
                scheduler.taskRunning.countDown();
                Await.ignoringInterrupts(release);
                x[0]++;
                overlaps.exit();
            })).isInstanceOf(StackOverflowError.class);
            ActorCell.claimBackHook = null;

            assertThat(((ActorCell<?>) ref).lvState()).as("the activation, held by the task running the first "
                    + "message, after the sender's claim-back overflowed").isEqualTo(ActorCell.ACTIVE);

            ref.tell(x -> {
                overlaps.enter();
                x[0]++;
                overlaps.exit();
            });
            assertThat(scheduler.executes.get() - executesBefore)
                    .as("activations started: the second message waits for the first's").isEqualTo(1);

            release.countDown();
            assertThat(ref.ask(x -> x[0])).succeedsWithin(Duration.ofSeconds(20)).isEqualTo(2);
            assertThat(overlaps.overlapped).as("two messages of one actor ran at once").isFalse();
            assertThat(overlaps.processed).hasValue(2);
            assertThat(ref.stop()).succeedsWithin(Duration.ofSeconds(20));
            assertThat(system.stats().deadLetters()).isZero();
        } finally {
            release.countDown();
        }
    }

    @Test
    void aResubmissionWhoseClaimBackOverflowedLeavesTheActivationToTheTaskThatClaimedIt() throws Exception {
        Overlaps overlaps = new Overlaps();
        List<Throwable> handled = new CopyOnWriteArrayList<>();
        CountDownLatch allQueued = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (QueuesThenThrows scheduler = new QueuesThenThrows();
                ActorSystem system = ActorSystem.builder().scheduler(scheduler)
                        .failureHandler((a, t) -> handled.add(t)).build()) {
            ActorRef<int[]> ref = system.spawn(() -> new int[1],
                    ActorConfig.builder().name("resubmitted").maxMessagesPerActivation(1).build());
            int executesBefore = scheduler.executes.get();

            // the first activation runs this, then resubmits itself (one message an activation)
            ref.tell(x -> {
                overlaps.enter();
                Await.ignoringInterrupts(allQueued);
                x[0]++;
                overlaps.exit();
            });
            ref.tell(x -> {                        // run by the resubmitted task, before the throw
                overlaps.enter();
                scheduler.taskRunning.countDown();
                Await.ignoringInterrupts(release);
                x[0]++;
                overlaps.exit();
            });
            ref.tell(x -> {
                overlaps.enter();
                x[0]++;
                overlaps.exit();
            });
            scheduler.armed.set(true);
            overflowTheNextClaimBack();
            allQueued.countDown();

            Await.until("the resubmitting activation's overflow reported",
                    () -> handled.stream().anyMatch(t -> t instanceof StackOverflowError));
            assertThat(((ActorCell<?>) ref).lvState()).as("the activation, held by the task running the second "
                    + "message, after the first activation's claim-back overflowed").isEqualTo(ActorCell.ACTIVE);
            assertThat(scheduler.executes.get() - executesBefore)
                    .as("activations started: the first, and its one resubmission").isEqualTo(2);

            release.countDown();
            assertThat(ref.ask(x -> x[0])).succeedsWithin(Duration.ofSeconds(20)).isEqualTo(3);
            assertThat(overlaps.overlapped).as("two messages of one actor ran at once").isFalse();
            assertThat(overlaps.processed).hasValue(3);
            assertThat(ref.stop()).succeedsWithin(Duration.ofSeconds(20));
            assertThat(system.stats().deadLetters()).isZero();
            assertThat(handled).as("what the scheduler threw and the overflow, reported")
                    .allMatch(t -> t == scheduler.failure || t instanceof StackOverflowError);
        } finally {
            release.countDown();
            allQueued.countDown();
        }
    }
}
