/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Scheduler;
import dev.spindle.pool.WorkSharingPool;
import dev.spindle.testkit.Await;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Found by a review of message delivery in the actor layer (session 40). */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ActorDeliveryReviewRegressionTest {

    /**
     * A work-sharing pool whose next {@code execute}, once armed, waits until released: it holds
     * a sender just after it took an idle actor's activation (its compare-and-set won) and before
     * the pool has the activation. Records whether {@code shutdown} was called.
     */
    static final class GatedPool extends AbstractExecutorService implements Scheduler {
        final WorkSharingPool pool = WorkSharingPool.builder().workers(1).build();
        final AtomicBoolean armed = new AtomicBoolean();
        final CountDownLatch held = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicBoolean shutdownCalled = new AtomicBoolean();

        @Override
        public void execute(Runnable task) {
            if (armed.compareAndSet(true, false)) {
                held.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            pool.execute(task);
        }

        @Override
        public void shutdown() {
            shutdownCalled.set(true);
            pool.shutdown();
        }

        @Override
        public List<Runnable> shutdownNow() {
            shutdownCalled.set(true);
            return pool.shutdownNow();
        }

        @Override
        public boolean isShutdown() {
            return pool.isShutdown();
        }

        @Override
        public boolean isTerminated() {
            return pool.isTerminated();
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
            return pool.awaitTermination(timeout, unit);
        }
    }

    /**
     * {@link ActorSystem#close()} with a scheduler it owns waits until every actor has processed
     * its stop, and the messages already in a mailbox are processed first. A sender outside the
     * pool that had just taken an idle actor's activation, but not yet handed it to the pool,
     * held the activation: the stop that close() enqueued found the actor active and scheduled
     * nothing, the pool had nothing queued and terminated, close() returned, and the sender's
     * {@code execute} then reached a pool that refused it. The actor ended as rejected after
     * close() had returned, its stop unprocessed and the message ahead of it a dead letter. The
     * window is a few instructions; the pool here holds the sender in it.
     */
    @Test
    void closeOfAnOwnedSchedulerWaitsForAnActivationASenderHoldsOutsideThePool() throws Exception {
        GatedPool gated = new GatedPool();
        ActorSystem.Builder b = ActorSystem.builder();
        b.ownScheduler = name -> gated;
        ActorSystem system = b.build();
        ActorRef<Object> ref = system.spawn(Object::new);
        AtomicInteger processed = new AtomicInteger();
        gated.armed.set(true);
        Thread sender = new Thread(() -> ref.tell(o -> processed.incrementAndGet()), "held-sender");
        sender.start();
        assertThat(gated.held.await(10, TimeUnit.SECONDS)).as("the sender holds the activation").isTrue();

        Thread closer = new Thread(system::close, "closer");
        closer.start();
        // Without the fix close() shuts the pool down at once; with it, close() waits for the
        // actor's end and the pool is not shut down while the sender holds the activation.
        Await.until("close() shut the pool down or waits for the actor",
                () -> gated.shutdownCalled.get() || closer.getState() == Thread.State.WAITING);
        gated.release.countDown();
        sender.join(TimeUnit.SECONDS.toMillis(10));
        closer.join(TimeUnit.SECONDS.toMillis(10));

        assertThat(closer.isAlive()).as("close() returned").isFalse();
        assertThat(processed.get()).as("the message in the mailbox before the close was processed").isEqualTo(1);
        assertThat(ref.isStopped()).as("the actor processed its stop").isTrue();
        assertThat(system.stats().deadLetters()).isZero();
        assertThat(gated.isTerminated()).isTrue();
    }
}
