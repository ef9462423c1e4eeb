/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.pool.SchedulerUnion;
import dev.spindle.pool.WorkStealingPool;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An actor system on a union that borrows its pool, closed as a caller-owned scheduler is:
 * {@code system.close()}, then the union's {@code close()}. The messages already in a mailbox
 * are processed ({@link ActorSystem#close()}), as on the pool itself.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ActorSystemOnABorrowingUnionTest {

    /**
     * The actor takes one message per turn, so each of the ten queued behind the one it is
     * processing needs a new activation from the union. A borrowing union, shut down, refused
     * those activations although they come from its member's own worker: the actor ended as
     * rejected and every queued message became a dead letter.
     */
    @Test
    void messagesQueuedBeforeTheCloseAreProcessedAfterTheUnionIsClosed() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).name("borrowed").build();
        try {
            SchedulerUnion union = SchedulerUnion.of(pool);
            ActorSystem system = ActorSystem.builder().scheduler(union).build();
            ActorRef<Object> ref = system.spawn(Object::new,
                    ActorConfig.builder().name("one-per-turn").maxMessagesPerActivation(1).build());
            CountDownLatch inFirst = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            AtomicInteger processed = new AtomicInteger();
            ref.tell(o -> {
                inFirst.countDown();
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertThat(inFirst.await(10, TimeUnit.SECONDS)).isTrue();
            for (int i = 0; i < 10; i++) {
                ref.tell(o -> processed.incrementAndGet());
            }
            system.close();
            union.close();
            release.countDown();
            ref.stop().get(10, TimeUnit.SECONDS);

            assertThat(processed.get()).as("the messages queued before the close").isEqualTo(10);
            assertThat(system.stats().deadLetters()).isZero();
            assertThat(ref.toString()).doesNotContain("rejected");
        } finally {
            pool.close();
        }
    }
}
