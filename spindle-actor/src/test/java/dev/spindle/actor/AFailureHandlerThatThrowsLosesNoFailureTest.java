/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A failure handler that throws while it handles an actor's failure: the handler's exception was
 * dropped, and with it the failure it was given, so that a failed tell left no trace at all. It
 * now goes to the thread's uncaught-exception handler (as what user code throws where nobody waits
 * for it does elsewhere in Spindle), with the failure it was handling suppressed in it; the actor
 * goes on as before. The activations run on the test's thread here ({@link TestSchedulers.Manual}),
 * whose uncaught-exception handler the test sets.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AFailureHandlerThatThrowsLosesNoFailureTest {

    private final List<Throwable> uncaught = new CopyOnWriteArrayList<>();

    /**
     * Runs {@code body} with this thread's uncaught exceptions captured: set here, in the test's
     * own body, not in a {@code @BeforeEach}, which runs on another thread when the timeout is
     * enforced on a thread of its own (CI's JDK 25 pass), so that the handler missed what the
     * actor, run on the test's thread by the manual scheduler, reported.
     */
    private void capturingUncaught(Runnable body) {
        Thread self = Thread.currentThread();
        Thread.UncaughtExceptionHandler saved = self.getUncaughtExceptionHandler();
        self.setUncaughtExceptionHandler((t, e) -> uncaught.add(e));
        try {
            body.run();
        } finally {
            self.setUncaughtExceptionHandler(saved);
        }
    }

    @Test
    void theHandlersExceptionIsReportedWithTheFailureSuppressedInIt() {
        capturingUncaught(this::handlersExceptionIsReported);
    }

    private void handlersExceptionIsReported() {
        IllegalStateException boom = new IllegalStateException("boom");
        IllegalStateException handlerFailed = new IllegalStateException("handler fails too");
        TestSchedulers.Manual scheduler = new TestSchedulers.Manual();
        ActorSystem system = ActorSystem.builder().scheduler(scheduler).failureHandler((a, t) -> {
            throw handlerFailed;
        }).build();
        ActorRef<int[]> r = system.spawn(() -> new int[1]);
        r.tell(x -> {
            throw boom;
        });
        r.tell(x -> x[0] += 2);
        CompletableFuture<Integer> after = r.ask(x -> x[0]);
        scheduler.runAll();

        assertThat(uncaught).as("reported").containsExactly(handlerFailed);
        assertThat(handlerFailed.getSuppressed()).as("the failure it was handling").containsExactly(boom);
        assertThat(after).as("the actor went on").isCompletedWithValue(2);
        system.close();
    }

    @Test
    void aHandlerThatRethrowsTheFailureHasItReportedOnce() {
        capturingUncaught(this::rethrownFailureIsReportedOnce);
    }

    private void rethrownFailureIsReportedOnce() {
        IllegalStateException boom = new IllegalStateException("boom");
        TestSchedulers.Manual scheduler = new TestSchedulers.Manual();
        ActorSystem system = ActorSystem.builder().scheduler(scheduler).failureHandler((a, t) -> {
            throw (RuntimeException) t;
        }).build();
        ActorRef<int[]> r = system.spawn(() -> new int[1]);
        r.tell(x -> {
            throw boom;
        });
        CompletableFuture<Integer> after = r.ask(x -> ++x[0]);
        scheduler.runAll();

        assertThat(uncaught).as("reported").containsExactly(boom);
        assertThat(boom.getSuppressed()).as("nothing suppressed in itself").isEmpty();
        assertThat(after).as("the actor went on").isCompletedWithValue(1);
        system.close();
    }
}
