/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.actor.ActorSystem;
import dev.spindle.async.AsyncRuntime;
import dev.spindle.cluster.LocalCluster;
import dev.spindle.pool.WorkSharingPool;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A registration on a closed console throws {@link IllegalStateException} saying so. It was
 * kept and never shown, without a word: a caller that registered on a console it took for running
 * (one closed by another part of the application, say) was not told its scheduler would not be
 * shown. An async runtime's task statistics are not turned on for it either.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RegisterOnAClosedConsoleTest {

    @Test
    void everyRegistrationOnAClosedConsoleThrows() {
        Console console = Console.builder().withoutToken().start();
        console.close();
        try (WorkSharingPool pool = WorkSharingPool.builder().workers(1).build();
                AsyncRuntime runtime = AsyncRuntime.builder().workers(1).build();
                ActorSystem system = ActorSystem.create(pool);
                LocalCluster cluster = LocalCluster.builder().workers(1).threadsPerWorker(1).build()) {
            assertThatThrownBy(() -> console.register("pool", pool::stats))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("console").hasMessageContaining("closed");
            assertThatThrownBy(() -> console.register("async", runtime))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
            assertThat(runtime.taskStatisticsEnabled()).as("task statistics turned on by a refused registration").isFalse();
            assertThatThrownBy(() -> console.register("actors", system))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
            assertThatThrownBy(() -> console.register("cluster", cluster))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
            // a bad argument is still named first, as on an open console
            assertThatThrownBy(() -> console.register(" ", pool::stats)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> console.register("pool", (AsyncRuntime) null)).isInstanceOf(NullPointerException.class);
            assertThat(console.unregister("pool")).as("unregister stays allowed").isSameAs(console);
        }
    }
}
