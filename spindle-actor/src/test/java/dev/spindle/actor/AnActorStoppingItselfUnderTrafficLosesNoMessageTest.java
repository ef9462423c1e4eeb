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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An actor that stops itself (from one of its messages, at a random count) while senders keep
 * telling and asking it, on every scheduler kind, with an unbounded and with a bounded mailbox.
 * Every message whose send returned normally (a bounded mailbox may refuse one with
 * {@link MailboxFullException}, which its sender is told) must be processed or counted as a dead
 * letter, exactly; what each sender got processed must be a prefix of what it sent (nothing of
 * a sender's runs after one of its messages was dropped as behind the stop); every ask completes;
 * the stop completes and the actor counts live no more.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class AnActorStoppingItselfUnderTrafficLosesNoMessageTest {

    private static final int SENDERS = 3;
    private static final int PER_SENDER = 6_000;
    private static final int ROUNDS = 6;

    /** The actor: checks each sender's order, and stops itself at its {@code stopAt}-th message. */
    static final class Target {
        final ActorRef<Target> self;
        final int stopAt;
        final int[] next = new int[SENDERS];
        int gaps;
        int processed;
        CompletableFuture<Void> stopped;

        Target(ActorRef<Target> self, int stopAt) {
            this.self = self;
            this.stopAt = stopAt;
        }

        int receive(int sender, int seq) {
            if (next[sender] != seq) {
                gaps++;
            }
            next[sender] = seq + 1;
            if (++processed == stopAt) {
                stopped = self.stop();
            }
            return seq;
        }
    }

    @ParameterizedTest(name = "{0} with {1} worker(s)")
    @MethodSource("dev.spindle.actor.TestSchedulers#pools")
    void everyMessageIsProcessedOrADeadLetterAndEachSendersPrefixHolds(String kind, int workers,
            IntFunction<ExecutorService> pools) throws Exception {
        ExecutorService pool = pools.apply(workers);
        SplittableRandom rnd = new SplittableRandom(20261207L + workers);
        try {
            for (int round = 0; round < ROUNDS; round++) {
                runRound(kind + " round " + round, pool, rnd.split(), round % 2 == 1 ? 64 : ActorConfig.UNBOUNDED);
            }
        } finally {
            pool.shutdown();
            assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
        }
    }

    private static void runRound(String what, ExecutorService pool, SplittableRandom rnd, int capacity)
            throws Exception {
        AtomicReference<Throwable> unexpected = new AtomicReference<>();
        ActorSystem system = ActorSystem.builder().scheduler((Scheduler) pool)
                .failureHandler((a, t) -> unexpected.compareAndSet(null, t)).build();
        int stopAt = 1 + rnd.nextInt(SENDERS * PER_SENDER / 2);
        Target[] target = new Target[1];
        ActorRef<Target> ref = system.spawnWithSelf(self -> target[0] = new Target(self, stopAt),
                ActorConfig.builder().mailboxCapacity(capacity).maxMessagesPerActivation(1 + rnd.nextInt(16)).build());
        LongAdder sent = new LongAdder();
        List<CompletableFuture<Integer>> asks = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int s = 0; s < SENDERS; s++) {
            int sender = s;
            Thread t = new Thread(() -> {
                List<CompletableFuture<Integer>> mine = new ArrayList<>();
                int seq = 0;
                try {
                    for (int i = 0; i < PER_SENDER; i++) {
                        int m = seq;
                        try {
                            if (i % 7 == 0) {
                                CompletableFuture<Integer> f = ref.ask(x -> x.receive(sender, m));
                                if (refusedAsFull(f)) {
                                    Thread.onSpinWait();
                                    continue;           // told, not sent: the same seq again
                                }
                                mine.add(f);
                            } else {
                                ref.tell(x -> x.receive(sender, m));
                            }
                        } catch (MailboxFullException full) {
                            Thread.onSpinWait();
                            continue;                   // told, not sent: the same seq again
                        }
                        seq++;
                        sent.increment();
                    }
                } catch (Throwable e) {
                    unexpected.compareAndSet(null, e);
                } finally {
                    synchronized (asks) {
                        asks.addAll(mine);
                    }
                }
            }, "sender-" + s);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(120));
            assertThat(t.isAlive()).as("%s: %s finished", what, t.getName()).isFalse();
        }
        assertThat(unexpected.get()).as("%s: nothing unexpected", what).isNull();
        for (CompletableFuture<Integer> ask : asks) {
            assertThat(ask.handle((v, t) -> null)).as("%s: an ask completed", what).succeedsWithin(Duration.ofSeconds(60));
            if (ask.isCompletedExceptionally()) {
                assertThat(ask).failsWithin(Duration.ZERO).withThrowableOfType(Exception.class)
                        .withCauseInstanceOf(ActorStoppedException.class);
            }
        }
        long total = sent.sum();
        if (stopAt <= total) {
            assertThat(ref.stop()).as("%s: the stop completed", what).succeedsWithin(Duration.ofSeconds(60));
        } else {
            ref.stop().get(60, TimeUnit.SECONDS);   // fewer messages than stopAt were sent: stop it here
        }
        ActorSystemStats stats = system.stats();
        assertThat(stats.messagesProcessed() + stats.deadLetters())
                .as("%s (capacity %d, stop at %d): processed + dead letters, of %d sent; %s", what, capacity, stopAt,
                        total, stats)
                .isEqualTo(total);
        Target t = target[0];                           // ended: its writes happened before the stop completed
        assertThat(t.processed).as("%s: processed by the actor", what).isEqualTo(stats.messagesProcessed());
        assertThat(t.gaps).as("%s: gaps in a sender's processed prefix", what).isZero();
        assertThat(stats.liveActors()).as("%s: live actors", what).isZero();
        system.close();
    }

    private static boolean refusedAsFull(CompletableFuture<?> f) {
        if (!f.isCompletedExceptionally()) {
            return false;
        }
        try {
            f.getNow(null);
            return false;
        } catch (Exception e) {
            return e.getCause() instanceof MailboxFullException;
        }
    }
}
