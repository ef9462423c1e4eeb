/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Hints;
import dev.spindle.Scheduler;
import dev.spindle.pool.SchedulerUnion;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A third review of the actor layer (session 31, helper b) on every scheduler kind, 1 and 2
 * workers. None of these failed on the code they were written against: they pin down behaviour
 * the earlier regression tests did not reach (what a stopped actor still holds in memory, the
 * documented remedy for activations that {@code shutdownNow()} returns, bounded mailboxes racing
 * a stop with asks in flight, a mix of everything with failing messages on a union, the
 * flight-recorder path of an activation, a sender whose thread is interrupted), so that a later
 * change to the mailbox, the ending of an actor or the pools cannot break them unnoticed.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ActorThirdReviewRegressionTest {

    static final class Counter {
        long n;
    }

    private static void shutDown(ExecutorService pool) throws InterruptedException {
        pool.shutdown();
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).as("pool terminates").isTrue();
    }

    // ------------------------------------------------------------------ memory after stop

    /**
     * Runs a tell, an ask and a post-stop tell, each capturing a megabyte, on an actor that then
     * stops; returns weak references to what must not outlive the stop. In a method of its own so
     * that no local variable slot of the test keeps them reachable.
     */
    @SuppressWarnings("unchecked")
    private static WeakReference<Object>[] runAndStop(ActorSystem system) throws Exception {
        Counter object = new Counter();
        ActorRef<Counter> ref = system.spawn(() -> object, ActorConfig.builder().maxMessagesPerActivation(2).build());
        byte[] told = new byte[1 << 20];
        byte[] asked = new byte[1 << 20];
        byte[] late = new byte[1 << 20];
        ref.tell(c -> c.n += told.length);
        assertThat(ref.ask(c -> asked.length).get(10, TimeUnit.SECONDS)).isEqualTo(1 << 20);
        CompletableFuture<Void> stopped = ref.stop();
        ref.tell(c -> c.n += late.length);             // behind the stop: a dead letter
        stopped.get(10, TimeUnit.SECONDS);
        return new WeakReference[] {new WeakReference<>(object), new WeakReference<>(told),
            new WeakReference<>(asked), new WeakReference<>(late), new WeakReference<>(ref)};
    }

    /**
     * Once an actor has stopped, neither its object, nor what its messages captured (processed,
     * answered or rejected), nor its cell is kept reachable by the mailbox, the system's registry
     * or the scheduler (a worker's last task, a slot, a queue node).
     */
    @ParameterizedTest(name = "{0} with {1} worker(s)")
    @MethodSource("dev.spindle.actor.TestSchedulers#pools")
    void aStoppedActorKeepsNeitherItsObjectNorItsMessagesNorItsCellReachable(String kind, int workers,
            IntFunction<ExecutorService> pools) throws Exception {
        ExecutorService pool = pools.apply(workers);
        ActorSystem system = ActorSystem.create((Scheduler) pool);
        WeakReference<Object>[] refs = runAndStop(system);
        String[] what = {"the actor object", "a processed tell's capture", "an answered ask's capture",
            "a dead letter's capture", "the actor's cell"};
        for (int i = 0; i < 100 && Arrays.stream(refs).anyMatch(r -> r.get() != null); i++) {
            System.gc();
            Thread.sleep(10);
        }
        for (int i = 0; i < refs.length; i++) {
            assertThat(refs[i].get()).as(what[i] + " after the stop, on " + kind).isNull();
        }
        assertThat(system.stats().liveActors()).isZero();
        system.close();
        shutDown(pool);
    }

    // ------------------------------------------------------------------ shutdownNow

    /**
     * ActorSystem's Javadoc: activations that {@code shutdownNow()} returns leave their actors'
     * asks pending "unless the caller runs the returned tasks". Running them does complete the
     * asks, on every kind (a task the pool wrapped, or an unwrapped activation, runs the actor).
     */
    @ParameterizedTest(name = "{0} with {1} worker(s)")
    @MethodSource("dev.spindle.actor.TestSchedulers#pools")
    void runningTheActivationsShutdownNowReturnedAnswersThePendingAsks(String kind, int workers,
            IntFunction<ExecutorService> pools) throws Exception {
        ExecutorService pool = pools.apply(workers);
        ActorSystem system = ActorSystem.create((Scheduler) pool);
        CountDownLatch busy = new CountDownLatch(workers);
        for (int i = 0; i < workers; i++) {
            ((Scheduler) pool).execute(() -> {      // occupies every worker until shutdownNow interrupts it
                busy.countDown();
                try {
                    Thread.sleep(60_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, Hints.DEFAULT);
        }
        busy.await();
        ActorRef<Counter> actor = system.spawn(Counter::new);
        actor.tell(c -> c.n++);
        CompletableFuture<Long> pending = actor.ask(c -> c.n);
        List<Runnable> notStarted = pool.shutdownNow();
        for (Runnable task : notStarted) {
            task.run();
        }
        assertThat(pending).as("the ask, after running " + notStarted).succeedsWithin(10, TimeUnit.SECONDS)
                .isEqualTo(1L);
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    }

    // ------------------------------------------------------------------ bounded mailbox and stop

    /**
     * Three senders keep a small bounded mailbox (4) full with tells and asks, backing off on
     * {@link MailboxFullException}, while the actor (budget 2) is stopped under them: every ask
     * that was not refused as full completes (answered or {@link ActorStoppedException}), the stop
     * completes, and the ended actors leave no live count and no listed mailbox behind.
     */
    @ParameterizedTest(name = "{0} with {1} worker(s)")
    @MethodSource("dev.spindle.actor.TestSchedulers#pools")
    void aBoundedMailboxStoppedUnderBusySendersAnswersOrFailsEveryAcceptedAsk(String kind, int workers,
            IntFunction<ExecutorService> pools) throws Exception {
        ExecutorService pool = pools.apply(workers);
        ActorSystem system = ActorSystem.builder().scheduler((Scheduler) pool).failureHandler((a, e) -> { }).build();
        for (int round = 0; round < 3; round++) {
            ActorRef<Counter> ref = system.spawn(Counter::new,
                    ActorConfig.builder().mailboxCapacity(4).maxMessagesPerActivation(2).build());
            List<CompletableFuture<Long>> asks = new CopyOnWriteArrayList<>();
            AtomicLong sent = new AtomicLong();
            List<Thread> senders = new ArrayList<>();
            for (int s = 0; s < 3; s++) {
                Thread t = new Thread(() -> {
                    for (int i = 0; i < 2000; i++) {
                        try {
                            if (i % 7 == 0) {
                                CompletableFuture<Long> f = ref.ask(c -> ++c.n);
                                if (!f.isCompletedExceptionally()
                                        || !(f.handle((v, x) -> x).join() instanceof MailboxFullException)) {
                                    asks.add(f);
                                }
                            } else {
                                ref.tell(c -> c.n++);
                            }
                        } catch (MailboxFullException full) {
                            Thread.yield();
                        }
                        sent.incrementAndGet();
                    }
                });
                t.start();
                senders.add(t);
            }
            while (sent.get() < 1000) {
                Thread.onSpinWait();
            }
            CompletableFuture<Void> stopped = ref.stop();
            for (Thread t : senders) {
                t.join();
            }
            stopped.get(30, TimeUnit.SECONDS);
            CompletableFuture.allOf(asks.toArray(CompletableFuture[]::new)).handle((v, x) -> null)
                    .get(30, TimeUnit.SECONDS);
            for (CompletableFuture<Long> f : asks) {
                if (f.isCompletedExceptionally()) {
                    assertThat(f.handle((v, x) -> x).join()).isInstanceOf(ActorStoppedException.class);
                }
            }
        }
        assertThat(system.stats().liveActors()).isZero();
        assertThat(system.deepestMailboxes(10)).isEmpty();
        system.close();
        shutDown(pool);
    }

    // ------------------------------------------------------------------ everything at once

    /** An actor that checks the order of each sender's messages and fails every 64th. */
    static final class Sequenced {
        final int[] last = new int[4];
        long received;
        boolean outOfOrder;

        Sequenced() {
            Arrays.fill(last, -1);
        }

        void receive(int sender, int seq) {
            if (seq <= last[sender]) {
                outOfOrder = true;
            }
            last[sender] = seq;
            received++;
            if ((seq & 63) == 0) {
                throw new IllegalStateException("message " + seq + " fails");
            }
        }
    }

    /**
     * Three senders spread tells and asks over six actors (bounded and unbounded mailboxes,
     * budgets 1 to 5, both members of a union), two actors are stopped midway and the system is
     * closed at the end: each sender's messages arrive in order, every message is processed or a
     * dead letter (those refused as full aside), the failure handler sees every failed tell, and
     * the counters add up.
     */
    @ParameterizedTest(name = "{0} with {1} worker(s)")
    @MethodSource("dev.spindle.actor.TestSchedulers#pools")
    void mixedTrafficStopsAndCloseLoseNothingAndKeepEachSendersOrder(String kind, int workers,
            IntFunction<ExecutorService> pools) throws Exception {
        ExecutorService pool = pools.apply(workers);
        AtomicLong failures = new AtomicLong();
        ActorSystem system = ActorSystem.builder().scheduler((Scheduler) pool)
                .failureHandler((a, e) -> failures.incrementAndGet()).build();
        List<ActorRef<Sequenced>> refs = new ArrayList<>();
        List<Sequenced> objects = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 6; i++) {
            ActorConfig.Builder b = ActorConfig.builder().maxMessagesPerActivation(1 + i % 5)
                    .schedulerIndex(pool instanceof SchedulerUnion ? i % 2 : 0);
            if (i % 2 == 0) {
                b.mailboxCapacity(3 + 5 * i);
            }
            refs.add(system.spawn(() -> {
                Sequenced q = new Sequenced();
                objects.add(q);
                return q;
            }, b.build()));
        }
        AtomicLong accepted = new AtomicLong();
        AtomicLong failing = new AtomicLong();
        List<CompletableFuture<Long>> asks = new CopyOnWriteArrayList<>();
        List<Thread> senders = new ArrayList<>();
        for (int s = 0; s < 3; s++) {
            int sender = s;
            Thread t = new Thread(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                int[] next = new int[refs.size()];
                for (int i = 0; i < 10_000; i++) {
                    if (sender == 0 && i == 7_000) {
                        refs.get(1).stop();
                        refs.get(2).stop();
                    }
                    int k = random.nextInt(refs.size());
                    int seq = next[k]++;
                    try {
                        if (random.nextInt(10) == 0) {
                            CompletableFuture<Long> f = refs.get(k).ask(q -> {
                                q.receive(sender, seq);
                                return q.received;
                            });
                            if (f.isCompletedExceptionally()
                                    && f.handle((v, x) -> x).join() instanceof MailboxFullException) {
                                continue;
                            }
                            asks.add(f);
                        } else {
                            refs.get(k).tell(q -> q.receive(sender, seq));
                            if ((seq & 63) == 0) {
                                failing.incrementAndGet();
                            }
                        }
                        accepted.incrementAndGet();
                    } catch (MailboxFullException full) {
                        Thread.yield();
                    }
                }
            });
            t.start();
            senders.add(t);
        }
        for (Thread t : senders) {
            t.join();
        }
        system.close();
        List<CompletableFuture<Void>> stops = new ArrayList<>();
        for (ActorRef<Sequenced> r : refs) {
            stops.add(r.stop());
        }
        CompletableFuture.allOf(stops.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
        CompletableFuture.allOf(asks.toArray(CompletableFuture[]::new)).handle((v, x) -> null)
                .get(30, TimeUnit.SECONDS);
        shutDown(pool);

        long received = objects.stream().mapToLong(q -> q.received).sum();
        ActorSystemStats stats = system.stats();
        assertThat(objects).as("each sender's messages in order").noneMatch(q -> q.outOfOrder);
        assertThat(stats.liveActors()).isZero();
        assertThat(stats.messagesProcessed()).isEqualTo(received);
        assertThat(received + stats.deadLetters()).as("processed + dead letters").isEqualTo(accepted.get());
        assertThat(failures.get()).as("failed tells reported").isLessThanOrEqualTo(failing.get()).isPositive();
    }

    // ------------------------------------------------------------------ single checks

    /**
     * With both actor events enabled at their lowest settings, every activation goes through
     * the flight-recorder path (depth measured first, then the loop): messages are processed as
     * without a recording, across many budget-bounded activations.
     */
    @Test
    void theFlightRecorderPathOfAnActivationLosesNoMessage() throws Exception {
        try (Recording recording = new Recording()) {
            recording.enable("dev.spindle.ActorActivation").withThreshold(Duration.ZERO);
            recording.enable("dev.spindle.MailboxDepth").with("depth", "0");
            recording.start();
            try (ActorSystem system = ActorSystem.create()) {
                ActorRef<Counter> unbounded = system.spawn(Counter::new,
                        ActorConfig.builder().maxMessagesPerActivation(3).build());
                ActorRef<Counter> bounded = system.spawn(Counter::new,
                        ActorConfig.builder().maxMessagesPerActivation(3).mailboxCapacity(10_000).build());
                for (int i = 0; i < 5_000; i++) {
                    unbounded.tell(c -> c.n++);
                    bounded.tell(c -> c.n++);
                }
                assertThat(unbounded.ask(c -> c.n).get(30, TimeUnit.SECONDS)).isEqualTo(5_000L);
                assertThat(bounded.ask(c -> c.n).get(30, TimeUnit.SECONDS)).isEqualTo(5_000L);
            }
        }
    }

    /**
     * A sender whose thread is interrupted still sends (nothing on the send path is
     * interruptible) and keeps its interrupt; a factory that asks and stops its own actor gets
     * the answer, then the actor ends; spawn-and-stop churn of bounded actors leaves no live
     * actor, and the processed count is exact.
     */
    @ParameterizedTest(name = "{0} with {1} worker(s)")
    @MethodSource("dev.spindle.actor.TestSchedulers#pools")
    void anInterruptedSenderASelfStoppingFactoryAndChurnAreAccountedExactly(String kind, int workers,
            IntFunction<ExecutorService> pools) throws Exception {
        ExecutorService pool = pools.apply(workers);
        ActorSystem system = ActorSystem.create((Scheduler) pool);
        ActorRef<Counter> counter = system.spawn(Counter::new);
        Thread.currentThread().interrupt();
        counter.tell(c -> c.n++);
        CompletableFuture<Long> read = counter.ask(c -> c.n);
        assertThat(Thread.interrupted()).as("the sender keeps its interrupt").isTrue();
        assertThat(read.get(10, TimeUnit.SECONDS)).isEqualTo(1L);

        List<CompletableFuture<Long>> early = new ArrayList<>();
        ActorRef<Counter> selfStopping = system.<Counter>spawnWithSelf(self -> {
            early.add(self.ask(c -> ++c.n));
            self.stop();
            return new Counter();
        });
        assertThat(early.get(0).get(10, TimeUnit.SECONDS)).isEqualTo(1L);
        selfStopping.stop().get(10, TimeUnit.SECONDS);
        assertThat(selfStopping.ask(c -> c.n)).failsWithin(10, TimeUnit.SECONDS);

        for (int i = 0; i < 1000; i++) {
            ActorRef<Counter> r = system.spawn(Counter::new,
                    ActorConfig.builder().mailboxCapacity(2).maxMessagesPerActivation(1).build());
            r.tell(c -> c.n++);
            r.stop();
        }
        counter.stop().get(10, TimeUnit.SECONDS);
        TestSchedulers.awaitCondition("every actor ended", () -> system.stats().liveActors() == 0);
        assertThat(system.stats().messagesProcessed()).isEqualTo(2 + 1 + 1000);
        system.close();
        shutDown(pool);
    }

    /**
     * Spawns (each factory telling its own actor) racing close() of a system that owns its
     * scheduler: every spawn either throws RejectedExecutionException or returns an actor whose stop
     * completes, and no actor stays live.
     */
    @Test
    void spawnsRacingCloseOfAnOwnedSchedulerAllEnd() throws Exception {
        for (int round = 0; round < 20; round++) {
            ActorSystem system = ActorSystem.builder().failureHandler((a, e) -> { }).build();
            List<ActorRef<Counter>> spawned = new CopyOnWriteArrayList<>();
            Thread spawner = new Thread(() -> {
                for (int i = 0; i < 200; i++) {
                    try {
                        spawned.add(system.<Counter>spawnWithSelf(self -> {
                            self.tell(c -> c.n++);
                            return new Counter();
                        }));
                    } catch (RejectedExecutionException closed) {
                        return;
                    }
                }
            });
            spawner.start();
            Thread.sleep(round % 3);
            system.close();
            spawner.join();
            for (ActorRef<Counter> r : spawned) {
                r.stop().get(10, TimeUnit.SECONDS);
            }
            assertThat(system.stats().liveActors()).isZero();
        }
    }

    /** One of two actors that hit each other back and forth until told to stop. */
    static final class Player {
        ActorRef<Player> other;
        volatile boolean done;

        void hit() {
            if (!done) {
                other.tell(Player::hit);
            }
        }
    }

    /**
     * One pair of actors per worker, each hitting the other back and forever: every hop is a
     * fresh, non-yielding activation submitted by a worker (a work-sharing slot, a work-stealing
     * deque, a pinned worker's own queue), never a spent budget. An actor told from outside is
     * still answered, twenty times in a row, on every kind.
     */
    @ParameterizedTest(name = "{0} with {1} worker(s)")
    @MethodSource("dev.spindle.actor.TestSchedulers#pools")
    void actorsPingPongingOnEveryWorkerDoNotStarveAnActorToldFromOutside(String kind, int workers, IntFunction<ExecutorService> pools) throws Exception {
        ExecutorService pool = pools.apply(workers);
        ActorSystem system = ActorSystem.create((Scheduler) pool);
        List<Player> players = new ArrayList<>();
        List<ActorRef<Player>> refs = new ArrayList<>();
        for (int i = 0; i < 2 * workers; i++) {
            Player p = new Player();
            players.add(p);
            refs.add(system.spawn(() -> p));
        }
        for (int i = 0; i < refs.size(); i += 2) {
            ActorRef<Player> a = refs.get(i);
            ActorRef<Player> b = refs.get(i + 1);
            a.tell(p -> p.other = b);
            b.tell(p -> p.other = a);
            a.tell(Player::hit);
        }
        Thread.sleep(50);
        ActorRef<Counter> outsider = system.spawn(Counter::new);
        for (int i = 0; i < 20; i++) {
            assertThat(outsider.ask(c -> ++c.n).get(10, TimeUnit.SECONDS)).isEqualTo(i + 1L);
        }
        for (Player p : players) {
            p.done = true;
        }
        system.close();
        shutDown(pool);
    }
}
