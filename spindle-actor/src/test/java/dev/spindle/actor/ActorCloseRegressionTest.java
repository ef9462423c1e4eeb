/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Defects of the close and stop paths found in a review of {@link ActorSystem#close()} and the
 * bounded mailbox: each test failed on the code before its fix (review-before-after.txt of the
 * review's session).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ActorCloseRegressionTest {

    static final class Recorder {
        final List<Integer> seen = new ArrayList<>();
    }

    /**
     * Defect 1: close() stopped the actors in a plain loop. An actor's {@code stop()} throws when
     * the scheduler refuses the stop's activation with an Error (passed on to the caller, as
     * {@code tell} does; the actor ends as rejected), and that Error left the loop: the actors
     * after it were never stopped, and stayed live for good, since a second close() does not
     * stop actors again. (The actor API has no user stop hook: the scheduler is the only code
     * {@code stop()} runs that can throw.)
     */
    @Test
    void anErrorFromOneActorsStopDoesNotKeepCloseFromStoppingTheOthers() {
        TestSchedulers.ErrorThenManual scheduler = new TestSchedulers.ErrorThenManual(0);
        ActorSystem system = ActorSystem.create(scheduler);
        List<ActorRef<Recorder>> refs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            refs.add(system.spawn(Recorder::new, ActorConfig.builder().name("idle-" + i).build()));
        }
        scheduler.failures.set(2);                 // the first two stops' activations are refused

        Throwable thrown = catchThrowable(system::close);
        scheduler.manual.runAll();                 // the stops the scheduler took

        assertThat(refs).as("actors stopped once close() returned (refused or processed)")
                .allSatisfy(r -> assertThat(r.isStopped()).as("%s stopped", r).isTrue());
        assertThat(system.stats().liveActors()).isZero();
        assertThat(scheduler.thrown).hasSize(2);
        assertThat(thrown).as("close() throws the first Error, the later one suppressed")
                .isSameAs(scheduler.thrown.get(0));
        assertThat(thrown.getSuppressed()).containsExactly(scheduler.thrown.get(1));
    }

    /**
     * Defect 2: the stop envelope ignores a bounded mailbox's bound but is counted in its size.
     * A message sent after {@code stop()} and before the actor processed the stop therefore found
     * the mailbox full whenever the stop had taken its last slot (or gone past it): {@code tell}
     * threw {@link MailboxFullException} and {@code ask} failed with it, and neither counted a
     * dead letter. The same message to an unbounded mailbox, or to a bounded one with room, is a
     * dead letter (an {@link ActorStoppedException} for the ask): the sender was told to back off
     * from an actor that had stopped.
     */
    @Test
    void aMessageSentAfterStopToAFullBoundedMailboxIsADeadLetterNotMailboxFull() {
        TestSchedulers.Manual scheduler = new TestSchedulers.Manual();
        try (ActorSystem system = ActorSystem.create(scheduler)) {
            ActorRef<Recorder> r = system.spawn(Recorder::new,
                    ActorConfig.builder().name("bounded").mailboxCapacity(2).build());
            r.tell(x -> x.seen.add(1));            // one slot taken; the activation is queued, not run
            CompletableFuture<Void> stopped = r.stop();   // the stop takes the last slot

            Throwable toldAfterStop = catchThrowable(() -> r.tell(x -> x.seen.add(2)));
            CompletableFuture<Integer> askedAfterStop = r.ask(x -> x.seen.size());
            Throwable askFailure = askedAfterStop.handle((v, t) -> t).getNow(null);
            scheduler.runAll();

            assertThat(toldAfterStop).as("tell after stop() to a mailbox the stop filled").isNull();
            assertThat(askFailure).as("ask after stop() to a mailbox the stop filled")
                    .isInstanceOf(ActorStoppedException.class);
            assertThat(stopped).isCompleted();
            assertThat(system.stats()).as("the tell before the stop processed; the tell and ask after it dead letters")
                    .isEqualTo(new ActorSystemStats(1, 2, 0));
        }
    }
}
