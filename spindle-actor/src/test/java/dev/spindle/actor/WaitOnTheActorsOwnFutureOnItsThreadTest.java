/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.pool.WorkSharingPool;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An actor that waits, on its own thread, for a future only it can complete: its own ask (or a
 * stage of one) or its own stop. The ask runs, and the stop is processed, only after the message
 * that waits, so the wait never ended: the worker hung for good, and with it every message of the
 * actor and every other task queued on that worker. Such a wait now throws
 * {@link IllegalStateException} naming the actor. Waits elsewhere are plain waits: on the
 * actor's future done already, on another actor's, and on the same thread once the actor's
 * message is over.
 *
 * <p>The waits the test makes are bounded: on the code before the fix it fails, and then
 * completes the awaited future itself so that the hung worker goes free.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WaitOnTheActorsOwnFutureOnItsThreadTest {

    interface Wait {
        Object on(CompletableFuture<?> f) throws Exception;
    }

    private WorkSharingPool pool;
    private ActorSystem system;
    /** The future a message waits for, so that the test can end a wait that hangs. */
    private final AtomicReference<CompletableFuture<?>> awaited = new AtomicReference<>();

    @BeforeEach
    void start() {
        pool = WorkSharingPool.builder().workers(2).name("own-wait").build();
        system = ActorSystem.create(pool);
    }

    @AfterEach
    void stop() {
        CompletableFuture<?> f = awaited.get();
        if (f != null) {
            f.complete(null);                 // frees a worker that hangs (the code before the fix)
        }
        system.close();
        pool.close();
    }

    /** What a message of the actor "self" that waits with {@code wait} on {@code future} gets. */
    private Object waitInAMessage(Function<ActorRef<Object>, CompletableFuture<?>> future, Wait wait)
            throws Exception {
        ActorRef<Object> self = system.spawn(Object::new, ActorConfig.builder().name("self").build());
        CompletableFuture<Object> outcome = self.ask(a -> {
            CompletableFuture<?> f = future.apply(self);
            awaited.set(f);
            try {
                return "the wait returned " + wait.on(f);
            } catch (IllegalStateException e) {
                return e;
            } catch (Exception e) {
                return "the wait threw " + e;
            }
        });
        try {
            return outcome.get(20, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            return "the message still waits after 20 s: its worker hangs";
        }
    }

    private static void assertRefused(Object outcome) {
        assertThat(outcome).isInstanceOf(IllegalStateException.class);
        assertThat(((IllegalStateException) outcome).getMessage()).contains("'self'");
    }

    @Test
    void joinOfItsOwnAskThrows() throws Exception {
        assertRefused(waitInAMessage(self -> self.ask(a -> 1), CompletableFuture::join));
    }

    @Test
    void getOfItsOwnAskThrows() throws Exception {
        assertRefused(waitInAMessage(self -> self.ask(a -> 1), CompletableFuture::get));
    }

    @Test
    void timedGetOfItsOwnAskThrows() throws Exception {
        assertRefused(waitInAMessage(self -> self.ask(a -> 1), f -> f.get(30, TimeUnit.SECONDS)));
    }

    @Test
    void joinOfAStageOfItsOwnAskThrows() throws Exception {
        assertRefused(waitInAMessage(self -> self.ask(a -> 1).thenApply(n -> n + 1).exceptionally(t -> 0),
                CompletableFuture::join));
    }

    @Test
    void joinOfItsOwnStopThrows() throws Exception {
        assertRefused(waitInAMessage(ActorRef::stop, CompletableFuture::join));
    }

    /**
     * A stage of an ask queued behind the stop runs on the thread that rejects it, before the
     * actor's termination completes: a wait there on an earlier {@code stop()}'s future waited for
     * that very thread.
     */
    @Test
    void joinOfItsStopInAStageOfAnAskTheStopRejectsThrows() throws Exception {
        ActorRef<Object> self = system.spawn(Object::new, ActorConfig.builder().name("self").build());
        CompletableFuture<Object> outcome = new CompletableFuture<>();
        CountDownLatch release = TestSchedulers.holdInATell(self);   // the stop and the ask queue behind it
        CompletableFuture<Void> stopped = self.stop();
        awaited.set(stopped);
        self.ask(a -> 1).whenComplete((v, t) -> {
            try {
                outcome.complete("the wait returned " + stopped.join());
            } catch (IllegalStateException e) {
                outcome.complete(e);
            }
        });
        release.countDown();
        Object result;
        try {
            result = outcome.get(20, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            result = "the stage still waits after 20 s: its worker hangs";
        }
        assertRefused(result);
    }

    @Test
    void aWaitInTheFactoryOnItsOwnAskThrows() throws Exception {
        CompletableFuture<Object> outcome = new CompletableFuture<>();
        Thread spawner = new Thread(() -> {
            try {
                system.spawnWithSelf(self -> {
                    CompletableFuture<Integer> f = self.ask(a -> 1);
                    awaited.set(f);
                    try {
                        outcome.complete("the wait returned " + f.join());
                    } catch (IllegalStateException e) {
                        outcome.complete(e);
                    }
                    return new Object();
                }, ActorConfig.builder().name("self").build());
            } catch (Throwable t) {
                outcome.complete(t);
            }
        }, "spawner");
        spawner.setDaemon(true);
        spawner.start();
        Object result;
        try {
            result = outcome.get(20, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            result = "the factory still waits after 20 s: spawn hangs";
        }
        assertRefused(result);
    }

    @Test
    void waitsThatEndStillWait() throws Exception {
        ActorRef<Object> other = system.spawn(Object::new, ActorConfig.builder().name("other").build());
        assertThat(waitInAMessage(self -> other.ask(a -> "other's"), CompletableFuture::join))
                .as("a wait on another actor's ask").isEqualTo("the wait returned other's");
        awaited.set(null);
        assertThat(waitInAMessage(self -> CompletableFuture.completedFuture(1), CompletableFuture::join))
                .isEqualTo("the wait returned 1");

        ActorRef<Object> self = system.spawn(Object::new, ActorConfig.builder().name("done").build());
        CompletableFuture<Integer> first = self.ask(a -> 7);
        first.get(20, TimeUnit.SECONDS);
        assertThat(self.ask(a -> first.join() + first.thenApply(n -> n).join()).get(20, TimeUnit.SECONDS))
                .as("waits in a message on its own ask done already").isEqualTo(14);
    }

    /**
     * The thread that ran an actor's message, once that message is over, waits for the actor's
     * futures as any thread does: a manual scheduler runs the actor on the test's thread.
     */
    @Test
    void theThreadThatRanTheActorWaitsOnceTheActivationIsOver() throws Exception {
        TestSchedulers.Manual manual = new TestSchedulers.Manual();
        try (ActorSystem onManual = ActorSystem.create(manual)) {
            ActorRef<Object> ref = onManual.spawnWithSelf(self -> new Object());
            CompletableFuture<Integer> first = ref.ask(a -> 1);
            manual.runAll();                  // the actor ran on this thread
            assertThat(first).isCompletedWithValue(1);

            CompletableFuture<Integer> second = ref.ask(a -> 2);
            Thread runner = new Thread(() -> {
                while (!second.isDone()) {
                    manual.runAll();
                    Thread.onSpinWait();
                }
            }, "manual-runner");
            runner.setDaemon(true);
            runner.start();
            assertThat(second.thenApply(n -> n * 10).join()).isEqualTo(20);
            assertThat(second.get()).isEqualTo(2);
            CompletableFuture<Void> stopped = ref.stop();
            manual.runAll();
            stopped.get(20, TimeUnit.SECONDS);
            runner.join();
        }
    }

    @Test
    void aWaitOnAFailedAskStillReportsItsFailure() throws Exception {
        ActorRef<Object> self = system.spawn(Object::new, ActorConfig.builder().name("self").build());
        self.stop().get(20, TimeUnit.SECONDS);
        assertThatThrownBy(() -> self.ask(a -> 1).get()).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(ActorStoppedException.class);
    }
}
