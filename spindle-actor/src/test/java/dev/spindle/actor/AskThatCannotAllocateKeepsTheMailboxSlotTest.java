/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An {@code ask} to an actor with a bounded mailbox whose envelope cannot be allocated (an
 * {@code OutOfMemoryError}, made by {@link ActorCell#askAllocationHook}) throws that error to the
 * asker and leaves the mailbox as it found it. It took a slot before allocating, and the slot,
 * never filled nor freed, was gone for good: at capacity 1 every later tell and ask failed with
 * {@link MailboxFullException} although the actor had nothing to do.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AskThatCannotAllocateKeepsTheMailboxSlotTest {

    @AfterEach
    void clearHook() {
        ActorCell.askAllocationHook = null;
    }

    @Test
    void anAskWhoseEnvelopeCannotBeAllocatedLeavesItsSlotFree() {
        TestSchedulers.Manual manual = new TestSchedulers.Manual();
        try (ActorSystem system = ActorSystem.create(manual)) {
            ActorRef<Object> ref = system.spawn(Object::new, ActorConfig.builder().name("one-slot")
                    .mailboxCapacity(1).build());
            OutOfMemoryError oom = new OutOfMemoryError("Java heap space (made by the test)");
            ActorCell.askAllocationHook = () -> {
                throw oom;
            };
            assertThatThrownBy(() -> ref.ask(a -> 1)).isSameAs(oom);
            ActorCell.askAllocationHook = null;

            CompletableFuture<Integer> answer = ref.ask(a -> 42);
            assertThat(answer).as("the one slot is free for the next ask").isNotCompletedExceptionally();
            assertThat(system.deepestMailboxes(1)).extracting(MailboxDepth::depth).containsExactly(1L);
            manual.runAll();
            assertThat(answer).isCompletedWithValue(42);
            assertThat(system.deepestMailboxes(1)).as("no message is waiting").isEmpty();
            ref.tell(a -> { });
            manual.runAll();
            ref.stop();
            manual.runAll();
            assertThat(system.stats().messagesProcessed()).isEqualTo(2);
            assertThat(system.stats().deadLetters()).isZero();
        }
    }
}
