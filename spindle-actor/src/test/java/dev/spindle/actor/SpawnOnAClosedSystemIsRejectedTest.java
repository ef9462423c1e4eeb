/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.pool.WorkSharingPool;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A spawn on a closed system throws {@link RejectedExecutionException} naming the system, as a
 * pool's, the async runtime's and the cluster client's submits after shutdown do. It threw an
 * {@code IllegalStateException}, alone among the project's entry points, so a caller that handles
 * a shut-down scheduler's refusal missed the actor system's.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SpawnOnAClosedSystemIsRejectedTest {

    @Test
    void everySpawnOfAClosedSystemIsRejected() {
        ActorSystem system = ActorSystem.builder().name("shut").build();
        system.close();
        ActorConfig config = ActorConfig.builder().name("late").build();
        assertThatThrownBy(() -> system.spawn(StringBuilder::new))
                .isInstanceOf(RejectedExecutionException.class).hasMessage("actor system 'shut' is closed");
        assertThatThrownBy(() -> system.spawn(StringBuilder::new, config))
                .isInstanceOf(RejectedExecutionException.class).hasMessage("actor system 'shut' is closed");
        assertThatThrownBy(() -> system.spawnWithSelf(self -> new StringBuilder()))
                .isInstanceOf(RejectedExecutionException.class).hasMessage("actor system 'shut' is closed");
        assertThatThrownBy(() -> system.spawnWithSelf(self -> new StringBuilder(), config))
                .isInstanceOf(RejectedExecutionException.class).hasMessage("actor system 'shut' is closed");
        assertThat(system.stats().liveActors()).isZero();
    }

    /**
     * The system closes while the factory runs (here the factory closes it): the spawn finds it
     * closed once the actor is registered, stops the actor and is rejected the same way.
     */
    @Test
    void aSpawnWhoseSystemClosesWhileItsFactoryRunsIsRejectedAndItsActorEnds() throws Exception {
        try (WorkSharingPool pool = WorkSharingPool.builder().workers(1).build()) {
            ActorSystem system = ActorSystem.builder().name("closing").scheduler(pool).build();
            AtomicReference<ActorRef<StringBuilder>> made = new AtomicReference<>();
            assertThatThrownBy(() -> system.<StringBuilder>spawnWithSelf(self -> {
                made.set(self);
                system.close();               // a caller-owned scheduler: close() does not wait
                return new StringBuilder();
            })).isInstanceOf(RejectedExecutionException.class).hasMessage("actor system 'closing' is closed");
            made.get().stop().get(10, TimeUnit.SECONDS);
            assertThat(made.get().isStopped()).isTrue();
            TestSchedulers.awaitCondition("the actor ended", () -> system.stats().liveActors() == 0);
        }
    }
}
