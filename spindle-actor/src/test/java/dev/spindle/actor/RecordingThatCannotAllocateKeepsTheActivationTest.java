/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static dev.spindle.testkit.JfrCapture.record;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * While a flight recording enables the actors' events, each activation allocates its event before
 * it runs the actor's messages. An allocation that failed there (an {@code OutOfMemoryError}, made
 * by {@link ActorActivationEvent#recordingHook}) escaped the activation before it had run, while
 * it held the actor: nobody gave the activation up, so the actor never ran again, every later
 * message waited for good (neither processed nor a dead letter) and its stop never completed. A
 * failure of the recording now costs the recording only: it goes to the failure handler and the
 * activation runs.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RecordingThatCannotAllocateKeepsTheActivationTest {

    @AfterEach
    void clearHook() {
        ActorActivationEvent.recordingHook = null;
    }

    @Test
    void anActivationWhoseEventCannotBeAllocatedStillRunsTheActor() throws Exception {
        OutOfMemoryError oom = new OutOfMemoryError("Java heap space (made by the test)");
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        AtomicInteger processed = new AtomicInteger();
        AtomicBoolean failOnce = new AtomicBoolean(true);
        List<CompletableFuture<Object>> futures = new CopyOnWriteArrayList<>();
        record(Map.of("dev.spindle.ActorActivation#threshold", "0 ms"), () -> {
            TestSchedulers.Manual manual = new TestSchedulers.Manual();
            try (ActorSystem system = ActorSystem.builder().scheduler(manual)
                    .failureHandler((a, t) -> reported.add(t)).build()) {
                ActorRef<Object> ref = system.spawn(Object::new, ActorConfig.builder().name("recorded").build());
                ActorActivationEvent.recordingHook = () -> {
                    if (failOnce.getAndSet(false)) {
                        throw oom;
                    }
                };
                ref.tell(a -> processed.incrementAndGet());
                futures.add(ref.ask(a -> (Object) 42));
                assertThatCode(manual::runAll).as("the activation").doesNotThrowAnyException();
                ref.tell(a -> processed.incrementAndGet());
                futures.add(ref.stop().thenApply(v -> (Object) "stopped"));
                manual.runAll();
            }
        }, "dev.spindle.ActorActivation");

        assertThat(failOnce).as("the hook ran").isFalse();
        assertThat(processed.get()).as("both tells").isEqualTo(2);
        assertThat(futures.get(0)).isCompletedWithValue(42);
        assertThat(futures.get(1)).as("the stop").isCompletedWithValue("stopped");
        assertThat(reported).containsExactly(oom);
    }
}
