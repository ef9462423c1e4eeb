/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.pool.WorkSharingPool;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MailboxDepthTest {

    /**
     * Each actor is held inside its first message, so what is sent next waits: the listing names
     * the deepest first, counts a bounded mailbox by its size and an unbounded one by its links,
     * stops counting at the limit, and leaves out empty mailboxes.
     */
    @Test
    void theDeepestMailboxesAreListedDeepestFirstAndAFloodedOneIsCapped() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (WorkSharingPool pool = WorkSharingPool.builder().workers(4).name("depths").build();
                ActorSystem system = ActorSystem.builder().name("depths").scheduler(pool).build()) {
            ActorRef<Object> flooded = held(system, "flooded", ActorConfig.UNBOUNDED, release);
            ActorRef<Object> ten = held(system, "ten", ActorConfig.UNBOUNDED, release);
            ActorRef<Object> bounded = held(system, "bounded", 100, release);
            held(system, "empty", ActorConfig.UNBOUNDED, release);
            system.spawn(Object::new);                               // idle: not listed
            for (int i = 0; i < ActorSystem.MAILBOX_COUNT_LIMIT + 500; i++) {
                flooded.tell(a -> { });
            }
            for (int i = 0; i < 10; i++) {
                ten.tell(a -> { });
            }
            for (int i = 0; i < 3; i++) {
                bounded.tell(a -> { });
            }
            assertThat(system.deepestMailboxes(10)).containsExactly(
                    new MailboxDepth("flooded", ActorSystem.MAILBOX_COUNT_LIMIT, true, ActorConfig.UNBOUNDED),
                    new MailboxDepth("ten", 10, false, ActorConfig.UNBOUNDED),
                    new MailboxDepth("bounded", 3, false, 100));
            assertThat(system.deepestMailboxes(2)).extracting(MailboxDepth::actor).containsExactly("flooded", "ten");
            release.countDown();
            TestSchedulers.awaitCondition("every mailbox drained", () -> system.deepestMailboxes(10).isEmpty());
        } finally {
            release.countDown();
        }
    }

    @Test
    void aBadCountIsRefusedByName() {
        try (ActorSystem system = ActorSystem.create()) {
            // as AsyncRuntime.busiestTasks words it
            assertThatThrownBy(() -> system.deepestMailboxes(0))
                    .isInstanceOf(IllegalArgumentException.class).hasMessage("n must be in [1, 1000], was 0");
            assertThatThrownBy(() -> system.deepestMailboxes(1001))
                    .isInstanceOf(IllegalArgumentException.class).hasMessage("n must be in [1, 1000], was 1001");
        }
    }

    /** An actor busy in its first message until {@code release} opens; returns once it is inside. */
    private static ActorRef<Object> held(ActorSystem system, String name, int capacity, CountDownLatch release)
            throws InterruptedException {
        ActorRef<Object> ref = system.spawn(Object::new, ActorConfig.builder().name(name)
                .mailboxCapacity(capacity).build());
        CountDownLatch inside = new CountDownLatch(1);
        ref.tell(a -> {
            inside.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertThat(inside.await(10, TimeUnit.SECONDS)).as(name + " started its first message").isTrue();
        return ref;
    }
}
