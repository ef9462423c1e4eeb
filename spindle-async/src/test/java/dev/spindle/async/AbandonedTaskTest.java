/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static dev.spindle.async.WakerSemanticsTest.WAIT_S;
import static dev.spindle.async.WakerSemanticsTest.await;
import static dev.spindle.async.WakerSemanticsTest.awaitIdle;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.async.WakerSemanticsTest.Blocker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A task the runtime stops polling before it finished (its handle was cancelled, or the runtime
 * shut down) gives back what it waits in: the runtime cancels it ({@link Cancellable}), as the
 * combinators do with the tasks they abandon. Without that, the next value sent or permit
 * released went to a waiter that nobody would ever poll.
 */
class AbandonedTaskTest {

    static AsyncRuntime runtime(AsyncPolicy policy, int workers) {
        return AsyncRuntime.builder().workers(workers).policy(policy).name("abandon-" + policy).build();
    }

    /** Cancels {@code h} and waits until a worker has retired it (and so withdrawn the task). */
    static void cancelAndRetire(JoinHandle<?> h) throws InterruptedException {
        assertThat(h.cancel(false)).isTrue();
        await(() -> h.state() == TaskCell.DONE, "the cancelled task to retire");
    }

    /** Spawns {@code task}, waits until it waits (its first poll was pending), cancels it. */
    static <T> JoinHandle<T> cancelWhileWaiting(AsyncRuntime rt, AsyncTask<T> task)
            throws InterruptedException {
        JoinHandle<T> h = rt.spawn(task);
        awaitIdle(h);
        cancelAndRetire(h);
        return h;
    }

    /** A task that counts its polls and cancels, and notes a cancel during a poll. */
    static final class Withdrawable implements AsyncTask<Integer>, Cancellable {
        private final boolean ready;
        final AtomicInteger polls = new AtomicInteger();
        final AtomicInteger cancels = new AtomicInteger();
        final AtomicInteger cancelsDuringPoll = new AtomicInteger();
        volatile boolean inPoll;

        /** @param ready whether the first poll completes (else it stays pending) */
        Withdrawable(boolean ready) {
            this.ready = ready;
        }

        @Override
        public Poll<Integer> poll(Context cx) {
            inPoll = true;
            polls.incrementAndGet();
            inPoll = false;
            return ready ? Poll.ready(1) : Poll.pending();
        }

