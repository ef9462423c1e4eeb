/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Scheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Traffic racing {@link ActorSystem#close()} of a system that owns its scheduler, on every
 * scheduler kind, the close plain or interrupted (an interrupted close stops the scheduler with
 * {@code shutdownNow()} and ends the actors whose activations it drops): senders outside telling
 * and asking, actors telling each other and spawning actors whose factories tell themselves, while
 * the system closes. Every message whose send returned normally must then be processed or
 * counted as a dead letter, exactly: {@code messagesProcessed + deadLetters == sent}; every ask
 * must complete; every spawn must return or throw {@link RejectedExecutionException}; no actor
 * may stay live. A message lost silently (neither run nor counted) leaves the sum short, or an
 * ask pending, and the bounded waits below fail (as they did, on every kind, with an interrupted
 * close whose dropped activations did not end their actors).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class TrafficRacingTheSystemsCloseLosesNoMessageTest {

    private static final int ACTORS = 8;
    private static final int ROUNDS = 12;

    /** An actor's state: its references to the others, and a random source for its choices. */
    static final class Node {
        final List<ActorRef<Node>> peers;
        final SplittableRandom rnd;

        Node(List<ActorRef<Node>> peers, long seed) {
            this.peers = peers;
            this.rnd = new SplittableRandom(seed);
        }
    }

    /** What the round counts: messages whose send returned, and failures that are not allowed. */
    static final class Tally {
        final LongAdder sent = new LongAdder();
        final List<CompletableFuture<?>> asks = new ArrayList<>();
        final AtomicReference<Throwable> unexpected = new AtomicReference<>();
        ActorSystem system;

        /** A message from inside an actor: mostly tells on, sometimes spawns, while hops last. */
        void hop(Node n, int hops) {
            if (hops <= 0) {
                return;
            }
            try {
                if (n.rnd.nextInt(16) == 0) {
                    system.<Node>spawnWithSelf(self -> {
                        self.tell(x -> hop(x, hops - 1));
                        sent.increment();
                        return new Node(n.peers, n.rnd.nextLong());
                    });
                } else {
                    int fanOut = 1 + n.rnd.nextInt(2);
                    for (int i = 0; i < fanOut; i++) {
                        n.peers.get(n.rnd.nextInt(n.peers.size())).tell(x -> hop(x, hops - 1));
                        sent.increment();
                    }
                }
            } catch (RejectedExecutionException closed) {
                // a spawn once the system is closed: refused, as documented
            } catch (Throwable t) {
                unexpected.compareAndSet(null, t);
            }
        }
    }

    @ParameterizedTest(name = "{0} with {1} worker(s)")
    @MethodSource("dev.spindle.actor.TestSchedulers#pools")
    void everyMessageSentIsProcessedOrADeadLetter(String kind, int workers, IntFunction<ExecutorService> pools)
            throws Exception {
        SplittableRandom master = new SplittableRandom(20261207L + workers);
        for (int round = 0; round < ROUNDS; round++) {
            runRound(kind + " round " + round, workers, pools, master.split(), round % 2 == 1);
        }
    }

    private static void runRound(String what, int workers, IntFunction<ExecutorService> pools,
            SplittableRandom rnd, boolean interrupted) throws Exception {
        Tally tally = new Tally();
        ActorSystem.Builder b = ActorSystem.builder().failureHandler((a, t) -> tally.unexpected.compareAndSet(null, t));
        b.ownScheduler = name -> (Scheduler) pools.apply(workers);
        ActorSystem system = b.build();
        tally.system = system;
        List<ActorRef<Node>> refs = new ArrayList<>();
        for (int i = 0; i < ACTORS; i++) {
            long seed = rnd.nextLong();
            refs.add(system.spawn(() -> new Node(refs, seed),
                    ActorConfig.builder().maxMessagesPerActivation(1 + rnd.nextInt(8)).build()));
        }
        CountDownLatch started = new CountDownLatch(2);
        List<Thread> senders = new ArrayList<>();
        for (int s = 0; s < 2; s++) {
            long seed = rnd.nextLong();
            Thread t = new Thread(() -> {
                SplittableRandom local = new SplittableRandom(seed);
                List<CompletableFuture<?>> mine = new ArrayList<>();
                try {
                    for (int i = 0; i < 20_000; i++) {
                        ActorRef<Node> to = refs.get(local.nextInt(refs.size()));
                        int hops = local.nextInt(6);
                        if (local.nextInt(8) == 0) {
                            mine.add(to.ask(x -> {
                                tally.hop(x, hops);
                                return hops;
                            }));
                        } else {
                            to.tell(x -> tally.hop(x, hops));
                        }
                        tally.sent.increment();
                        if (i == 200) {
                            started.countDown();
                        }
                    }
                } catch (Throwable e) {
                    tally.unexpected.compareAndSet(null, e);
                } finally {
                    started.countDown();
                    synchronized (tally.asks) {
                        tally.asks.addAll(mine);
                    }
                }
            }, "sender-" + s);
            senders.add(t);
            t.start();
        }
        started.await();
        Thread closer = new Thread(() -> {
            if (interrupted) {
                Thread.currentThread().interrupt();      // the close's wait answers with shutdownNow
            }
            try {
                system.close();
            } catch (Throwable e) {
                tally.unexpected.compareAndSet(null, e);
            }
        }, "closer");
        closer.start();
        closer.join(TimeUnit.SECONDS.toMillis(120));
        assertThat(closer.isAlive()).as("%s: close() returned", what).isFalse();
        for (Thread t : senders) {
            t.join(TimeUnit.SECONDS.toMillis(120));
            assertThat(t.isAlive()).as("%s: %s finished", what, t.getName()).isFalse();
        }
        assertThat(tally.unexpected.get()).as("%s: nothing unexpected thrown or reported", what).isNull();
        for (CompletableFuture<?> ask : tally.asks) {
            // completes, with a value or ActorStoppedException; bounded, so a lost ask fails here
            assertThat(ask.handle((v, t) -> null)).as("%s (interrupted close: %s): an ask completed", what, interrupted)
                    .succeedsWithin(Duration.ofSeconds(60));
            if (ask.isCompletedExceptionally()) {
                assertThat(ask).failsWithin(0, TimeUnit.SECONDS).withThrowableOfType(Exception.class)
                        .withCauseInstanceOf(ActorStoppedException.class);
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        ActorSystemStats stats = system.stats();
        while (stats.messagesProcessed() + stats.deadLetters() != tally.sent.sum() || stats.liveActors() != 0) {
            if (System.nanoTime() > deadline) {
                break;
            }
            Thread.sleep(1);
            stats = system.stats();
        }
        assertThat(stats.messagesProcessed() + stats.deadLetters())
                .as("%s (interrupted close: %s): processed + dead letters, of %d sent; %s", what, interrupted,
                        tally.sent.sum(), stats)
                .isEqualTo(tally.sent.sum());
        assertThat(stats.liveActors()).as("%s: live actors after close", what).isZero();
        assertThat(((ExecutorService) system.scheduler()).isTerminated()).as("%s: the owned scheduler terminated", what)
                .isTrue();
    }
}
