/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.Hints;
import dev.spindle.Scheduler;
import dev.spindle.pool.PriorityPool;
import dev.spindle.pool.SchedulerUnion;
import dev.spindle.pool.WorkSharingPool;
import dev.spindle.pool.WorkStealingPool;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Activation, hints, fairness, bounded mailboxes and schedulers that refuse work. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ActorSchedulingTest {

    static final class Recorder {
        final List<Integer> seen = new ArrayList<>();
    }

    @Test
    void oneActivationPerIdleToBusyTransition() {
        TestSchedulers.Manual scheduler = new TestSchedulers.Manual();
        try (ActorSystem system = ActorSystem.create(scheduler)) {
            ActorRef<Recorder> r = system.spawn(Recorder::new);
            assertThat(scheduler.queued()).isZero();            // spawning activates nothing
            for (int i = 0; i < 10; i++) {
                int n = i;
                r.tell(x -> x.seen.add(n));
            }
            assertThat(scheduler.queued()).isEqualTo(1);         // only the first tell activated
            assertThat(scheduler.runAll()).isEqualTo(1);
            r.tell(x -> x.seen.add(10));
            assertThat(scheduler.queued()).isEqualTo(1);         // idle again, so activated again
            scheduler.runAll();
            CompletableFuture<List<Integer>> seen = r.ask(x -> List.copyOf(x.seen));
            scheduler.runAll();
            assertThat(seen.join()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
        }
    }

    @Test
    void anActivationProcessesAtMostMaxMessagesThenResubmitsItself() {
        TestSchedulers.Manual scheduler = new TestSchedulers.Manual();
        try (ActorSystem system = ActorSystem.create(scheduler)) {
            ActorRef<Recorder> r = system.spawn(Recorder::new,
                    ActorConfig.builder().maxMessagesPerActivation(3).build());
            for (int i = 0; i < 10; i++) {
                int n = i;
                r.tell(x -> x.seen.add(n));
            }
            List<Long> processedAfterEachActivation = new ArrayList<>();
            while (scheduler.runOne()) {
                processedAfterEachActivation.add(system.stats().messagesProcessed());
            }
            assertThat(processedAfterEachActivation).containsExactly(3L, 6L, 9L, 10L);
        }
    }

    @Test
    void floodedActorsInterleaveWithOneMessagePerActivationOnAOneWorkerScheduler() {
        TestSchedulers.Manual scheduler = new TestSchedulers.Manual();   // FIFO, one worker: the test thread
        List<String> order = new ArrayList<>();
        try (ActorSystem system = ActorSystem.create(scheduler)) {
            ActorConfig one = ActorConfig.builder().maxMessagesPerActivation(1).build();
            ActorRef<Recorder> a = system.spawn(Recorder::new, one);
            ActorRef<Recorder> b = system.spawn(Recorder::new, one);
            for (int i = 0; i < 50; i++) {
                a.tell(x -> order.add("a"));
            }
            for (int i = 0; i < 50; i++) {
                b.tell(x -> order.add("b"));
            }
            scheduler.runAll();
        }
        assertThat(order).hasSize(100);
        for (int i = 0; i < 100; i++) {
            assertThat(order.get(i)).as("message %d", i).isEqualTo(i % 2 == 0 ? "a" : "b");
        }
    }

    /**
     * On the real pools, whose workers run their own submissions first: an actor that used up
     * its activation must not take the thread straight back.
     */
    @ParameterizedTest
    @ValueSource(strings = {"work-stealing", "work-sharing"})
    void floodedActorsTakeTurnsOnAOneWorkerPool(String kind) throws Exception {
        ExecutorService pool = kind.equals("work-stealing")
                ? WorkStealingPool.builder().workers(1).maxSpareWorkers(0).build() // one thread, spare-free
                : WorkSharingPool.builder().workers(1).build();
        StringBuilder order = new StringBuilder();
        try (ActorSystem system = ActorSystem.create((Scheduler) pool)) {
            CountDownLatch release = new CountDownLatch(1);
            pool.execute(() -> {
                try {
                    release.await();                // hold the only worker while both flood
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            ActorConfig one = ActorConfig.builder().maxMessagesPerActivation(1).build();
            ActorRef<Recorder> a = system.spawn(Recorder::new, one);
            ActorRef<Recorder> b = system.spawn(Recorder::new, one);
            for (int i = 0; i < 50; i++) {
                a.tell(x -> order.append('a'));
                b.tell(x -> order.append('b'));
            }
            release.countDown();
            a.stop().get(20, TimeUnit.SECONDS);
            b.stop().get(20, TimeUnit.SECONDS);
        } finally {
            pool.shutdown();
            assertThat(pool.awaitTermination(20, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(order).hasSize(100);
        int longestRun = 1;
        for (int i = 1, run = 1; i < order.length(); i++) {
            run = order.charAt(i) == order.charAt(i - 1) ? run + 1 : 1;
            longestRun = Math.max(longestRun, run);
        }
        assertThat(longestRun).as("longest run of one actor in %s", order).isLessThanOrEqualTo(2);
    }

    /** The actor's priority reaches a one-worker PriorityPool: urgent actors run first. */
    @Test
    void actorPrioritiesOrderActivationsOnAOneWorkerPriorityPool() throws Exception {
        try (PriorityPool pool = PriorityPool.builder().workers(1).build();
                ActorSystem system = ActorSystem.create(pool)) {
            List<String> order = java.util.Collections.synchronizedList(new ArrayList<>());
            ActorRef<Recorder> low = system.spawn(Recorder::new, ActorConfig.builder().name("low").priority(5).build());
            ActorRef<Recorder> mid = system.spawn(Recorder::new, ActorConfig.builder().name("mid").priority(0).build());
            ActorRef<Recorder> high = system.spawn(Recorder::new, ActorConfig.builder().name("high").priority(-5).build());
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch holding = new CountDownLatch(1);
            pool.execute(() -> {
                holding.countDown();
                try {
                    release.await();               // hold the only worker while activations queue
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, dev.spindle.Hints.ofPriority(-100));
            // Tell only once the worker holds: an activation still running from the spawns
            // would otherwise take its new message at once, out of priority order.
            assertThat(holding.await(20, TimeUnit.SECONDS)).isTrue();
            low.tell(x -> order.add("low"));
            mid.tell(x -> order.add("mid"));
            high.tell(x -> order.add("high"));
            release.countDown();
            low.ask(x -> 0).get(20, TimeUnit.SECONDS);
            mid.ask(x -> 0).get(20, TimeUnit.SECONDS);
            high.ask(x -> 0).get(20, TimeUnit.SECONDS);
            assertThat(order).containsExactly("high", "mid", "low");
        }
    }

    /** The actor's scheduler index picks the union member its activations run on. */
    @Test
    void actorSchedulerIndexRoutesThroughAUnion() throws Exception {
        try (SchedulerUnion union = SchedulerUnion.owning(
                WorkSharingPool.builder().workers(1).name("control").build(),
                WorkStealingPool.builder().workers(2).name("bulk").build());
                ActorSystem system = ActorSystem.create(union)) {
            ActorRef<Recorder> control = system.spawn(Recorder::new, ActorConfig.builder().schedulerIndex(0).build());
            ActorRef<Recorder> bulk = system.spawn(Recorder::new, ActorConfig.builder().schedulerIndex(1).build());
            for (int i = 0; i < 20; i++) {
                assertThat(control.ask(x -> Thread.currentThread().getName()).get(20, TimeUnit.SECONDS))
                        .startsWith("control-");
                assertThat(bulk.ask(x -> Thread.currentThread().getName()).get(20, TimeUnit.SECONDS))
                        .startsWith("bulk-");
            }
            // refused at the spawn, not by the union at the first activation (which ended the actor)
            assertThatThrownBy(() -> system.spawn(Recorder::new, ActorConfig.builder().schedulerIndex(2).build()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("schedulerIndex 2 is out of range: the system's scheduler union has 2 members");
        }
    }

    @Test
    void largerBudgetsInterleaveInBatches() {
        TestSchedulers.Manual scheduler = new TestSchedulers.Manual();
        StringBuilder order = new StringBuilder();
        try (ActorSystem system = ActorSystem.create(scheduler)) {
            ActorConfig three = ActorConfig.builder().maxMessagesPerActivation(3).build();
            ActorRef<Recorder> a = system.spawn(Recorder::new, three);
            ActorRef<Recorder> b = system.spawn(Recorder::new, three);
            for (int i = 0; i < 7; i++) {
                a.tell(x -> order.append('a'));
                b.tell(x -> order.append('b'));
            }
            scheduler.runAll();
        }
        assertThat(order.toString()).isEqualTo("aaabbbaaabbbab");
    }

    @Test
    void priorityAndSchedulerIndexReachTheSchedulerAsOneHintsInstanceOnEveryActivation() {
        TestSchedulers.Manual scheduler = new TestSchedulers.Manual();
        try (ActorSystem system = ActorSystem.create(scheduler)) {
            ActorConfig config = ActorConfig.builder().priority(-5).schedulerIndex(2)
                    .maxMessagesPerActivation(1).build();
            ActorRef<Recorder> r = system.spawn(Recorder::new, config);
            ActorRef<Recorder> plain = system.spawn(Recorder::new);
            for (int i = 0; i < 5; i++) {
                r.tell(x -> x.seen.add(1));
            }
            plain.tell(x -> x.seen.add(1));
            scheduler.runAll();
            List<Hints> hints = scheduler.recordedHints();
            assertThat(hints).hasSize(6);                  // five activations of r, one of plain
            // r's first activation carries the config's instance; the four after a full
            // activation carry one yielding copy of it
            long first = hints.stream().filter(h -> h == config.hints()).count();
            assertThat(first).isEqualTo(1);
            List<Hints> resubmits = hints.stream().filter(Hints::yielding).toList();
            assertThat(resubmits).hasSize(4).allSatisfy(h -> {
                assertThat(h).isSameAs(resubmits.get(0));
                assertThat(h).isEqualTo(config.hints().withYielding(true));
            });
            assertThat(config.hints().priority()).isEqualTo(-5);
            assertThat(config.hints().schedulerIndex()).isEqualTo(2);
            assertThat(hints).filteredOn(h -> h.priority() == 0).containsExactly(Hints.DEFAULT);
        }
    }

    @Test
    void aBoundedMailboxRejectsWhenFullAndNeverDropsSilently() {
        TestSchedulers.Manual scheduler = new TestSchedulers.Manual();
        try (ActorSystem system = ActorSystem.create(scheduler)) {
            ActorRef<Recorder> r = system.spawn(Recorder::new,
                    ActorConfig.builder().name("small").mailboxCapacity(3).build());
            for (int i = 0; i < 3; i++) {
                int n = i;
                r.tell(x -> x.seen.add(n));
            }
            assertThatThrownBy(() -> r.tell(x -> x.seen.add(99)))
                    .isInstanceOf(MailboxFullException.class)
                    .isInstanceOf(RejectedExecutionException.class)
                    .hasMessageContaining("small").hasMessageContaining("3");
            CompletableFuture<Integer> rejectedAsk = r.ask(x -> x.seen.size());
            assertThatThrownBy(rejectedAsk::join).hasCauseInstanceOf(MailboxFullException.class);
            scheduler.runAll();
            CompletableFuture<List<Integer>> seen = r.ask(x -> List.copyOf(x.seen));   // room again
            scheduler.runAll();
            assertThat(seen.join()).containsExactly(0, 1, 2);
            assertThat(system.stats().deadLetters()).isZero();
            // stop is accepted even when the mailbox is full
            for (int i = 0; i < 3; i++) {
                r.tell(x -> x.seen.add(0));
            }
            CompletableFuture<Void> stopped = r.stop();
            scheduler.runAll();
            assertThat(stopped).isCompleted();
            assertThat(system.stats().messagesProcessed()).isEqualTo(7);
        }
    }

    @Test
    void aSchedulerShutDownUnderTheSystemFailsAsksInsteadOfHanging() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).build();
        ActorSystem system = ActorSystem.create(pool);
        ActorRef<Recorder> r = system.spawn(Recorder::new, ActorConfig.builder().name("orphan").build());
        r.tell(x -> x.seen.add(1));
        assertThat(r.ask(x -> x.seen.size()).get(10, TimeUnit.SECONDS)).isEqualTo(1);
        pool.shutdown();
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();

        CompletableFuture<Integer> ask = r.ask(x -> x.seen.size());
        assertThat(ask).isCompletedExceptionally();
        assertThatThrownBy(ask::join).isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(ActorStoppedException.class)
                .hasRootCauseInstanceOf(RejectedExecutionException.class)
                .hasMessageContaining("orphan");
        assertThat(r.isStopped()).isTrue();
        assertThat(r.stop()).isCompleted();
        r.tell(x -> x.seen.add(2));
        assertThatThrownBy(() -> r.ask(x -> x.seen.size()).join()).hasCauseInstanceOf(ActorStoppedException.class);
        assertThat(system.stats()).isEqualTo(new ActorSystemStats(2, 3, 0));
        system.close();
    }

    @Test
    void pendingAsksFailWhenAResubmissionIsRejected() {
        TestSchedulers.Manual scheduler = new TestSchedulers.Manual();
        ActorSystem system = ActorSystem.create(scheduler);
        ActorRef<Recorder> r = system.spawn(Recorder::new,
                ActorConfig.builder().maxMessagesPerActivation(1).build());
        r.tell(x -> x.seen.add(1));
        List<CompletableFuture<Integer>> pending = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            pending.add(r.ask(x -> x.seen.size()));
        }
        r.tell(x -> x.seen.add(2));
        scheduler.rejecting = true;
        assertThat(scheduler.runOne()).isTrue();       // processes the first tell, resubmission refused
        assertThat(scheduler.queued()).isZero();
        for (CompletableFuture<Integer> f : pending) {
            assertThat(f).isCompletedExceptionally();
            assertThatThrownBy(f::join).hasCauseInstanceOf(ActorStoppedException.class)
                    .hasRootCauseInstanceOf(RejectedExecutionException.class);
        }
        assertThat(system.stats()).isEqualTo(new ActorSystemStats(1, 4, 0));
        system.close();
        assertThat(r.stop()).isCompleted();
    }

    @Test
    void aSchedulerRejectingTheFirstActivationEndsTheActor() {
        TestSchedulers.Manual scheduler = new TestSchedulers.Manual();
        scheduler.rejecting = true;
        try (ActorSystem system = ActorSystem.create(scheduler)) {
            ActorRef<Recorder> r = system.spawn(Recorder::new);   // nothing to run yet: accepted
            r.tell(x -> x.seen.add(1));
            assertThat(r.isStopped()).isTrue();
            assertThat(system.stats()).isEqualTo(new ActorSystemStats(0, 1, 0));
        }
    }
}
