/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static dev.spindle.async.WakerSemanticsTest.WAIT_S;
import static dev.spindle.async.WakerSemanticsTest.await;
import static dev.spindle.async.WakerSemanticsTest.awaitIdle;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.async.WakerSemanticsTest.Probe;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * User code that breaks its contract (a poll returning null, a waker or a cancel that throws)
 * fails its own task or is reported, and the worker goes on; on a one-worker runtime a later
 * spawn still runs. A worker that dies anyway shuts the runtime down instead of leaving one that
 * accepts spawns it will never run.
 */
class WorkerFaultTest {

    /** What reached the default uncaught-exception handler (worker threads delegate to it). */
    private final ConcurrentLinkedQueue<Throwable> reported = new ConcurrentLinkedQueue<>();
    private Thread.UncaughtExceptionHandler previous;

    @BeforeEach
    void captureReports() {
        previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> reported.add(e));
    }

    @AfterEach
    void restoreReports() {
        Thread.setDefaultUncaughtExceptionHandler(previous);
    }

    static AsyncRuntime oneWorker(AsyncPolicy policy) {
        return AsyncRuntime.builder().workers(1).policy(policy).name("fault-" + policy).build();
    }

    /** Spawns a trivial task and waits (bounded) for it: the worker is alive. */
    static void assertWorkerRuns(AsyncRuntime rt) throws Exception {
        assertThat(rt.spawn(cx -> Poll.ready("after")).get(WAIT_S, TimeUnit.SECONDS)).isEqualTo("after");
        assertThat(rt.isShutdown()).isFalse();
    }

    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void aPollReturningNullFailsItsTaskAndTheWorkerGoesOn(AsyncPolicy policy) throws Exception {
        try (AsyncRuntime rt = oneWorker(policy)) {
            JoinHandle<Object> h = rt.spawn(cx -> null);
            assertThatThrownBy(() -> h.get(WAIT_S, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(NullPointerException.class)
                    .hasMessageContaining("AsyncTask.poll returned null")
                    .hasMessageContaining("Poll.pending()");
            assertWorkerRuns(rt);
        }
    }

    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void aTaskReturningNullAfterRegisteringIsWithdrawn(AsyncPolicy policy) throws Exception {
        try (AsyncRuntime rt = oneWorker(policy)) {
            AsyncChannel<Integer> ch = new AsyncChannel<>(1);
            final class Broken implements AsyncTask<Integer>, Cancellable {
                final AsyncTask<Integer> receive = ch.receive();

                @Override
                public Poll<Integer> poll(Context cx) {
                    receive.poll(cx);              // now waits in the channel
                    return null;
                }

                @Override
                public void cancel() {
                    Async.cancel(receive);
                }
            }
            JoinHandle<Integer> h = rt.spawn(new Broken());
            assertThatThrownBy(() -> h.get(WAIT_S, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(NullPointerException.class);
            TestExecutor.run(ch.send(5));
            assertThat(ch.size()).as("the broken task's receive was withdrawn").isEqualTo(1);
        }
    }

    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void aJoinerWhoseWakerThrowsIsReportedAndTheOthersAreWoken(AsyncPolicy policy)
            throws Exception {
        try (AsyncRuntime rt = oneWorker(policy)) {
            Probe awaited = new Probe();
            JoinHandle<Integer> ah = rt.spawn(awaited);
            awaited.awaitPolls(1);
            IllegalStateException bad = new IllegalStateException("a waker that throws");
            Context throwing = new Context() {
                @Override
                public Waker waker() {
                    return () -> {
                        throw bad;
                    };
                }

                @Override
                public boolean consumeBudget() {
                    return true;
                }
            };
            JoinHandle<String> misuser = rt.spawn(cx -> {
                ah.poll(throwing);                 // registers the throwing waker first
                return Poll.ready("registered");
            });
            assertThat(misuser.get(WAIT_S, TimeUnit.SECONDS)).isEqualTo("registered");
            JoinHandle<Integer> joiner = rt.spawn(ah);
            awaitIdle(joiner);
            awaited.finish = true;
            awaited.waker.wake();                  // completes on the worker, which fires both
            assertThat(joiner.get(WAIT_S, TimeUnit.SECONDS)).isEqualTo(2);
            assertWorkerRuns(rt);
            assertThat(reported).containsExactly(bad);
        }
    }

    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void aCancelThatThrowsIsReportedAndTheWorkerGoesOn(AsyncPolicy policy) throws Exception {
        IllegalStateException bad = new IllegalStateException("a cancel that throws");
        final class Throwing implements AsyncTask<Void>, Cancellable {
            @Override
            public Poll<Void> poll(Context cx) {
                return Poll.pending();
            }

            @Override
            public void cancel() {
                throw bad;
            }
        }
        try (AsyncRuntime rt = oneWorker(policy)) {
            JoinHandle<Void> h = rt.spawn(new Throwing());
            awaitIdle(h);
            assertThat(h.cancel(false)).isTrue();
            await(() -> h.state() == TaskCell.DONE, "the cancelled task to retire");
            assertWorkerRuns(rt);
            assertThat(reported).containsExactly(bad);
        }
    }

    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void aDeadWorkerShutsTheRuntimeDownInsteadOfAcceptingSpawns(AsyncPolicy policy)
            throws Exception {
        AsyncRuntime rt = AsyncRuntime.builder().workers(2).policy(policy).name("dying").build();
        Probe pending = new Probe();
        JoinHandle<Integer> h = rt.spawn(pending);
        pending.awaitPolls(1);
        Error death = new Error("simulated defect in a worker loop");
        rt.workerDied(death);                      // what a worker's run() does when its loop throws
        await(rt::isTerminated, "the runtime to terminate");
        assertThat(rt.isShutdown()).isTrue();
        // the stack trace and root cause: from JDK 23 get() throws a new CancellationException
        // caused by the one the handle holds
        assertThatThrownBy(h::get).isInstanceOf(CancellationException.class)
                .hasStackTraceContaining("worker died").hasRootCause(death);
        assertThatThrownBy(() -> rt.spawn(cx -> Poll.ready(1)))
                .isInstanceOf(RejectedExecutionException.class);
        rt.close();
    }
}
