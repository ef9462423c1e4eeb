/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.spindle.Scheduler;
import dev.spindle.actor.ActorRef;
import dev.spindle.actor.ActorSystem;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The actor activation protocol (see {@code ActorCell} in spindle-actor): a message that arrives
 * while the actor's activation is ending must either be run by that activation or cause a new
 * one. Here a sender tells a message while the holder of the current activation runs it to the
 * end (drains the mailbox, marks the actor idle, re-checks). Afterwards the arbiter runs whatever
 * activation was scheduled meanwhile, and looks at the actor's state.
 *
 * <p>Results: {@code r1} is the actor's total (1 for the message told before the race, 10 for
 * the one told during it: 11 if both ran); {@code r2} is the number of activations scheduled
 * during the race (0 if the running activation took the message, 1 if the sender re-activated).
 */
public final class ActorActivationTests {

    private ActorActivationTests() {
    }

    /** A scheduler that only records what it is given, so the test decides who runs what. */
    static final class Recorder implements Scheduler {
        final ConcurrentLinkedQueue<Runnable> queued = new ConcurrentLinkedQueue<>();

        @Override
        public void execute(Runnable task) {
            queued.add(task);
        }
    }

    @JCStressTest
    @Description("A tell racing with the end of the actor's activation: the message runs, or a new activation is scheduled.")
    @Outcome(id = "11, 0", expect = ACCEPTABLE, desc = "the running activation saw the message and ran it")
    @Outcome(id = "11, 1", expect = ACCEPTABLE, desc = "the sender saw the actor idle and re-activated it")
    @Outcome(id = "1, 0", expect = FORBIDDEN, desc = "STRANDED MESSAGE: not run, and no activation scheduled")
    @Outcome(id = "1, 1", expect = FORBIDDEN, desc = "the new activation did not run the message")
    @Outcome(expect = FORBIDDEN, desc = "a message lost, run twice, or two activations at once")
    @State
    public static class TellVsDeactivate {
        final Recorder scheduler = new Recorder();
        final ActorSystem system = ActorSystem.create(scheduler);
        final int[] total = new int[1];
        final ActorRef<int[]> ref = system.spawn(() -> total);
        final Runnable activation;

        public TellVsDeactivate() {
            ref.tell(t -> t[0] += 1);                 // activates: the recorder holds the activation
            activation = scheduler.queued.poll();
        }

        @Actor
        public void sender() {
            ref.tell(t -> t[0] += 10);
        }

        @Actor
        public void holder() {
            activation.run();                         // drains, goes idle, re-checks the mailbox
        }

        @Arbiter
        public void arbiter(II_Result r) {
            int scheduled = 0;
            for (Runnable a; (a = scheduler.queued.poll()) != null; ) {
                scheduled++;
                a.run();
            }
            r.r1 = total[0];
            r.r2 = scheduled;
        }
    }
}
