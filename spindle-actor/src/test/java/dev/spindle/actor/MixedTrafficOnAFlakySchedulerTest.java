/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Hints;
import dev.spindle.Scheduler;
import dev.spindle.pool.WorkSharingPool;
import dev.spindle.pool.WorkStealingPool;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

/**
 * The whole of the delivery contract at once, on a scheduler that now and then refuses an
 * activation with an {@code Error} (before or after it queued it) or a bad-hint exception: four
 * senders send tells and asks to four actors (bounded mailboxes or not, budgets of 1 to 4), whose
 * messages fail, leave their thread interrupted or relay a message to the next actor, while
 * senders stop actors and the system is closed under them. Afterwards every ask and every stop
 * has completed, no sender's messages were processed out of order, no message saw an interrupt
 * it did not make, and every message accepted was processed or counted as a dead letter (those
 * whose send threw the scheduler's {@code Error} may have been either: the actor ends as rejected
 * with them queued). Each part has a test of its own; none of them mixes the refusals with
 * everything else. This one found no defect (session 71 review, 200 rounds) and pins the
 * behaviour.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MixedTrafficOnAFlakySchedulerTest {

    static final class Node {
        final long[] last = new long[SENDERS];
        ActorRef<Node> next;

        Node() {
            Arrays.fill(last, -1);
        }
    }

    private static final int SENDERS = 4;
    private static final int ACTORS = 4;
    private static final int PER_SENDER = 1500;

    /** Refuses about one activation in 700: with an Error, with an Error after queueing it, or with a bad hint. */
    static final class Flaky implements Scheduler {
        private final Scheduler pool;

        Flaky(Scheduler pool) {
            this.pool = pool;
        }

        @Override
        public void execute(Runnable task) {
            execute(task, Hints.DEFAULT);
        }

        @Override
        public void execute(Runnable task, Hints hints) {
            switch (ThreadLocalRandom.current().nextInt(2000)) {
                case 0 -> throw new OutOfMemoryError("unable to create native thread (made by the test)");
                case 1 -> {
                    pool.execute(task, hints);
                    throw new OutOfMemoryError("unable to create native thread, task queued (made by the test)");
                }
                case 2 -> throw new IllegalArgumentException("a hint it cannot honour (made by the test)");
                default -> pool.execute(task, hints);
            }
        }
    }

    @RepeatedTest(40)
    void everyMessageIsProcessedOrCountedAndEveryFutureCompletes() throws Exception {
        ThreadLocalRandom rnd = ThreadLocalRandom.current();
        ExecutorService pool = rnd.nextBoolean() ? WorkStealingPool.builder().workers(2).build()
                : WorkSharingPool.builder().workers(2).build();
        ActorSystem system = ActorSystem.builder().scheduler(new Flaky((Scheduler) pool))
                .failureHandler((a, t) -> { }).build();
        AtomicLong accepted = new AtomicLong();      // sends that returned: processed or dead letters
        AtomicLong errors = new AtomicLong();        // sends that threw the scheduler's Error: either, or lost
        AtomicLong processed = new AtomicLong();
        AtomicLong outOfOrder = new AtomicLong();
        AtomicLong strayInterrupts = new AtomicLong();
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<CompletableFuture<?>> futures = new ConcurrentLinkedQueue<>();

        List<ActorRef<Node>> refs = new ArrayList<>();
        for (int i = 0; i < ACTORS; i++) {
            ActorConfig.Builder config = ActorConfig.builder().maxMessagesPerActivation(1 + rnd.nextInt(4));
            if (rnd.nextBoolean()) {
                config.mailboxCapacity(1 + rnd.nextInt(8));
            }
            refs.add(system.spawn(Node::new, config.build()));
        }
        for (int i = 0; i < ACTORS; i++) {
            ActorRef<Node> ref = refs.get(i);
            ActorRef<Node> next = refs.get((i + 1) % ACTORS);
            send(() -> ref.tell(n -> {
                processed.incrementAndGet();
                n.next = next;
            }), accepted, errors, problems);
        }

        CountDownLatch start = new CountDownLatch(1);
        List<Thread> senders = new ArrayList<>();
        for (int s = 0; s < SENDERS; s++) {
            int sender = s;
            senders.add(new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                ThreadLocalRandom r = ThreadLocalRandom.current();
                for (int i = 0; i < PER_SENDER; i++) {
                    ActorRef<Node> ref = refs.get(r.nextInt(ACTORS));
                    long seq = i;
                    int what = r.nextInt(20);
                    Consumer<Node> body = n -> {
                        if (Thread.currentThread().isInterrupted()) {
                            strayInterrupts.incrementAndGet();
                        }
                        processed.incrementAndGet();
                        if (n.last[sender] >= seq) {
                            outOfOrder.incrementAndGet();
                        }
                        n.last[sender] = seq;
                        if (what == 0) {
                            throw new IllegalStateException("a failing message (made by the test)");
                        } else if (what == 1) {
                            Thread.currentThread().interrupt();
                        } else if (what == 2 && n.next != null) {
                            send(() -> n.next.tell(m -> processed.incrementAndGet()), accepted, errors, problems);
                        }
                    };
                    if (r.nextBoolean()) {
                        send(() -> ref.tell(body), accepted, errors, problems);
                    } else {
                        send(() -> futures.add(ref.ask(n -> {
                            body.accept(n);
                            return 1;
                        }).handle((v, t) -> {
                            Throwable why = t instanceof CompletionException ? t.getCause() : t;
                            if (why instanceof MailboxFullException) {
                                accepted.decrementAndGet();      // refused: neither processed nor counted
                            } else if (why != null && !(why instanceof IllegalStateException)) {
                                problems.add("an ask failed with " + why);
                            }
                            return null;
                        })), accepted, errors, problems);
                    }
                    if (r.nextInt(3000) == 0) {
                        try {
                            futures.add(ref.stop());
                        } catch (OutOfMemoryError refused) {
                            // the scheduler's, passed on; the actor ended as rejected
                        }
                    }
                }
            }, "sender-" + s));
        }
        senders.forEach(Thread::start);
        start.countDown();
        if (rnd.nextBoolean()) {
            Thread.sleep(rnd.nextInt(20));
            closeIgnoringRefusals(system);
        }
        for (Thread t : senders) {
            t.join(TimeUnit.SECONDS.toMillis(60));
            assertThat(t.isAlive()).as("%s finished", t.getName()).isFalse();
        }
        closeIgnoringRefusals(system);
        for (ActorRef<Node> ref : refs) {
            futures.add(stopIgnoringRefusal(ref));
        }
        for (CompletableFuture<?> f : futures) {
            assertThat(f).as("an ask or a stop").succeedsWithin(30, TimeUnit.SECONDS);
        }
        pool.shutdown();
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();

        ActorSystemStats stats = system.stats();
        assertThat(problems).isEmpty();
        assertThat(outOfOrder.get()).as("messages processed out of their sender's order").isZero();
        assertThat(strayInterrupts.get()).as("messages that found their thread interrupted").isZero();
        assertThat(stats.liveActors()).isZero();
        assertThat(stats.messagesProcessed()).as("processed, as the actors saw it").isEqualTo(processed.get());
        assertThat(stats.messagesProcessed() + stats.deadLetters()).as("processed or dead letters")
                .isBetween(accepted.get(), accepted.get() + errors.get());
    }

    private static void send(Runnable send, AtomicLong accepted, AtomicLong errors, ConcurrentLinkedQueue<String> problems) {
        try {
            accepted.incrementAndGet();
            send.run();
        } catch (MailboxFullException full) {
            accepted.decrementAndGet();                // the sender is told: not enqueued, not counted
        } catch (OutOfMemoryError refused) {
            accepted.decrementAndGet();
            errors.incrementAndGet();
        } catch (RuntimeException | Error e) {
            accepted.decrementAndGet();
            problems.add("a send threw " + e);
        }
    }

    private static void closeIgnoringRefusals(ActorSystem system) {
        try {
            system.close();
        } catch (OutOfMemoryError refused) {
            // a stop the scheduler refused: that actor ended as rejected, close went on with the others
        }
    }

    private static CompletableFuture<Void> stopIgnoringRefusal(ActorRef<Node> ref) {
        try {
            return ref.stop();
        } catch (OutOfMemoryError refused) {
            return ref.stop();                         // ended as rejected: completes now
        }
    }
}
