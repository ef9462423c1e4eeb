/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.internal.BlockingSupport;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link ActorSystem#close()} called by an actor, on a thread of the scheduler the system owns.
 * It cannot wait there (the calling actor's own stop is queued behind the message that calls
 * it), but it must still keep the promise that the messages already in a mailbox are processed.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ActorSystemCloseFromAnActorTest {

    /**
     * A sender outside the pool has taken an idle actor's activation (its compare-and-set won)
     * and not yet handed it to the pool when another actor closes the system. The stop that
     * close() enqueues finds the actor active and schedules nothing. Shutting the owned pool
     * down at once, as close() did when called from an actor, made the pool refuse the sender's
     * activation: the actor ended as rejected, the message it had accepted before the close a
     * dead letter and its stop never processed. Called from outside, close() waits for that
     * actor before shutting the pool down (see
     * {@code ActorDeliveryReviewRegressionTest#closeOfAnOwnedSchedulerWaitsForAnActivationASenderHoldsOutsideThePool},
     * whose gated pool holds the sender here too).
     */
    @Test
    void closeFromAnActorKeepsThePoolOpenForAnActivationASenderHoldsOutsideIt() throws Exception {
        ActorDeliveryReviewRegressionTest.GatedPool gated = new ActorDeliveryReviewRegressionTest.GatedPool();
        ActorSystem.Builder b = ActorSystem.builder();
        b.ownScheduler = name -> gated;
        ActorSystem system = b.build();
        ActorRef<Object> target = system.spawn(Object::new, ActorConfig.builder().name("target").build());
        ActorRef<Object> closer = system.spawn(Object::new, ActorConfig.builder().name("closer").build());
        AtomicInteger processed = new AtomicInteger();
        gated.armed.set(true);
        Thread sender = new Thread(() -> target.tell(o -> processed.incrementAndGet()), "held-sender");
        sender.start();
        assertThat(gated.held.await(10, TimeUnit.SECONDS)).as("the sender holds the activation").isTrue();

        String answer = closer.ask(o -> {
            // The gated pool's threads are those of the pool inside it: present this one as a
            // thread of the gated pool, which the system owns, as a real pool's worker is.
            BlockingSupport worker = BlockingSupport.current();
            BlockingSupport.bindCurrent(new BlockingSupport() {
                @Override
                public void beginBlocking() {
                    worker.beginBlocking();
                }

                @Override
                public void endBlocking() {
                    worker.endBlocking();
                }

                @Override
                public boolean serves(Object scheduler) {
                    return scheduler == gated;
                }
            });
            try {
                system.close();
            } finally {
                BlockingSupport.bindCurrent(worker);
            }
            return "closed";
        }).get(10, TimeUnit.SECONDS);
        assertThat(answer).isEqualTo("closed");

        gated.release.countDown();
        sender.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(sender.isAlive()).as("the sender's tell returned").isFalse();
        target.stop().get(10, TimeUnit.SECONDS);

        assertThat(processed.get()).as("the message in the mailbox before the close was processed").isEqualTo(1);
        assertThat(system.stats().deadLetters()).isZero();
        assertThat(target.toString()).as("the target processed its stop").contains("stopped")
                .doesNotContain("rejected");
        assertThat(gated.awaitTermination(10, TimeUnit.SECONDS))
                .as("the pool shut down once every actor had ended").isTrue();
    }
}
