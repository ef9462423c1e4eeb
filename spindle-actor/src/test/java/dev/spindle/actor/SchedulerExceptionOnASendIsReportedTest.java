/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Hints;
import dev.spindle.Scheduler;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A scheduler that refuses a sender's activation with an exception other than a
 * {@link RejectedExecutionException} (a hint it cannot honour, its own bug) ends the actor, as
 * any refusal does. {@code tell} passed on only an {@code Error}; anything else was dropped: the
 * tell returned normally, the failure handler got nothing, and every later tell became a dead
 * letter with nobody told why, as {@link ResubmitRefusalReportedTest} found for a resubmission.
 * On the code before the fix the handler got nothing in each case below.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SchedulerExceptionOnASendIsReportedTest {

    /** Queues like {@link TestSchedulers.Manual}, but throws {@code failure} from every execute. */
    static final class Refusing implements Scheduler {
        final RuntimeException failure;

        Refusing(RuntimeException failure) {
            this.failure = failure;
        }

        @Override
        public void execute(Runnable task) {
            execute(task, Hints.DEFAULT);
        }

        @Override
        public void execute(Runnable task, Hints hints) {
            throw failure;
        }
    }

    @Test
    void aSchedulersExceptionOnATellGoesToTheFailureHandler() {
        IllegalArgumentException failure = new IllegalArgumentException("schedulerIndex 1 is out of range");
        List<Throwable> handled = new CopyOnWriteArrayList<>();
        try (ActorSystem system = ActorSystem.builder().scheduler(new Refusing(failure))
                .failureHandler((a, t) -> handled.add(t)).build()) {
            ActorRef<int[]> r = system.spawn(() -> new int[1], ActorConfig.builder().name("counter").build());
            r.tell(x -> x[0]++);

            assertThat(r.isStopped()).as("the actor ended as rejected").isTrue();
            assertThat(system.stats().deadLetters()).as("the tell").isEqualTo(1);
            assertThat(handled).as("what the scheduler threw, reported").containsExactly(failure);
        }
    }

    @Test
    void aSchedulersExceptionOnTheFirstActivationOfASpawnGoesToTheFailureHandler() {
        IllegalStateException failure = new IllegalStateException("no queue for this hint");
        List<Throwable> handled = new CopyOnWriteArrayList<>();
        try (ActorSystem system = ActorSystem.builder().scheduler(new Refusing(failure))
                .failureHandler((a, t) -> handled.add(t)).build()) {
            ActorRef<int[]> r = system.<int[]>spawnWithSelf(self -> {
                self.tell(x -> x[0]++);        // activates the actor once the factory returned
                return new int[1];
            });

            assertThat(r.isStopped()).as("the actor ended as rejected").isTrue();
            assertThat(system.stats().deadLetters()).as("the factory's tell").isEqualTo(1);
            assertThat(handled).as("what the scheduler threw, reported").containsExactly(failure);
        }
    }

    @Test
    void aShutDownSchedulersRefusalOfATellIsNotReportedAsAFailure() {
        List<Throwable> handled = new CopyOnWriteArrayList<>();
        try (ActorSystem system = ActorSystem.builder()
                .scheduler(new Refusing(new RejectedExecutionException("shut down")))
                .failureHandler((a, t) -> handled.add(t)).build()) {
            ActorRef<int[]> r = system.spawn(() -> new int[1]);
            r.tell(x -> x[0]++);

            assertThat(r.isStopped()).isTrue();
            assertThat(system.stats().deadLetters()).as("the tell").isEqualTo(1);
            assertThat(handled).as("an ordinary end, reported by the dead letter").isEmpty();
        }
    }
}
