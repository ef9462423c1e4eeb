/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.Hints;
import dev.spindle.Scheduler;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A scheduler whose {@code execute} throws after it has queued the task: a
 * {@code ThreadPoolExecutor} whose {@code addWorker} fails ("OutOfMemoryError: unable to create
 * native thread") once the task is in its queue, or a custom executor. The cell took every throw
 * for a refusal and ended the actor while the activation still ran, or ran later: two views of
 * one actor. On the code before the fix, the first test found the actor declared ended (its
 * termination complete, the sender thrown the Error) while its message was still being processed,
 * and processed after that; the second found the later run of the queued activation giving up
 * the activation that the ending thread still held.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SchedulerThatThrowsAfterQueueingKeepsOneViewOfTheActorTest {

    private static Error threadStartFailure() {
        return new OutOfMemoryError("unable to create native thread");
    }

    /**
     * Its first {@code execute} hands the task to a worker, waits until the actor's message runs
     * there, then throws (a worker that took the task from the queue before {@code addWorker}
     * failed); later ones hand it over normally.
     */
    static final class RunsThenThrows implements Scheduler, AutoCloseable {
        final ExecutorService worker = Executors.newSingleThreadExecutor();
        final CountDownLatch messageRunning = new CountDownLatch(1);
        final AtomicBoolean thrown = new AtomicBoolean();
        final Error failure = threadStartFailure();

        @Override
        public void execute(Runnable task) {
            execute(task, Hints.DEFAULT);
        }

        @Override
        public void execute(Runnable task, Hints hints) {
            worker.execute(task);
            if (thrown.compareAndSet(false, true)) {
                try {
                    messageRunning.await(20, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                throw failure;
            }
        }

        @Override
        public void close() {
            worker.shutdownNow();
        }
    }

    @Test
    void anActivationTheSchedulerRanDespiteItsThrowKeepsTheActorAlive() throws Exception {
        List<Throwable> handled = new CopyOnWriteArrayList<>();
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean endedWhileProcessing = new AtomicBoolean();
        try (RunsThenThrows scheduler = new RunsThenThrows();
                ActorSystem system = ActorSystem.builder().scheduler(scheduler)
                        .failureHandler((a, t) -> handled.add(t)).build()) {
            ActorRef<int[]> ref = system.spawn(() -> new int[1], ActorConfig.builder().name("counter").build());

            CompletableFuture<Integer> first = null;
            Throwable toSender = null;
            boolean stoppedWhileItRuns;
            try {
                first = ref.ask(x -> {
                    scheduler.messageRunning.countDown();
                    try {
                        release.await(20, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    endedWhileProcessing.set(ref.isStopped());
                    return ++x[0];
                });
            } catch (Throwable t) {
                toSender = t;
            } finally {
                stoppedWhileItRuns = ref.isStopped();
                release.countDown();
            }

            assertThat(stoppedWhileItRuns).as("the actor whose activation the scheduler ran despite its throw, "
                    + "while its message runs").isFalse();
            assertThat(toSender).as("the message was accepted: nothing thrown to the sender").isNull();
            assertThat(first).succeedsWithin(Duration.ofSeconds(20)).isEqualTo(1);
            assertThat(endedWhileProcessing).as("declared ended while it processed a message").isFalse();
            assertThat(ref.ask(x -> ++x[0])).as("the actor goes on").succeedsWithin(Duration.ofSeconds(20))
                    .isEqualTo(2);
            assertThat(handled).as("the scheduler's throw, reported").containsExactly(scheduler.failure);
            assertThat(ref.stop()).succeedsWithin(Duration.ofSeconds(20));
            assertThat(system.stats().deadLetters()).isZero();
        }
    }

    @Test
    void anActivationQueuedBeforeTheThrowThatRunsAfterTheActorEndedLeavesItAlone() throws Exception {
        AtomicInteger executes = new AtomicInteger();
        AtomicReference<Runnable> queued = new AtomicReference<>();
        Error failure = threadStartFailure();
        Scheduler queuesThenThrows = new Scheduler() {
            @Override
            public void execute(Runnable task) {
                execute(task, Hints.DEFAULT);
            }

            @Override
            public void execute(Runnable task, Hints hints) {
                executes.incrementAndGet();
                queued.set(task);                  // queued: it runs when the test says so
                throw failure;
            }
        };
        List<Throwable> handled = new CopyOnWriteArrayList<>();
        AtomicReference<ActorRef<int[]>> self = new AtomicReference<>();
        AtomicReference<CompletableFuture<Integer>> ask = new AtomicReference<>();
        AtomicReference<Object> stateAfterTheQueuedRun = new AtomicReference<>();
        try (ActorSystem system = ActorSystem.builder().scheduler(queuesThenThrows)
                .failureHandler((a, t) -> handled.add(t)).build()) {
            assertThatThrownBy(() -> system.<int[]>spawnWithSelf(r -> {
                self.set(r);
                // Rejected by the thread that ends the actor, which holds its activation
                // meanwhile: the queued activation runs here, inside that rejection
                ask.set(r.ask(x -> ++x[0]));
                ask.get().whenComplete((v, t) -> {
                    queued.get().run();
                    stateAfterTheQueuedRun.set(((ActorCell<?>) self.get()).lvState());
                });
                return new int[1];
            })).isSameAs(failure);                 // the Error goes to the spawning thread, as before

            ActorRef<int[]> ref = self.get();
            assertThat(ask.get()).failsWithin(Duration.ofSeconds(20))
                    .withThrowableOfType(java.util.concurrent.ExecutionException.class)
                    .withCauseInstanceOf(ActorStoppedException.class);
            assertThat(stateAfterTheQueuedRun.get()).as("the activation state, still held by the ending thread, "
                    + "after the queued activation ran").isEqualTo(ActorCell.ACTIVE);
            assertThat(ref.isStopped()).isTrue();
            assertThat(ref.stop()).succeedsWithin(Duration.ofSeconds(20));
            queued.get().run();                    // once more, long after: still nothing
            ref.tell(x -> x[0]++);
            assertThat(executes).as("an ended actor is not scheduled again").hasValue(1);
            assertThat(system.stats().deadLetters()).as("the ask and the tell, each once").isEqualTo(2);
            assertThat(system.stats().messagesProcessed()).isZero();
        }
    }
}
