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
 * An actor that hands itself back to its scheduler after a full activation has no sender on the
 * stack to pass a refusal to. An {@code Error} went to the failure handler; any other exception
 * but a {@link RejectedExecutionException} (a hint the scheduler cannot honour, a scheduler's own
 * bug) ended the actor, its remaining tells dead letters, with nobody told why. On the code
 * before the fix the handler got nothing.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ResubmitRefusalReportedTest {

    /** Queues like {@link TestSchedulers.Manual}, but throws {@code failure} on yielding submissions. */
    static final class RefusingYields implements Scheduler {
        final TestSchedulers.Manual manual = new TestSchedulers.Manual();
        final RuntimeException failure;

        RefusingYields(RuntimeException failure) {
            this.failure = failure;
        }

        @Override
        public void execute(Runnable task) {
            execute(task, Hints.DEFAULT);
        }

        @Override
        public void execute(Runnable task, Hints hints) {
            if (hints.yielding()) {
                throw failure;
            }
            manual.execute(task, hints);
        }
    }

    @Test
    void aSchedulersExceptionOnAResubmissionGoesToTheFailureHandler() {
        IllegalStateException failure = new IllegalStateException("no yielding queue here");
        assertThat(handledAfterARefusedResubmission(failure)).as("what the scheduler threw, reported")
                .containsExactly(failure);
    }

    @Test
    void aShutDownSchedulersRefusalIsNotReportedAsAFailure() {
        assertThat(handledAfterARefusedResubmission(new RejectedExecutionException("shut down")))
                .as("an ordinary end, reported by the dead letter").isEmpty();
    }

    /**
     * Two tells to an actor of one message per activation, on a scheduler that throws
     * {@code failure} at the resubmission the second needs: checks that the actor ended with the
     * second tell a dead letter, and returns what the failure handler got.
     */
    private static List<Throwable> handledAfterARefusedResubmission(RuntimeException failure) {
        RefusingYields scheduler = new RefusingYields(failure);
        List<Throwable> handled = new CopyOnWriteArrayList<>();
        try (ActorSystem system = ActorSystem.builder().scheduler(scheduler)
                .failureHandler((a, t) -> handled.add(t)).build()) {
            ActorRef<int[]> r = system.spawn(() -> new int[1],
                    ActorConfig.builder().name("counter").maxMessagesPerActivation(1).build());
            r.tell(x -> x[0]++);
            r.tell(x -> x[0]++);               // left behind the first: the activation hands itself back
            scheduler.manual.runAll();

            assertThat(r.isStopped()).as("the actor ended as rejected").isTrue();
            assertThat(system.stats().deadLetters()).as("the second tell").isEqualTo(1);
        }
        return handled;
    }
}
