/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A factory that fails makes {@code spawn} throw {@link ActorCreationException}, and the messages
 * it sent to its own reference become dead letters. The exception's message names what the
 * factory threw, through that throwable's {@code toString()}: the application's code, which can
 * throw itself (a {@code getMessage()} that formats a field still null when the constructor
 * failed). spawn described the failure before it ended the half-made actor, so such a
 * {@code toString()} escaped from spawn in place of the factory's failure (lost, not even a
 * cause), and the actor was never ended: an ask the factory had sent to itself never completed.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FactoryFailureThatCannotDescribeItselfTest {

    /** A failure whose message is built from a field the failing constructor never set. */
    static final class ConfigMissing extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final String key = null;

        @Override
        public String getMessage() {
            return "missing setting " + key.trim();  // throws: key is null
        }
    }

    @Test
    void aFactoryFailureWhoseMessageThrowsStillFailsSpawnAndTheFactorysOwnAsk() {
        ConfigMissing failure = new ConfigMissing();
        AtomicReference<CompletableFuture<Integer>> selfAsk = new AtomicReference<>();
        try (ActorSystem system = ActorSystem.builder().failureHandler((a, t) -> { }).build()) {
            Throwable thrown = catchThrowable(() -> system.<int[]>spawnWithSelf(self -> {
                selfAsk.set(self.ask(x -> x[0]));
                throw failure;
            }, ActorConfig.builder().name("settings").build()));

            assertThat(selfAsk.get()).as("the ask the factory sent to its own reference")
                    .failsWithin(Duration.ofSeconds(10))
                    .withThrowableOfType(ExecutionException.class)
                    .havingCause().isInstanceOf(ActorStoppedException.class).havingCause().isSameAs(failure);
            assertThat(thrown).as("what spawn threw").isInstanceOf(ActorCreationException.class)
                    .hasCause(failure).hasMessageContaining("ConfigMissing");
            assertThat(((ActorCreationException) thrown).actorName()).isEqualTo("settings");
            assertThat(system.stats()).as("the ask a dead letter, no actor left")
                    .isEqualTo(new ActorSystemStats(0, 1, 0));
        }
    }
}
