/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;

/**
 * Random sequences of tell, ask, stop and "run the next activation" on a one-worker scheduler
 * the test drives, checked step by step against a model of the mailbox and the activation
 * protocol: which messages run and in what order, how many per activation, which are dead
 * letters, which are refused by a bounded mailbox, and when an activation is queued.
 */
class ActorPropertiesTest {

    enum Op { TELL, ASK, STOP, RUN }

    @Provide
    Arbitrary<List<Op>> ops() {
        return Arbitraries.frequencyOf(
                        Tuple.of(6, Arbitraries.just(Op.TELL)),
                        Tuple.of(3, Arbitraries.just(Op.ASK)),
                        Tuple.of(1, Arbitraries.just(Op.STOP)),
                        Tuple.of(4, Arbitraries.just(Op.RUN)))
                .list().ofMinSize(1).ofMaxSize(80);
    }

    /** The model: the mailbox as a queue of message ids, -1 standing for the stop envelope. */
    static final class Model {
        final ArrayDeque<Integer> mailbox = new ArrayDeque<>();
        final List<Integer> processed = new ArrayList<>();
        final int budget;
        final int capacity;
        boolean active;
        boolean stopRequested;
        boolean stopped;
        int queuedActivations;
        long deadLetters;

        Model(int budget, int capacity) {
            this.budget = budget;
            this.capacity = capacity;
        }

        /** Returns false if a bounded mailbox refuses the message. */
        boolean send(int id) {
            if (stopped) {
                deadLetters++;
                return true;
            }
            if (id >= 0 && mailbox.size() >= capacity) {
                if (stopRequested) {            // behind the stop: a dead letter, not "full"
                    deadLetters++;
                    return true;
                }
                return false;
            }
            mailbox.add(id);
            if (!active) {
                active = true;
                queuedActivations++;
            }
            return true;
        }

        void runActivation() {
            queuedActivations--;
            for (int n = 0; n < budget && !mailbox.isEmpty(); n++) {
                take(mailbox.poll());
            }
            if (mailbox.isEmpty()) {
                active = false;
            } else if (stopped) {               // an ended actor is drained, not rescheduled
                while (!mailbox.isEmpty()) {
                    take(mailbox.poll());
                }
                active = false;
            } else {
                queuedActivations++;            // budget spent, messages remain: resubmitted
            }
        }

        private void take(int id) {
            if (stopped) {
                if (id >= 0) {
                    deadLetters++;
                }
            } else if (id < 0) {
                stopped = true;
            } else {
                processed.add(id);
            }
        }
    }

    private static Throwable failure(CompletableFuture<?> f) {
        return f.handle((v, t) -> t).join();
    }

    @Property(tries = 400)
    void matchesTheMailboxAndActivationModel(@ForAll("ops") List<Op> ops,
                                             @ForAll @IntRange(min = 1, max = 4) int budget,
                                             @ForAll @IntRange(min = 0, max = 4) int bound) {
        int capacity = bound == 0 ? ActorConfig.UNBOUNDED : bound;
        TestSchedulers.Manual scheduler = new TestSchedulers.Manual();
        ActorSystem system = ActorSystem.builder().scheduler(scheduler)
                .failureHandler((a, t) -> { throw new AssertionError("no message fails here", t); }).build();
        List<Integer> processed = new ArrayList<>();
        ActorRef<List<Integer>> ref = system.spawn(() -> processed,
                ActorConfig.builder().maxMessagesPerActivation(budget).mailboxCapacity(capacity).build());
        Model model = new Model(budget, capacity);
        List<CompletableFuture<Integer>> asks = new ArrayList<>();
        List<Boolean> askExpectedToRun = new ArrayList<>();
        int next = 0;
        for (Op op : ops) {
            switch (op) {
                case TELL -> {
                    int id = next++;
                    boolean accepted = model.send(id);
                    boolean refused = false;
                    try {
                        ref.tell(l -> l.add(id));
                    } catch (MailboxFullException e) {
                        refused = true;
                    }
                    assertThat(refused).as("tell %d refused", id).isEqualTo(!accepted);
                }
                case ASK -> {
                    int id = next++;
                    boolean accepted = model.send(id);
                    CompletableFuture<Integer> f = ref.ask(l -> {
                        l.add(id);
                        return id;
                    });
                    if (!accepted) {
                        assertThat(f).isCompletedExceptionally();
                        assertThat(failure(f)).isInstanceOf(MailboxFullException.class);
                    } else {
                        asks.add(f);
                    }
                }
                case STOP -> {
                    if (!model.stopRequested) {
                        model.stopRequested = true;
                        model.send(-1);
                    }
                    ref.stop();
                }
                case RUN -> {
                    boolean ran = scheduler.runOne();
                    assertThat(ran).isEqualTo(model.queuedActivations > 0);
                    if (ran) {
                        model.runActivation();
                    }
                }
            }
            assertThat(scheduler.queued()).as("queued activations after %s", op).isEqualTo(model.queuedActivations);
            assertThat(processed).isEqualTo(model.processed);
            assertThat(ref.isStopped()).isEqualTo(model.stopped);
            assertThat(system.stats().deadLetters()).isEqualTo(model.deadLetters);
            assertThat(system.stats().messagesProcessed()).isEqualTo(model.processed.size());
        }
        // every ask accepted is answered with its id if it ran, or failed if it became a dead letter
        while (scheduler.runOne()) {
            model.runActivation();
        }
        assertThat(processed).isEqualTo(model.processed);
        for (CompletableFuture<Integer> f : asks) {
            assertThat(f).isDone();
            if (!f.isCompletedExceptionally()) {
                assertThat(processed).contains(f.join());
            } else {
                assertThat(failure(f)).isInstanceOf(ActorStoppedException.class);
            }
        }
    }
}
