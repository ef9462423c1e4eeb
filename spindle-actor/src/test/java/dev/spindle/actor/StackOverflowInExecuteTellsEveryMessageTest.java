/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.Hints;
import dev.spindle.Scheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A scheduler whose {@code execute} throws a {@link StackOverflowError} once (a sender, or an
 * activation run deep in another task's stack, at the stack's limit inside {@code execute}) and
 * then works: the actor ends as rejected, as for any {@code Error} from {@code execute} (see
 * "Schedulers" in {@link ActorSystem}), and no message is lost unseen: the sender gets
 * the error, or (on a resubmission, no sender on the stack) the failure handler does; every message
 * the mailbox held is a dead letter, an ask failing with {@link ActorStoppedException} whose cause
 * is the error; later sends are dead letters, and {@code stop()} completes. Nothing is left for a
 * later activation that nobody would make.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class StackOverflowInExecuteTellsEveryMessageTest {

    /**
     * Queues like {@link TestSchedulers.Manual}; the first time {@link #armed} holds an action, runs
     * it (a send racing the failing one, which finds the actor held) and throws a
     * {@link StackOverflowError}.
     */
    static final class OverflowOnce implements Scheduler {
        final TestSchedulers.Manual manual = new TestSchedulers.Manual();
        final AtomicReference<Runnable> armed = new AtomicReference<>();
        final List<StackOverflowError> thrown = new CopyOnWriteArrayList<>();

        @Override
        public void execute(Runnable task) {
            execute(task, Hints.DEFAULT);
        }

        @Override
        public void execute(Runnable task, Hints hints) {
            Runnable before = armed.getAndSet(null);
            if (before != null) {
                before.run();
                StackOverflowError e = new StackOverflowError("at the stack's limit in execute");
                thrown.add(e);
                throw e;
            }
            manual.execute(task, hints);
        }
    }

    @Test
    void onASendTheSenderGetsTheErrorAndTheMessagesItsActivationHeldAreDeadLetters() throws Exception {
        OverflowOnce scheduler = new OverflowOnce();
        List<Throwable> handled = new CopyOnWriteArrayList<>();
        try (ActorSystem system = ActorSystem.builder().scheduler(scheduler)
                .failureHandler((a, t) -> handled.add(t)).build()) {
            List<Integer> seen = new ArrayList<>();
            ActorRef<List<Integer>> r = system.spawn(() -> seen, ActorConfig.builder().name("deep").build());
            List<CompletableFuture<Integer>> racing = new ArrayList<>();
            scheduler.armed.set(() -> racing.add(r.ask(x -> {
                x.add(2);
                return x.size();
            })));

            assertThatThrownBy(() -> r.tell(x -> x.add(1))).as("the sender is told")
                    .isSameAs(scheduler.thrown.get(0));
            assertThat(r.isStopped()).as("ended as rejected").isTrue();
            assertThat(racing).hasSize(1);
            assertThat(racing.get(0)).as("the ask that raced in, behind the held activation").isDone();
            assertThatThrownBy(() -> racing.get(0).get()).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(ActorStoppedException.class).cause().isSameAs(scheduler.thrown.get(0));
            assertThat(system.stats().deadLetters()).as("the tell and the ask").isEqualTo(2);

            r.tell(x -> x.add(3));            // the scheduler works again: the actor stays ended
            CompletableFuture<Void> stopped = r.stop();
            scheduler.manual.runAll();
            assertThat(stopped).isCompletedWithValue(null);
            assertThat(system.stats().deadLetters()).isEqualTo(3);
            assertThat(seen).as("nothing delivered").isEmpty();
            assertThat(handled).as("the sender was told; the handler is not").isEmpty();
            assertThat(system.stats().liveActors()).isZero();
        }
    }

    @Test
    void anAskThatActivatesTheActorThrowsTheError() {
        OverflowOnce scheduler = new OverflowOnce();
        try (ActorSystem system = ActorSystem.builder().scheduler(scheduler).failureHandler((a, t) -> { }).build()) {
            ActorRef<List<Integer>> r = system.spawn(ArrayList::new, ActorConfig.builder().name("deep").build());
            scheduler.armed.set(() -> { });
            assertThatThrownBy(() -> r.ask(List::size)).isSameAs(scheduler.thrown.get(0));
            assertThat(r.isStopped()).isTrue();
            assertThat(system.stats().deadLetters()).as("the ask").isEqualTo(1);
        }
    }

    @Test
    void onAResubmissionTheFailureHandlerGetsTheErrorAndTheRestAreDeadLetters() throws Exception {
        OverflowOnce scheduler = new OverflowOnce();
        List<Throwable> handled = new CopyOnWriteArrayList<>();
        try (ActorSystem system = ActorSystem.builder().scheduler(scheduler)
                .failureHandler((a, t) -> handled.add(t)).build()) {
            List<Integer> seen = new ArrayList<>();
            ActorRef<List<Integer>> r = system.spawn(() -> seen,
                    ActorConfig.builder().name("deep").maxMessagesPerActivation(1).build());
            r.tell(x -> x.add(1));
            r.tell(x -> x.add(2));
            CompletableFuture<Integer> ask = r.ask(List::size);
            scheduler.armed.set(() -> { });   // the resubmission after the first message overflows
            scheduler.manual.runAll();

            assertThat(seen).containsExactly(1);
            assertThat(r.isStopped()).as("ended as rejected").isTrue();
            assertThat(handled).as("no sender on the stack: the handler is told")
                    .containsExactly(scheduler.thrown.get(0));
            assertThatThrownBy(ask::get).isInstanceOf(ExecutionException.class).cause()
                    .isInstanceOf(ActorStoppedException.class).cause().isSameAs(scheduler.thrown.get(0));
            assertThat(system.stats().deadLetters()).as("the second tell and the ask").isEqualTo(2);
            CompletableFuture<Void> stopped = r.stop();
            scheduler.manual.runAll();
            assertThat(stopped).isCompletedWithValue(null);
        }
    }
}
