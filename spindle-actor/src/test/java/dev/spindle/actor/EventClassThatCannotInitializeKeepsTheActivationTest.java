/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static dev.spindle.testkit.JfrCapture.record;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

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
 * Once the JVM's flight recorder is initialized, each activation first asks whether a recording
 * wants the actors' events ({@code ActorActivationEvent.enabled()}, {@code MailboxDepthEvent.enabled()}),
 * after it has claimed the actor and before the activation's own guard. The first such question
 * initializes the event class, which can fail (an {@code OutOfMemoryError} while JFR instruments
 * it; from then on the JVM answers every use of the class with {@code NoClassDefFoundError}), as
 * can anything at the bottom of a deep stack. What it threw escaped the activation with the actor
 * still held: the actor never ran again, its messages waited for good (neither processed nor dead
 * letters), its asks and its stop never completed, and only the scheduler's thread saw the error;
 * with the class broken, every actor of the JVM went the same way at its next activation. The
 * question is now answered inside a guard: a failure goes to the failure handler and the
 * activation runs without events; a class that cannot initialize is not asked again.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EventClassThatCannotInitializeKeepsTheActivationTest {

    @AfterEach
    void clearHook() {
        ActorCell.recordingCheckHook = null;
        ActorCell.eventsUnavailable = false;
    }

    @Test
    void anErrorAskingWhetherARecordingWantsTheEventsLeavesTheActorRunning() throws Exception {
        OutOfMemoryError oom = new OutOfMemoryError("Metaspace (made by the test)");
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        AtomicInteger processed = new AtomicInteger();
        AtomicBoolean failOnce = new AtomicBoolean(true);
        List<CompletableFuture<Object>> futures = new CopyOnWriteArrayList<>();
        List<Throwable> escaped = new CopyOnWriteArrayList<>();
        record(Map.of("dev.spindle.ActorActivation#threshold", "0 ms"), () -> {
            TestSchedulers.Manual manual = new TestSchedulers.Manual();
            try (ActorSystem system = ActorSystem.builder().scheduler(manual)
                    .failureHandler((a, t) -> reported.add(t)).build()) {
                ActorRef<Object> ref = system.spawn(Object::new, ActorConfig.builder().name("checked").build());
                ActorCell.recordingCheckHook = () -> {
                    if (failOnce.getAndSet(false)) {
                        throw oom;
                    }
                };
                ref.tell(a -> processed.incrementAndGet());
                futures.add(ref.ask(a -> (Object) 42));
                addIfThrown(escaped, catchThrowable(manual::runAll));
                ref.tell(a -> processed.incrementAndGet());
                futures.add(ref.stop().thenApply(v -> (Object) "stopped"));
                addIfThrown(escaped, catchThrowable(manual::runAll));
            }
        }, "dev.spindle.ActorActivation");

        assertThat(failOnce).as("the hook ran").isFalse();
        assertThat(processed.get()).as("both tells").isEqualTo(2);
        assertThat(futures.get(0)).isCompletedWithValue(42);
        assertThat(futures.get(1)).as("the stop").isCompletedWithValue("stopped");
        assertThat(reported).containsExactly(oom);
        assertThat(escaped).as("thrown out of the activation").isEmpty();
    }

    @Test
    void anEventClassThatCannotInitializeIsReportedOnceAndEveryActorStillRuns() throws Exception {
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        AtomicInteger asked = new AtomicInteger();
        AtomicInteger processed = new AtomicInteger();
        List<CompletableFuture<Object>> futures = new CopyOnWriteArrayList<>();
        List<Throwable> escaped = new CopyOnWriteArrayList<>();
        record(Map.of("dev.spindle.ActorActivation#threshold", "0 ms"), () -> {
            TestSchedulers.Manual manual = new TestSchedulers.Manual();
            try (ActorSystem system = ActorSystem.builder().scheduler(manual)
                    .failureHandler((a, t) -> reported.add(t)).build()) {
                ActorCell.recordingCheckHook = () -> {       // as the JVM answers a class whose init failed
                    asked.incrementAndGet();
                    throw new NoClassDefFoundError("Could not initialize class dev.spindle.actor.ActorActivationEvent"
                            + " (made by the test)");
                };
                for (int i = 0; i < 3; i++) {
                    ActorRef<Object> ref = system.spawn(Object::new, ActorConfig.builder().name("actor-" + i).build());
                    ref.tell(a -> processed.incrementAndGet());
                    futures.add(ref.ask(a -> (Object) "answered"));
                    addIfThrown(escaped, catchThrowable(manual::runAll));
                    futures.add(ref.stop().thenApply(v -> (Object) "stopped"));
                    addIfThrown(escaped, catchThrowable(manual::runAll));
                }
            }
        }, "dev.spindle.ActorActivation");

        assertThat(processed.get()).as("every tell").isEqualTo(3);
        assertThat(futures).allSatisfy(f -> assertThat(f).isDone().isNotCompletedExceptionally());
        assertThat(asked.get()).as("asked once, then not again").isEqualTo(1);
        assertThat(reported).singleElement().isInstanceOf(NoClassDefFoundError.class);
        assertThat(escaped).as("thrown out of an activation").isEmpty();
    }

    private static void addIfThrown(List<Throwable> escaped, Throwable t) {
        if (t != null) {
            escaped.add(t);
        }
    }
}
