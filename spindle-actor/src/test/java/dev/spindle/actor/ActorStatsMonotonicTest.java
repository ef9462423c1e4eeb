/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.pool.WorkSharingPool;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code messagesProcessed} is published as a Micrometer counter ({@code spindle.actor.messages},
 * a {@code FunctionCounter}), which must never go down: a drop reads as a counter reset. The
 * processed count of an actor that ends moves from the live set to a running total; a snapshot
 * that read the total before the move and walked the set after it missed the actor's messages.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ActorStatsMonotonicTest {

    @Test
    void messagesProcessedNeverGoesDownWhileActorsStop() throws Exception {
        int actors = 20_000;
        try (WorkSharingPool pool = WorkSharingPool.builder().workers(2).name("mono").build()) {
            ActorSystem system = ActorSystem.create(pool);
            List<ActorRef<Object>> refs = new ArrayList<>(actors);
            List<CompletableFuture<Integer>> asks = new ArrayList<>(actors);
            for (int i = 0; i < actors; i++) {
                ActorRef<Object> a = system.spawn(Object::new);
                refs.add(a);
                asks.add(a.ask(x -> 1));
            }
            CompletableFuture.allOf(asks.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            assertThat(system.stats().messagesProcessed()).isEqualTo(actors);

            AtomicBoolean stopping = new AtomicBoolean(true);
            AtomicLong lowest = new AtomicLong(Long.MAX_VALUE);
            AtomicLong readings = new AtomicLong();
            Thread reader = new Thread(() -> {
                // at least one reading: a reader started late (a loaded machine) found the stops
                // done, took none, and the check below read the accumulator's start value
                do {
                    long p = system.stats().messagesProcessed();
                    lowest.accumulateAndGet(p, Math::min);
                    readings.incrementAndGet();
                } while (stopping.get());
            }, "reader");
            reader.start();
            List<CompletableFuture<Void>> stops = new ArrayList<>(actors);
            for (ActorRef<Object> a : refs) {
                stops.add(a.stop());
            }
            CompletableFuture.allOf(stops.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            stopping.set(false);
            reader.join();
            assertThat(system.stats().messagesProcessed()).isEqualTo(actors);
            assertThat(lowest.get())
                    .as("the lowest of %d readings of a counter that stood at %d before and after", readings.get(),
                            actors)
                    .isEqualTo(actors);
            system.close();
        }
    }
}
