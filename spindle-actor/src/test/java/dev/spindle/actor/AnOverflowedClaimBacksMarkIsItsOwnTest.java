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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Found by review (H104). A sender's claim-back overflows at its compare-and-set's entry, and
 * before the sender reads its mark ({@code claimBackBy}) the queued task claims the activation,
 * runs it and resubmits it to a scheduler that refuses. That holder's claim-back is an ordinary
 * one, and it ends the actor. When every claim-back stored its mark before its compare-and-set and
 * cleared it after, the holder's cleared the sender's: the sender then read no mark of its own,
 * took its throw for one before its claim-back and gave the activation back by a store of
 * {@code IDLE} under the holder, still inside its end (rejecting an ask). A {@code stop()} then
 * activated the actor on a second thread, which drained the mailbox beside the first and completed
 * the termination while the first still rejected. Failed so before the fix (the state read
 * {@code IDLE} while the holder ran); a mark is now stored only by a claim-back that threw.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AnOverflowedClaimBacksMarkIsItsOwnTest {

    /** Once armed: queues the next activation and throws, then refuses the one after unqueued. */
    static final class QueuesThenRefuses implements Scheduler {
        final LinkedBlockingQueue<Runnable> queued = new LinkedBlockingQueue<>();
        /** 2: queue and throw; 1: refuse; 0: queue. */
        final AtomicInteger armed = new AtomicInteger();

        @Override
        public void execute(Runnable task) {
            execute(task, Hints.DEFAULT);
        }

        @Override
        public void execute(Runnable task, Hints hints) {
            int a = armed.getAndUpdate(x -> Math.max(0, x - 1));
            if (a == 1) {
                throw new RejectedExecutionException("shut down");
            }
            queued.add(task);
            if (a == 2) {
                throw new OutOfMemoryError("unable to create native thread");
            }
        }
    }

    @AfterEach
    void clearHook() {
        ActorCell.claimBackHook = null;
    }

    @Test
    void anotherHoldersClaimBackDoesNotEraseTheOverflowedSendersMark() throws Exception {
        QueuesThenRefuses scheduler = new QueuesThenRefuses();
        CountDownLatch release = new CountDownLatch(1);
        Thread[] holder = new Thread[1];
        try (ActorSystem system = ActorSystem.builder().scheduler(scheduler).build()) {
            try {
                sendAndCheck(system, scheduler, holder, release);
            } finally {
                release.countDown();           // before the close, which waits for the actor's end
                if (holder[0] != null) {
                    holder[0].join();
                }
            }
        }
    }

    private static void sendAndCheck(ActorSystem system, QueuesThenRefuses scheduler, Thread[] holder,
            CountDownLatch release) throws InterruptedException {
        CountDownLatch holderRejecting = new CountDownLatch(1);
        Thread sender = Thread.currentThread();
        ActorRef<int[]> ref = system.spawn(() -> new int[1],
                ActorConfig.builder().name("marked").maxMessagesPerActivation(1).build());
        ActorCell<?> cell = (ActorCell<?>) ref;
        AtomicBoolean once = new AtomicBoolean();
        ActorCell.claimBackHook = () -> {
            if (Thread.currentThread() != sender || !once.compareAndSet(false, true)) {
                return;                        // the holder's own claim-back goes on
            }
            // Behind the first message: the holder's resubmission, refused, ends the actor and
            // rejects this ask, and the ask's stage keeps the holder inside terminate
            CompletableFuture<Integer> asked = ref.ask(x -> x[0]);
            asked.whenComplete((v, t) -> {
                holderRejecting.countDown();
                Await.ignoringInterrupts(release);
            });
            holder[0] = new Thread(scheduler.queued.poll(), "holder");
            holder[0].start();
            Await.ignoringInterrupts(holderRejecting);
            throw new StackOverflowError("at the claim-back's compare-and-set");
        };

        scheduler.armed.set(2);
        assertThatThrownBy(() -> ref.tell(x -> x[0]++)).isInstanceOf(StackOverflowError.class);
        ActorCell.claimBackHook = null;

        assertThat(cell.lvState()).as("the activation, held by the thread ending the actor, after the "
                + "sender's claim-back overflowed").isEqualTo(ActorCell.ACTIVE);
        CompletableFuture<Void> stopped = ref.stop();
        assertThat(stopped).as("the termination, while its holder still rejects the mailbox").isNotDone();

        release.countDown();
        holder[0].join();
        assertThat(stopped).succeedsWithin(Duration.ofSeconds(20));
        assertThat(cell.lvState()).isEqualTo(ActorCell.IDLE);
    }
}
