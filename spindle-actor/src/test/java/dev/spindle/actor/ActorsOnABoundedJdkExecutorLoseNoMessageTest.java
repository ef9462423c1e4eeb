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
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Actors on a JDK {@link ThreadPoolExecutor} whose queue is bounded, under senders that keep it
 * full: with {@code AbortPolicy} the executor refuses activations ({@link RejectedExecutionException}),
 * and each refused actor ends as rejected, its queued and later messages dead letters and its asks
 * failed; with {@code CallerRunsPolicy} the refused activation runs on the submitting thread, a
 * sender's or a worker's resubmitting its actor, nested in what it was doing. Either way every
 * message whose send returned is processed or counted as a dead letter, exactly; each sender's
 * processed messages to an actor are in the order sent, with no gap; every ask completes, answered
 * or failed as stopped; every stop completes and no actor stays live. (Passes; with a rejected
 * tell not counted as a dead letter, the abort rounds fail.)
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ActorsOnABoundedJdkExecutorLoseNoMessageTest {

    private static final int ACTORS = 6;
    private static final int SENDERS = 3;
    private static final int PER_SENDER = 6_000;
    private static final int ROUNDS = 6;

    /** Each sender's next sequence number, per actor; the first disorder seen, for all. */
    static final class Log {
        final int[] next = new int[SENDERS];
        final AtomicReference<String> disorder;
        final String name;

        Log(String name, AtomicReference<String> disorder) {
            this.name = name;
            this.disorder = disorder;
        }

        void receive(int sender, int seq) {
            if (seq != next[sender]) {
                disorder.compareAndSet(null, name + ", sender " + sender + ": " + seq + " processed where "
                        + next[sender] + " was due");
            }
            next[sender] = seq + 1;
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"abort", "callerRuns"})
    void everyMessageSentIsProcessedOrADeadLetter(String policy) throws Exception {
        SplittableRandom master = new SplittableRandom(policy.hashCode());
        for (int round = 0; round < ROUNDS; round++) {
            round(policy + " round " + round, policy, master.split());
        }
    }

    private static void round(String what, String policy, SplittableRandom rnd) throws Exception {
        RejectedExecutionHandler onFull = policy.equals("abort")
                ? new ThreadPoolExecutor.AbortPolicy() : new ThreadPoolExecutor.CallerRunsPolicy();
        ThreadPoolExecutor executor = new ThreadPoolExecutor(2, 2, 0, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(1 + rnd.nextInt(4)), onFull);
        try {
            List<Throwable> reported = new CopyOnWriteArrayList<>();
            ActorSystem system = ActorSystem.builder().scheduler((Scheduler) executor::execute)
                    .failureHandler((a, f) -> reported.add(f)).build();
            AtomicReference<String> disorder = new AtomicReference<>();
            List<ActorRef<Log>> refs = new ArrayList<>();
            for (int i = 0; i < ACTORS; i++) {
                String name = "actor-" + i;
                refs.add(system.spawn(() -> new Log(name, disorder),
                        ActorConfig.builder().name(name).maxMessagesPerActivation(1 + rnd.nextInt(4)).build()));
            }
            LongAdder sent = new LongAdder();
            List<CompletableFuture<Integer>> asks = new CopyOnWriteArrayList<>();
            AtomicReference<Throwable> unexpected = new AtomicReference<>();
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int s = 0; s < SENDERS; s++) {
                int sender = s;
                long seed = rnd.nextLong();
                threads.add(new Thread(() -> {
                    SplittableRandom local = new SplittableRandom(seed);
                    int[] seq = new int[ACTORS];
                    try {
                        go.await();
                        for (int i = 0; i < PER_SENDER; i++) {
                            int to = local.nextInt(ACTORS);
                            int n = seq[to]++;
                            if (local.nextInt(8) == 0) {
                                asks.add(refs.get(to).ask(log -> {
                                    log.receive(sender, n);
                                    return n;
                                }));
                            } else {
                                refs.get(to).tell(log -> log.receive(sender, n));
                            }
                            sent.increment();
                        }
                    } catch (Throwable e) {
                        unexpected.compareAndSet(null, e);
                    }
                }, "sender-" + s));
            }
            threads.forEach(Thread::start);
            go.countDown();
            for (Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(60));
                assertThat(t.isAlive()).as("%s: %s finished", what, t.getName()).isFalse();
            }
            assertThat(unexpected.get()).as("%s: nothing thrown to a sender", what).isNull();
            for (ActorRef<Log> ref : refs) {
                // A stop refused by a full queue ends the actor as rejected: it completes all the same
                CompletableFuture<Void> stopped = ref.stop();
                assertThat(stopped).as("%s: %s stopped (%s)", what, ref, system.stats())
                        .succeedsWithin(Duration.ofSeconds(30));
            }
            for (CompletableFuture<Integer> ask : asks) {
                assertThat(ask.handle((v, t) -> t == null || t instanceof ActorStoppedException))
                        .as("%s: an ask answered, or failed as stopped", what).isCompletedWithValue(true);
            }
            ActorSystemStats stats = system.stats();
            assertThat(stats.messagesProcessed() + stats.deadLetters())
                    .as("%s: processed + dead letters, of %d sent; %s", what, sent.sum(), stats)
                    .isEqualTo(sent.sum());
            assertThat(stats.liveActors()).as("%s: live actors", what).isZero();
            assertThat(disorder.get()).as("%s: each sender's processed messages, in order", what).isNull();
            assertThat(reported).as("%s: failures reported (a refusal is the ordinary end, not one)", what)
                    .isEmpty();
            system.close();
        } finally {
            executor.shutdownNow();
            assertThat(executor.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
    }
}
