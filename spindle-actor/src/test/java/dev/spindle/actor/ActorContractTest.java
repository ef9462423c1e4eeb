/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Scheduler;
import dev.spindle.Spindle;
import dev.spindle.pool.SchedulerUnion;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The actors' "no message is lost silently" contract, checked on every scheduler kind with one
 * and two workers by a review (session 32). None of these failed on the code it was written
 * against: they pin the behaviour down (messages sent before a close are processed, order holds
 * across activation budgets and failing messages, a self-telling actor does not starve others, an
 * owned scheduler leaves no thread behind, a pool's graceful shutdown runs the activations its
 * workers submit) so that a later change to the mailbox or the pools cannot break it unnoticed.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ActorContractTest {

    static final class Counter {
        long n;
        final List<Integer> seen = new ArrayList<>();
    }

    private static int memberFor(ExecutorService pool, int i) {
        return pool instanceof SchedulerUnion ? i % 2 : 0;
    }

    /**
     * Closing the system and then the caller's pool processes every message sent before the
     * close, though each actor has a backlog two hundred activations long (budget 1): the
     * resubmissions come from the pool's own workers, which a graceful shutdown accepts.
     */
    @ParameterizedTest(name = "{0} with {1} worker(s)")
    @MethodSource("dev.spindle.actor.TestSchedulers#pools")
    void closingTheSystemThenThePoolProcessesEveryMessageSentBefore(String kind, int workers,
            IntFunction<ExecutorService> pools) throws Exception {
        ExecutorService pool = pools.apply(workers);
        ActorSystem system = ActorSystem.create((Scheduler) pool);
        List<ActorRef<Counter>> refs = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            refs.add(system.spawn(Counter::new, ActorConfig.builder().maxMessagesPerActivation(1)
                    .schedulerIndex(memberFor(pool, i)).build()));
        }
        for (int m = 0; m < 200; m++) {
            for (ActorRef<Counter> r : refs) {
                r.tell(c -> c.n++);
            }
        }
        List<CompletableFuture<Long>> asks = new ArrayList<>();
        for (ActorRef<Counter> r : refs) {
            asks.add(r.ask(c -> c.n));
        }
        system.close();
        ((AutoCloseable) pool).close();
        for (CompletableFuture<Long> a : asks) {
            assertThat(a.get(30, TimeUnit.SECONDS)).isEqualTo(200L);
        }
        assertThat(system.stats().liveActors()).isZero();
        assertThat(system.stats().deadLetters()).isZero();
    }

    /**
     * Messages one actor relays to another arrive in the order sent, across both actors'
     * activation budgets (3 and 2), with failing messages interleaved (the actor goes on).
     */
    @ParameterizedTest(name = "{0} with {1} worker(s)")
    @MethodSource("dev.spindle.actor.TestSchedulers#pools")
    void relayedMessagesKeepTheirOrderAcrossBudgetsAndFailures(String kind, int workers,
            IntFunction<ExecutorService> pools) throws Exception {
        ExecutorService pool = pools.apply(workers);
        List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (ActorSystem system = ActorSystem.builder().scheduler((Scheduler) pool)
                .failureHandler((actor, failure) -> failures.add(failure)).build()) {
            ActorRef<Counter> b = system.spawn(Counter::new, ActorConfig.builder().maxMessagesPerActivation(2)
                    .schedulerIndex(memberFor(pool, 1)).build());
            ActorRef<Counter> a = system.spawn(Counter::new, ActorConfig.builder().maxMessagesPerActivation(3).build());
            for (int i = 0; i < 2000; i++) {
                int k = i;
                a.tell(c -> b.tell(d -> d.seen.add(k)));
                if (i % 7 == 0) {
                    b.tell(d -> {
                        throw new IllegalStateException("failing message " + k);
                    });
                }
            }
            a.ask(c -> 0).get(30, TimeUnit.SECONDS);
            List<Integer> seen = b.ask(d -> new ArrayList<>(d.seen)).get(30, TimeUnit.SECONDS);
            assertThat(seen).hasSize(2000).isSorted();
            assertThat(failures).hasSize(286);
        } finally {
            ((AutoCloseable) pool).close();
        }
    }

    static final class Ticker {
        final ActorRef<Ticker> self;
        boolean run = true;

        Ticker(ActorRef<Ticker> self) {
            this.self = self;
        }

        void tick() {
            if (run) {
                self.tell(Ticker::tick);
            }
        }
    }

    /**
     * Actors that tell themselves forever, one per worker, do not keep another actor from
     * running, whether that actor is activated from outside the pool or from a worker.
     */
    @ParameterizedTest(name = "{0} with {1} worker(s)")
    @MethodSource("dev.spindle.actor.TestSchedulers#pools")
    void selfTellingActorsDoNotStarveOthers(String kind, int workers, IntFunction<ExecutorService> pools)
            throws Exception {
        ExecutorService pool = pools.apply(workers);
        try (ActorSystem system = ActorSystem.create((Scheduler) pool)) {
            List<ActorRef<Ticker>> tickers = new ArrayList<>();
            for (int i = 0; i < workers; i++) {
                ActorRef<Ticker> t = system.spawnWithSelf(Ticker::new,
                        ActorConfig.builder().maxMessagesPerActivation(1).build());
                t.tell(Ticker::tick);
                tickers.add(t);
            }
            ActorRef<Counter> fromWorker = system.spawn(Counter::new);
            ActorRef<Counter> fromOutside = system.spawn(Counter::new);
            CompletableFuture<Long> viaWorker = new CompletableFuture<>();
            tickers.get(0).tell(t -> fromWorker.tell(x -> viaWorker.complete(++x.n)));
            CompletableFuture<Long> viaOutside = fromOutside.ask(x -> ++x.n);
            try {
                assertThat(viaOutside.get(30, TimeUnit.SECONDS)).isEqualTo(1L);
                assertThat(viaWorker.get(30, TimeUnit.SECONDS)).isEqualTo(1L);
            } finally {
                for (ActorRef<Ticker> t : tickers) {
                    t.tell(x -> x.run = false);
                }
            }
        } finally {
            ((AutoCloseable) pool).close();
        }
    }

    /** close() of a system that owns its scheduler leaves none of its threads, spares included. */
    @Test
    void closingASystemThatOwnsItsSchedulerLeavesNoThread() throws Exception {
        ActorSystem system = ActorSystem.builder().name("contract-threads").build();
        List<CompletableFuture<Long>> asks = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            ActorRef<Counter> r = system.spawn(Counter::new);
            asks.add(r.ask(c -> {
                try {
                    return Spindle.blocking(() -> {     // makes the pool start spare threads
                        Thread.sleep(50);
                        return ++c.n;
                    });
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        system.close();
        for (CompletableFuture<Long> a : asks) {
            assertThat(a.get(30, TimeUnit.SECONDS)).isEqualTo(1L);
        }
        List<String> left = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().contains("contract-threads")) {
                t.join(TimeUnit.SECONDS.toMillis(30));
                if (t.isAlive()) {
                    left.add(t.getName() + " " + t.getState());
                }
            }
        }
        assertThat(left).isEmpty();
    }

    /**
     * A caller shutting its pool down under a running system (without closing the system): the
     * activations the pool's workers submit meanwhile (an actor telling idle actors) run, or,
     * where the pool refuses them (a union routing to another member), their messages are
     * counted as dead letters; none is dropped uncounted.
     */
    @ParameterizedTest(name = "{0} with {1} worker(s)")
    @MethodSource("dev.spindle.actor.TestSchedulers#pools")
    void aPoolShutDownUnderTheSystemRunsOrCountsEveryRelayedMessage(String kind, int workers,
            IntFunction<ExecutorService> pools) throws Exception {
        for (int round = 0; round < 10; round++) {
            ExecutorService pool = pools.apply(workers);
            ActorSystem system = ActorSystem.create((Scheduler) pool);
            Counter[] objects = new Counter[8];
            List<ActorRef<Counter>> refs = new ArrayList<>();
            for (int i = 0; i < objects.length; i++) {
                Counter c = new Counter();
                objects[i] = c;
                refs.add(system.spawn(() -> c, ActorConfig.builder().maxMessagesPerActivation(1)
                        .schedulerIndex(memberFor(pool, i)).build()));
            }
            for (int m = 0; m < 300; m++) {
                int k = m;
                refs.get(0).tell(c -> {
                    c.n++;
                    refs.get(1 + k % 7).tell(d -> d.n++);
                });
            }
            pool.shutdown();
            assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).as("terminated").isTrue();
            long relayed = 0;
            for (int i = 1; i < objects.length; i++) {
                relayed += objects[i].n;
            }
            assertThat(objects[0].n).isEqualTo(300);
            assertThat(relayed + system.stats().deadLetters()).as(kind + " round " + round).isEqualTo(300);
            system.close();
        }
    }
}
