/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static dev.spindle.actor.TestSchedulers.awaitCondition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.pool.WorkStealingPool;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ActorBasicsTest {

    static final class Counter {
        long count;
        final List<String> log = new ArrayList<>();

        void add(long n) {
            count += n;
        }

        long get() {
            return count;
        }
    }

    @Test
    void tellThenAskSeesTheTellsAndTheDefaultSystemOwnsItsScheduler() {
        ActorSystem system = ActorSystem.create();
        assertThat(system.ownsScheduler()).isTrue();
        ActorRef<Counter> counter = system.spawn(Counter::new);
        for (int i = 1; i <= 100; i++) {
            long n = i;
            counter.tell(c -> c.add(n));
        }
        assertThat(counter.ask(Counter::get).join()).isEqualTo(5050L);
        assertThat(counter.name()).startsWith("actor-");
        assertThat(system.stats()).isEqualTo(new ActorSystemStats(101, 0, 1));
        system.close();
        assertThat(((ExecutorService) system.scheduler()).isTerminated()).isTrue();
        assertThat(counter.isStopped()).isTrue();
        assertThat(system.stats().liveActors()).isZero();
        assertThatThrownBy(() -> system.spawn(Counter::new))
                .isInstanceOf(RejectedExecutionException.class).hasMessageContaining("closed");
    }

    @Test
    void namesComeFromTheConfig() {
        try (ActorSystem system = ActorSystem.builder().name("sys").build()) {
            ActorRef<Counter> c = system.spawn(Counter::new, ActorConfig.builder().name("counter").build());
            assertThat(c.name()).isEqualTo("counter");
            assertThat(c.toString()).contains("counter", "running");
            assertThat(system.name()).isEqualTo("sys");
        }
    }

    @Test
    void nullArgumentsThrowWithAMessage() {
        try (ActorSystem system = ActorSystem.create()) {
            ActorRef<Counter> c = system.spawn(Counter::new);
            assertThatThrownBy(() -> c.tell(null)).isInstanceOf(NullPointerException.class)
                    .hasMessageContaining("message");
            assertThatThrownBy(() -> c.ask(null)).isInstanceOf(NullPointerException.class)
                    .hasMessageContaining("function");
            // named by the actor's future itself, not only by the JDK's helpful message
            assertThatThrownBy(() -> c.ask(Counter::get).get(1, null)).isInstanceOf(NullPointerException.class)
                    .hasMessage("unit");
            assertThatThrownBy(() -> system.spawn((java.util.function.Supplier<Counter>) null))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("factory");
            assertThatThrownBy(() -> system.spawn(Counter::new, null))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("config");
            assertThatThrownBy(() -> ActorSystem.create(null))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("scheduler");
        }
    }

    @Test
    void aThrowingFactoryFailsSpawnAndItsSelfMessagesAreDeadLetters() {
        try (ActorSystem system = ActorSystem.create()) {
            AtomicReference<CompletableFuture<Long>> selfAsk = new AtomicReference<>();
            assertThatThrownBy(() -> system.<Counter>spawnWithSelf(self -> {
                self.tell(c -> c.add(1));
                selfAsk.set(self.ask(Counter::get));
                throw new IllegalStateException("no database");
            }, ActorConfig.builder().name("broken").build()))
                    .isInstanceOf(ActorCreationException.class)
                    .hasMessageContaining("broken")
                    .hasRootCauseMessage("no database")
                    .satisfies(e -> assertThat(((ActorCreationException) e).actorName()).isEqualTo("broken"));
            assertThatThrownBy(() -> selfAsk.get().join())
                    .hasCauseInstanceOf(ActorStoppedException.class)
                    .hasRootCauseMessage("no database");
            assertThat(system.stats()).isEqualTo(new ActorSystemStats(0, 2, 0));
        }
    }

    @Test
    void aFactoryReturningNullFailsSpawn() {
        try (ActorSystem system = ActorSystem.create()) {
            assertThatThrownBy(() -> system.spawn(() -> null, ActorConfig.builder().name("ghost").build()))
                    .isInstanceOf(ActorCreationException.class)
                    .hasMessageContaining("ghost").hasMessageContaining("null");
            assertThat(system.stats().liveActors()).isZero();
        }
    }

    @Test
    void theFactoryRunsOnceOnTheCallingThreadAndSelfMessagesRunAfterIt() {
        try (ActorSystem system = ActorSystem.create()) {
            List<Thread> factoryThreads = new CopyOnWriteArrayList<>();
            ActorRef<Counter> c = system.spawnWithSelf(self -> {
                factoryThreads.add(Thread.currentThread());
                self.tell(x -> x.log.add("first message"));
                Counter counter = new Counter();
                counter.log.add("constructed");
                return counter;
            });
            assertThat(factoryThreads).containsExactly(Thread.currentThread());
            assertThat(c.ask(x -> List.copyOf(x.log)).join()).containsExactly("constructed", "first message");
        }
    }

    /** An actor with a no-argument constructor and one that takes its own reference. */
    static final class TwoConstructors {
        final ActorRef<TwoConstructors> self;

        TwoConstructors() {
            this(null);
        }

        TwoConstructors(ActorRef<TwoConstructors> self) {
            this.self = self;
        }
    }

    /**
     * Compile-time regression: while the self-aware factory was an overload of {@code spawn},
     * {@code spawn(TwoConstructors::new)} fitted both and this class did not compile.
     */
    @Test
    void aConstructorReferenceToAClassWithTwoConstructorsPicksTheFactoryByName() {
        try (ActorSystem system = ActorSystem.create()) {
            ActorRef<TwoConstructors> plain = system.spawn(TwoConstructors::new);
            ActorRef<TwoConstructors> aware = system.spawnWithSelf(TwoConstructors::new);
            assertThat(plain.ask(a -> a.self).join()).isNull();
            assertThat(aware.ask(a -> a.self).join()).isSameAs(aware);
        }
    }

    @Test
    void anAskFailureFailsTheFutureAndTheActorGoesOn() {
        List<Throwable> handled = new CopyOnWriteArrayList<>();
        try (ActorSystem system = ActorSystem.builder().failureHandler((a, t) -> handled.add(t)).build()) {
            ActorRef<Counter> c = system.spawn(Counter::new);
            CompletableFuture<Long> bad = c.ask(x -> {
                throw new ArithmeticException("bad ask");
            });
            assertThatThrownBy(bad::join).isInstanceOf(CompletionException.class)
                    .hasCauseInstanceOf(ArithmeticException.class);
            c.tell(x -> x.add(3));
            assertThat(c.ask(Counter::get).join()).isEqualTo(3L);
            assertThat(handled).isEmpty();
        }
    }

    @Test
    void aTellFailureGoesToTheHandlerWithTheActorAndTheActorGoesOn() throws Exception {
        List<String> handled = new CopyOnWriteArrayList<>();
        try (ActorSystem system = ActorSystem.builder()
                .failureHandler((a, t) -> handled.add(a.name() + ": " + t.getMessage())).build()) {
            ActorRef<Counter> c = system.spawn(Counter::new, ActorConfig.builder().name("fragile").build());
            c.tell(x -> {
                throw new IllegalStateException("bad tell");
            });
            c.tell(x -> {
                throw new AssertionError("an error too");
            });
            c.tell(x -> x.add(1));
            assertThat(c.ask(Counter::get).join()).isEqualTo(1L);
            assertThat(handled).containsExactly("fragile: bad tell", "fragile: an error too");
            assertThat(system.stats().messagesProcessed()).isEqualTo(4);
        }
    }

    @Test
    void aThrowingFailureHandlerDoesNotTakeTheActorDown() {
        try (ActorSystem system = ActorSystem.builder().failureHandler((a, t) -> {
            throw new IllegalStateException("handler fails too");
        }).build()) {
            ActorRef<Counter> c = system.spawn(Counter::new);
            c.tell(x -> {
                throw new IllegalStateException("boom");
            });
            c.tell(x -> x.add(2));
            assertThat(c.ask(Counter::get).join()).isEqualTo(2L);
        }
    }

    @Test
    void stopProcessesEarlierMessagesAndMakesLaterOnesDeadLetters() throws Exception {
        try (ActorSystem system = ActorSystem.create()) {
            ActorRef<Counter> c = system.spawn(Counter::new);
            c.tell(x -> x.add(1));
            CompletableFuture<Long> before = c.ask(Counter::get);
            CompletableFuture<Void> stopped = c.stop();
            CompletableFuture<Void> again = c.stop();
            assertThat(again).isNotSameAs(stopped);          // each caller's own (see ActorRef#stop)
            stopped.get(10, TimeUnit.SECONDS);
            again.get(10, TimeUnit.SECONDS);
            assertThat(before.join()).isEqualTo(1L);
            assertThat(c.isStopped()).isTrue();
            c.tell(x -> x.add(1));
            CompletableFuture<Long> after = c.ask(Counter::get);
            assertThatThrownBy(after::join).hasCauseInstanceOf(ActorStoppedException.class)
                    .hasMessageContaining(c.name());
            assertThat(system.stats()).isEqualTo(new ActorSystemStats(2, 2, 0));
            assertThat(c.toString()).contains("stopped");
        }
    }

    @Test
    void closeWithACallerOwnedSchedulerStopsActorsButLeavesTheSchedulerRunning() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).build()) {
            ActorSystem system = ActorSystem.create(pool);
            assertThat(system.ownsScheduler()).isFalse();
            ActorRef<Counter> c = system.spawn(Counter::new);
            c.tell(x -> x.add(5));
            CompletableFuture<Long> pending = c.ask(Counter::get);
            system.close();
            system.close();                                    // idempotent
            c.stop().get(10, TimeUnit.SECONDS);
            assertThat(pending.join()).isEqualTo(5L);
            assertThat(pool.isShutdown()).isFalse();
            assertThat(pool.submit(() -> 42).join()).isEqualTo(42);
            assertThatThrownBy(() -> c.ask(Counter::get).join()).hasCauseInstanceOf(ActorStoppedException.class);
            awaitCondition("actor ended", () -> system.stats().liveActors() == 0);
        }
    }
}
