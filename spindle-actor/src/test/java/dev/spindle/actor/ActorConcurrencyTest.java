/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static dev.spindle.actor.TestSchedulers.awaitCondition;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Scheduler;
import dev.spindle.pool.WorkStealingPool;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The guarantees under concurrency: per-sender FIFO, exclusivity, visibility of plain fields
 * across activations, exactly-once delivery, stop racing senders, composing asks without
 * blocking. No assertion depends on timing; waits are bounded so a lost message fails.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ActorConcurrencyTest {

    /** Starts {@code n} threads running {@code body(i)} together; returns them started. */
    static List<Thread> startSenders(int n, SenderBody body) {
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int id = i;
            Thread t = new Thread(() -> {
                try {
                    go.await();
                    body.run(id);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "sender-" + i);
            t.start();
            threads.add(t);
        }
        go.countDown();
        return threads;
    }

    static void joinAll(List<Thread> threads) throws InterruptedException {
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(60));
            assertThat(t.isAlive()).as("%s finished", t.getName()).isFalse();
        }
    }

    interface SenderBody {
        void run(int id) throws InterruptedException;
    }

    /** Checks, per sender, that sequence numbers arrive as 0, 1, 2, ... with nothing missing or repeated. */
    static final class SequenceChecker {
        final int[] expected;
        long received;
        long violations;

        SequenceChecker(int senders) {
            expected = new int[senders];
        }

        void receive(int sender, int seq) {
            if (expected[sender] != seq) {
                violations++;
            }
            expected[sender] = seq + 1;
            received++;
        }
    }

    @Test
    void messagesFromEachSenderArriveInOrderAcrossActivationsOnDifferentThreads() throws Exception {
        int senders = 3;
        int perSender = 20_000;
        try (TestSchedulers.Alternating scheduler = new TestSchedulers.Alternating(2);
             ActorSystem system = ActorSystem.create(scheduler)) {
            ActorRef<SequenceChecker> checker = system.spawn(() -> new SequenceChecker(senders),
                    ActorConfig.builder().maxMessagesPerActivation(7).build());
            joinAll(startSenders(senders, id -> {
                for (int i = 0; i < perSender; i++) {
                    int seq = i;
                    checker.tell(c -> c.receive(id, seq));
                }
            }));
            SequenceChecker result = checker.ask(c -> c).get(30, TimeUnit.SECONDS);
            assertThat(result.violations).isZero();
            assertThat(result.received).isEqualTo((long) senders * perSender);
            assertThat(result.expected).containsOnly(perSender);
        }
    }

    /** Fails if two threads are ever inside it at once; counts in a plain field. */
    static final class Exclusive {
        final AtomicInteger inside = new AtomicInteger();
        final AtomicInteger overlaps;
        long count;                     // plain: only correct if messages never overlap
        final Set<Thread> threads = new HashSet<>();

        Exclusive(AtomicInteger overlaps) {
            this.overlaps = overlaps;
        }

        void enter() {
            if (inside.incrementAndGet() != 1) {
                overlaps.incrementAndGet();
            }
            count++;
            threads.add(Thread.currentThread());
            Thread.onSpinWait();
            if (inside.decrementAndGet() != 0) {
                overlaps.incrementAndGet();
            }
        }
    }

    @Test
    void atMostOneThreadRunsAnActorAtATimeOnAWorkStealingPool() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(4).build()) {
            exclusivity(pool, 4, 100_000);
        }
    }

    @Test
    void atMostOneThreadRunsAnActorAtATimeWhenActivationsAlternateThreads() throws Exception {
        try (TestSchedulers.Alternating scheduler = new TestSchedulers.Alternating(3)) {
            exclusivity(scheduler, 3, 50_000);
        }
    }

    private static void exclusivity(Scheduler scheduler, int senders, int perSender) throws Exception {
        AtomicInteger overlaps = new AtomicInteger();
        try (ActorSystem system = ActorSystem.create(scheduler)) {
            List<ActorRef<Exclusive>> actors = new ArrayList<>();
            for (int budget : new int[] {1, 3, 100}) {
                actors.add(system.spawn(() -> new Exclusive(overlaps),
                        ActorConfig.builder().maxMessagesPerActivation(budget).build()));
            }
            joinAll(startSenders(senders, id -> {
                for (int i = 0; i < perSender; i++) {
                    actors.get(i % actors.size()).tell(Exclusive::enter);
                }
            }));
            long total = 0;
            for (ActorRef<Exclusive> a : actors) {
                total += a.ask(e -> e.count).get(30, TimeUnit.SECONDS);
            }
            assertThat(overlaps.get()).isZero();
            assertThat(total).isEqualTo((long) senders * perSender);
        }
    }

    /** Plain fields written by one message and checked by the next, on another thread. */
    static final class PlainState {
        long last = -1;
        long mirror = -1;
        int[] history = new int[16];
        long stale;
        final Set<Thread> threads = new HashSet<>();

        void step(long i) {
            if (last != i - 1 || mirror != last || history[(int) (last & 15)] != (int) last) {
                stale++;
            }
            last = i;
            history[(int) (i & 15)] = (int) i;
            mirror = i;
            threads.add(Thread.currentThread());
        }
    }

    @Test
    void plainFieldsWrittenInOneActivationAreSeenByTheNextOnAnotherThread() throws Exception {
        int messages = 100_000;
        try (TestSchedulers.Alternating scheduler = new TestSchedulers.Alternating(2);
             ActorSystem system = ActorSystem.create(scheduler)) {
            ActorRef<PlainState> s = system.spawn(() -> {
                PlainState p = new PlainState();
                p.history[15] = -1;
                return p;
            }, ActorConfig.builder().maxMessagesPerActivation(1).build());
            for (long i = 0; i < messages; i++) {
                long n = i;
                s.tell(p -> p.step(n));
            }
            PlainState result = s.ask(p -> p).get(30, TimeUnit.SECONDS);
            assertThat(result.stale).isZero();
            assertThat(result.last).isEqualTo(messages - 1);
            assertThat(result.threads).hasSize(2);   // activations alternate between the two threads
        }
    }

    @Test
    void everyMessageIsDeliveredExactlyOnceUnderStress() throws Exception {
        int senders = 4;
        int actorsCount = 40;
        int perSender = 250_000;           // 10^6 external messages in all
        int hops = 20_000;                 // plus actor-to-actor messages on the workers
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).build();
             ActorSystem system = ActorSystem.create(pool)) {
            List<ActorRef<SequenceChecker>> actors = new ArrayList<>();
            for (int i = 0; i < actorsCount; i++) {
                actors.add(system.spawn(() -> new SequenceChecker(senders + 1),
                        ActorConfig.builder().maxMessagesPerActivation(1 + i % 50).build()));
            }
            // a token passed around the actors: each hop is a tell from one actor's thread to the next
            AtomicLong relayed = new AtomicLong();
            CompletableFuture<Long> relayDone = new CompletableFuture<>();
            relay(actors, 0, 0, hops, senders, relayed, relayDone);
            joinAll(startSenders(senders, id -> {
                int[] seq = new int[actorsCount];
                for (int i = 0; i < perSender; i++) {
                    int target = (i * 7 + id) % actorsCount;
                    int s = seq[target]++;
                    actors.get(target).tell(c -> c.receive(id, s));
                }
            }));
            assertThat(relayDone.get(30, TimeUnit.SECONDS)).isEqualTo(hops);
            long received = 0;
            for (ActorRef<SequenceChecker> a : actors) {
                SequenceChecker c = a.ask(x -> x).get(30, TimeUnit.SECONDS);
                assertThat(c.violations).as(a.name()).isZero();
                received += c.received;
            }
            assertThat(received).isEqualTo((long) senders * perSender + hops);
            assertThat(system.stats().messagesProcessed()).isEqualTo(received + actorsCount);
            assertThat(system.stats().deadLetters()).isZero();
        }
    }

    private static void relay(List<ActorRef<SequenceChecker>> actors, int at, int hop, int hops, int sender,
                              AtomicLong relayed, CompletableFuture<Long> done) {
        actors.get(at).tell(c -> {
            int seqForThisActor = c.expected[sender];
            c.receive(sender, seqForThisActor);
            if (relayed.incrementAndGet() == hops) {
                done.complete((long) hops);
            } else {
                relay(actors, (at + 1) % actors.size(), hop + 1, hops, sender, relayed, done);
            }
        });
    }

    /** Counts what it receives and remembers, per sender, the sequence numbers seen. */
    static final class StopTarget {
        final int[] nextSeq;
        long processed;
        long gaps;

        StopTarget(int senders) {
            nextSeq = new int[senders];
        }

        int receive(int sender, int seq) {
            if (nextSeq[sender] != seq) {
                gaps++;
            }
            nextSeq[sender] = seq + 1;
            processed++;
            return seq;
        }
    }

    @Test
    void stopRacingSendersLeavesEveryMessageProcessedOrADeadLetterCountedExactly() throws Exception {
        int senders = 4;
        int perSender = 50_000;
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).build()) {
            for (int round = 0; round < 3; round++) {
                ActorSystem system = ActorSystem.create(pool);
                StopTarget[] target = new StopTarget[1];
                ActorRef<StopTarget> ref = system.spawn(() -> target[0] = new StopTarget(senders),
                        ActorConfig.builder().maxMessagesPerActivation(1 + round * 40).build());
                AtomicLong sent = new AtomicLong();
                long stopAt = (long) senders * perSender / (2 + round);
                List<CompletableFuture<Integer>> asks = new ArrayList<>();
                List<Thread> threads = startSenders(senders, id -> {
                    List<CompletableFuture<Integer>> mine = new ArrayList<>();
                    for (int i = 0; i < perSender; i++) {
                        int seq = i;
                        if (i % 10 == 0) {
                            mine.add(ref.ask(t -> t.receive(id, seq)));
                        } else {
                            ref.tell(t -> t.receive(id, seq));
                        }
                        sent.incrementAndGet();
                    }
                    synchronized (asks) {
                        asks.addAll(mine);
                    }
                });
                while (sent.get() < stopAt) {
                    Thread.onSpinWait();
                }
                CompletableFuture<Void> stopped = ref.stop();
                joinAll(threads);
                stopped.get(30, TimeUnit.SECONDS);
                long total = (long) senders * perSender;
                awaitCondition("every message processed or dead",
                        () -> system.stats().messagesProcessed() + system.stats().deadLetters() == total);
                CompletableFuture.allOf(asks.toArray(CompletableFuture[]::new))
                        .handle((v, t) -> null).get(30, TimeUnit.SECONDS);

                StopTarget t = target[0];      // the actor has ended: its last write happened before stop completed
                ActorSystemStats stats = system.stats();
                assertThat(t.processed).isEqualTo(stats.messagesProcessed());
                assertThat(stats.messagesProcessed() + stats.deadLetters()).isEqualTo(total);
                assertThat(stats.liveActors()).isZero();
                // what each sender got processed is a prefix of what it sent: nothing after the stop
                assertThat(t.gaps).isZero();
                long asksDone = asks.stream().filter(f -> !f.isCompletedExceptionally()).count();
                long asksDead = asks.stream().filter(CompletableFuture::isCompletedExceptionally).count();
                assertThat(asksDone + asksDead).isEqualTo(total / 10);
                for (CompletableFuture<Integer> f : asks) {
                    if (f.isCompletedExceptionally()) {
                        assertThat(f).failsWithin(0, TimeUnit.SECONDS).withThrowableOfType(Exception.class)
                                .withCauseInstanceOf(ActorStoppedException.class);
                    }
                }
                system.close();
            }
        }
    }

    /**
     * Each message arrives while the actor is finishing the previous one (the ask's future
     * completes inside the activation), which is exactly when a deactivating actor could miss
     * it. A lost wake-up leaves a future incomplete and fails the bounded wait.
     */
    @Test
    void noWakeUpIsLostWhenMessagesArriveWhileTheActorDeactivates() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).build();
             ActorSystem system = ActorSystem.create(pool)) {
            ActorRef<long[]> counter = system.spawn(() -> new long[1]);
            for (int i = 0; i < 50_000; i++) {
                long n = counter.ask(c -> ++c[0]).get(10, TimeUnit.SECONDS);
                assertThat(n).isEqualTo(i + 1);
            }
            // and between actors: a ball bounced 100,000 times, each hop a tell from a worker
            CompletableFuture<Integer> done = new CompletableFuture<>();
            ActorRef<int[]>[] players = newPlayers(system);
            players[0].tell(p -> bounce(players, 0, 0, 100_000, done));
            assertThat(done.get(30, TimeUnit.SECONDS)).isEqualTo(100_000);
        }
    }

    @SuppressWarnings("unchecked")
    private static ActorRef<int[]>[] newPlayers(ActorSystem system) {
        return (ActorRef<int[]>[]) new ActorRef<?>[] {system.spawn(() -> new int[1]), system.spawn(() -> new int[1])};
    }

    private static void bounce(ActorRef<int[]>[] players, int at, int hop, int hops, CompletableFuture<Integer> done) {
        if (hop == hops) {
            done.complete(hop);
            return;
        }
        int other = 1 - at;
        players[other].tell(p -> {
            p[0]++;
            bounce(players, other, hop + 1, hops, done);
        });
    }

    /** Asks another actor and continues on itself when the answer arrives. */
    static final class Asker {
        private final ActorRef<Asker> self;
        private final ActorRef<Answerer> answerer;
        private final CompletableFuture<List<Integer>> done;
        private final List<Integer> replies = new ArrayList<>();   // plain: touched only by the actor
        private final int rounds;
        private boolean inside;
        long overlaps;

        Asker(ActorRef<Asker> self, ActorRef<Answerer> answerer, int rounds, CompletableFuture<List<Integer>> done) {
            this.self = self;
            this.answerer = answerer;
            this.rounds = rounds;
            this.done = done;
        }

        void next() {
            enter();
            int question = replies.size();
            answerer.ask(a -> a.square(question))
                    .thenAccept(r -> self.tell(me -> me.onReply(r)));   // back onto this actor; nothing waits
            inside = false;
        }

        void onReply(int reply) {
            enter();
            replies.add(reply);
            inside = false;
            if (replies.size() < rounds) {
                next();
            } else {
                done.complete(List.copyOf(replies));
            }
        }

        private void enter() {
            if (inside) {
                overlaps++;
            }
            inside = true;
        }
    }

    static final class Answerer {
        int square(int n) {
            return n * n;
        }
    }

    @Test
    void anActorComposesAnAskWithoutBlockingEvenOnOneWorker() throws Exception {
        int rounds = 1_000;
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).build();
             ActorSystem system = ActorSystem.create(pool)) {
            ActorRef<Answerer> answerer = system.spawn(Answerer::new);
            CompletableFuture<List<Integer>> done = new CompletableFuture<>();
            ActorRef<Asker> asker = system.spawnWithSelf(self -> new Asker(self, answerer, rounds, done));
            asker.tell(Asker::next);
            // with one worker, an actor blocking on the answer would deadlock and this would time out
            List<Integer> replies = done.get(30, TimeUnit.SECONDS);
            assertThat(replies).hasSize(rounds);
            for (int i = 0; i < rounds; i++) {
                assertThat(replies.get(i)).isEqualTo(i * i);
            }
            assertThat(asker.ask(a -> a.overlaps).get(10, TimeUnit.SECONDS)).isZero();
        }
    }
}