        @Override
        public void cancel() {
            if (inPoll) {
                cancelsDuringPoll.incrementAndGet();
            }
            cancels.incrementAndGet();
        }
    }

    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void cancellingAHandleCancelsTheTaskOnceAfterItsLastPoll(AsyncPolicy policy) throws Exception {
        try (AsyncRuntime rt = runtime(policy, 2)) {
            Withdrawable w = new Withdrawable(false);
            JoinHandle<Integer> h = cancelWhileWaiting(rt, w);
            assertThat(h.cancel(false)).isFalse();
            assertThat(w.cancels.get()).isEqualTo(1);
            assertThat(w.cancelsDuringPoll.get()).isZero();
            assertThat(w.polls.get()).isEqualTo(1);

            // a task that completed is not cancelled
            Withdrawable done = new Withdrawable(true);
            assertThat(rt.spawn(done).get(WAIT_S, TimeUnit.SECONDS)).isEqualTo(1);
            assertThat(done.cancels.get()).isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void aValueSentAfterItsReceiverWasCancelledGoesToAnotherReceiverOnce(AsyncPolicy policy)
            throws Exception {
        try (AsyncRuntime rt = runtime(policy, 2)) {
            AsyncChannel<Integer> ch = new AsyncChannel<>(4);
            JoinHandle<Integer> dead = cancelWhileWaiting(rt, ch.receive());
            TestExecutor.run(ch.send(42));
            assertThat(ch.size()).as("the value waits in the channel").isEqualTo(1);
            JoinHandle<Integer> live = rt.spawn(ch.receive());
            assertThat(live.get(WAIT_S, TimeUnit.SECONDS)).isEqualTo(42);
            assertThat(ch.size()).isZero();
            assertThatThrownBy(dead::get).isInstanceOf(CancellationException.class);
        }
    }

    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void aPermitReleasedAfterItsAcquirerWasCancelledStaysAvailable(AsyncPolicy policy)
            throws Exception {
        try (AsyncRuntime rt = runtime(policy, 2)) {
            AsyncSemaphore sem = new AsyncSemaphore(0);
            cancelWhileWaiting(rt, sem.acquire());
            sem.release();
            assertThat(sem.availablePermits()).isEqualTo(1);
            rt.spawn(sem.acquire()).get(WAIT_S, TimeUnit.SECONDS);
            assertThat(sem.availablePermits()).isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void aCancelledSenderWaitingOnAFullChannelDoesNotSendLater(AsyncPolicy policy)
            throws Exception {
        try (AsyncRuntime rt = runtime(policy, 2)) {
            AsyncChannel<String> ch = new AsyncChannel<>(1);
            TestExecutor.run(ch.send("first"));
            cancelWhileWaiting(rt, ch.send("withdrawn"));
            assertThat(TestExecutor.run(ch.receive())).isEqualTo("first");
            assertThat(ch.size()).as("the cancelled send was withdrawn").isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void cancellingATaskAwaitingSelectOrAllWithdrawsEveryChild(AsyncPolicy policy)
            throws Exception {
        try (AsyncRuntime rt = runtime(policy, 2)) {
            AsyncChannel<Integer> a = new AsyncChannel<>(1);
            AsyncChannel<Integer> b = new AsyncChannel<>(1);
            AsyncSemaphore sem = new AsyncSemaphore(0);
            cancelWhileWaiting(rt, Async.any(List.of(a.receive(), b.receive())));
            cancelWhileWaiting(rt, Async.all(List.of(a.receive(), sem.acquire())));
            TestExecutor.run(a.send(1));
            TestExecutor.run(b.send(2));
            sem.release();
            assertThat(a.size()).isEqualTo(1);
            assertThat(b.size()).isEqualTo(1);
            assertThat(sem.availablePermits()).isEqualTo(1);
        }
    }

    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void cancellingASleepingTaskRemovesItsTimerEntries(AsyncPolicy policy) throws Exception {
        try (AsyncRuntime rt = runtime(policy, 2)) {
            int before = Timers.pending();
            List<JoinHandle<?>> hs = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                hs.add(rt.spawn(Async.sleep(Duration.ofHours(1))));
                hs.add(rt.spawn(Async.timeout(new AsyncChannel<Integer>(1).receive(), Duration.ofHours(1))));
            }
            for (JoinHandle<?> h : hs) {
                awaitIdle(h);
            }
            assertThat(Timers.pending()).isGreaterThanOrEqualTo(hs.size());
            for (JoinHandle<?> h : hs) {
                cancelAndRetire(h);
            }
            // other tests' short timers may fire meanwhile: never more than before remain
            assertThat(Timers.pending()).isLessThanOrEqualTo(before);
        }
    }

    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void closingTheRuntimeWithdrawsAWaitingReceiver(AsyncPolicy policy) throws Exception {
        AsyncChannel<Integer> ch = new AsyncChannel<>(4);
        AsyncSemaphore sem = new AsyncSemaphore(0);
        JoinHandle<Integer> receiver;
        JoinHandle<Void> acquirer;
        try (AsyncRuntime rt = runtime(policy, 2)) {
            receiver = rt.spawn(ch.receive());
            acquirer = rt.spawn(sem.acquire());
            awaitIdle(receiver);
            awaitIdle(acquirer);
        }
        // the stack trace, not the message: from JDK 23 get() throws a new CancellationException
        // caused by the one the handle holds
        assertThatThrownBy(receiver::get).isInstanceOf(CancellationException.class)
                .hasStackTraceContaining("shut down");
        assertThat(acquirer.isCancelled()).isTrue();
        TestExecutor.run(ch.send(7));
        sem.release();
        assertThat(ch.size()).isEqualTo(1);
        assertThat(TestExecutor.run(ch.receive())).isEqualTo(7);
        assertThat(sem.availablePermits()).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void aValueHandedToAWaiterWhileTheRuntimeClosesStaysInTheChannel(AsyncPolicy policy)
            throws Exception {
        AsyncRuntime rt = runtime(policy, 1);
        AsyncChannel<Integer> ch = new AsyncChannel<>(4);
        JoinHandle<Integer> receiver = rt.spawn(ch.receive());
        awaitIdle(receiver);
        Blocker gate = new Blocker();
        // the one worker is busy in this poll when the runtime starts closing; the send then
        // hands the value to the waiting receive, whose task will never be polled again
        JoinHandle<Void> sender = rt.spawn(Async.then(gate, x -> ch.send(9)));
        gate.awaitStarted();
        Thread closer = new Thread(rt::close, "closer");
        closer.start();
        await(rt::isShutdown, "the runtime to start closing");
        gate.release();
        closer.join(TimeUnit.SECONDS.toMillis(WAIT_S));
        assertThat(closer.isAlive()).isFalse();
        assertThat(sender.get()).isNull();
        assertThat(receiver.isCancelled()).isTrue();
        assertThat(ch.size()).as("the value handed to the dead receive came back").isEqualTo(1);
        assertThat(TestExecutor.run(ch.receive())).isEqualTo(9);
    }
}
