/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static dev.spindle.testkit.JfrCapture.named;
import static dev.spindle.testkit.JfrCapture.record;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The actor events name the actor's system as well as the actor: default actor names are a
 * sequence per system ({@code actor-1}, {@code actor-2}, ...), so two systems in one JVM have
 * actors of the same name, which the recording could not tell apart by the actor's name alone.
 *
 * <p>Each test gives the two systems' {@code actor-1} a different amount of work, so that each
 * event's numbers show which actor it came from, and checks that its system field names that
 * actor's system (not merely some system).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ActorJfrEventsNameTheirSystemTest {

    private static final String ACTIVATION = "dev.spindle.ActorActivation";
    private static final String DEPTH = "dev.spindle.MailboxDepth";

    /** An actor that can be held inside a message until a latch opens. */
    static final class Held {
        void await(CountDownLatch latch) {
            try {
                latch.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Test
    void activationEventsOfSameNamedActorsNameEachActorsSystem() throws Exception {
        // one activation each (threshold zero): the held message, the tells queued behind it, the ask
        ActorConfig config = ActorConfig.builder().maxMessagesPerActivation(100).build();
        List<RecordedEvent> events = record(() -> runTwoSameNamedActors(config), ACTIVATION);

        Map<String, List<Integer>> messagesBySystem = actorOnesBySystem(events, ACTIVATION, e -> e.getInt("messages"));
        assertThat(messagesBySystem).containsOnlyKeys("alpha", "beta");
        // held message + tells + ask, taken in the one activation the latch held open; and the
        // stop of the systems' close, when it arrives before that activation has given the actor
        // up (the ask is answered inside it): an activation counts the stop it takes
        assertThat(messagesBySystem.get("alpha")).anySatisfy(n -> assertThat(n).isIn(1 + 3 + 1, 1 + 3 + 1 + 1))
                .allSatisfy(n -> assertThat(n).isLessThan(1 + 6 + 1));
        assertThat(messagesBySystem.get("beta")).anySatisfy(n -> assertThat(n).isIn(1 + 6 + 1, 1 + 6 + 1 + 1));
    }

    @Test
    void mailboxDepthEventsOfSameNamedActorsNameEachActorsSystem() throws Exception {
        // one message per activation, so each one after the held message begins with the rest waiting
        ActorConfig config = ActorConfig.builder().maxMessagesPerActivation(1).mailboxCapacity(100).build();
        List<RecordedEvent> events = record(Map.of(DEPTH + "#depth", "2"), () -> runTwoSameNamedActors(config), DEPTH);

        Map<String, List<Long>> depthsBySystem = actorOnesBySystem(events, DEPTH, e -> e.getLong("depth"));
        assertThat(depthsBySystem).containsOnlyKeys("alpha", "beta");
        // a bounded mailbox is counted exactly: the tells and the ask wait behind the held message
        assertThat(depthsBySystem.get("alpha")).contains(3L + 1).allSatisfy(d -> assertThat(d).isLessThan(7));
        assertThat(depthsBySystem.get("beta")).contains(6L + 1);
    }

    /**
     * The work both tests record: systems {@code alpha} and {@code beta}, each with one actor made
     * by {@code config}, both therefore named {@code actor-1}; alpha's is held in a message while 3
     * tells and an ask queue behind it, beta's while 6 do; then both are let go, their asks
     * awaited and the systems closed.
     */
    private static void runTwoSameNamedActors(ActorConfig config) throws Exception {
        try (ActorSystem alpha = ActorSystem.builder().name("alpha").build();
                ActorSystem beta = ActorSystem.builder().name("beta").build()) {
            ActorRef<Held> a = alpha.spawn(Held::new, config);
            ActorRef<Held> b = beta.spawn(Held::new, config);
            assertThat(a.name()).isEqualTo(b.name()).isEqualTo("actor-1");
            CountDownLatch go = new CountDownLatch(1);
            CompletableFuture<?> doneA = heldThenQueued(a, go, 3);
            CompletableFuture<?> doneB = heldThenQueued(b, go, 6);
            go.countDown();
            doneA.get(10, TimeUnit.SECONDS);
            doneB.get(10, TimeUnit.SECONDS);
        }
    }

    /**
     * The {@code value} of each of {@code actor-1}'s events of type {@code type}, grouped by the
     * system the event names.
     */
    private static <T> Map<String, List<T>> actorOnesBySystem(List<RecordedEvent> events, String type,
            Function<RecordedEvent, T> value) {
        return named(events, type).stream()
                .filter(e -> e.getString("actor").equals("actor-1"))
                .collect(Collectors.groupingBy(e -> e.getString("actorSystem"),
                        Collectors.mapping(value, Collectors.toList())));
    }

    /**
     * Holds {@code actor} in a message until {@code go} opens, then queues {@code tells} empty
     * messages and an ask behind it; returns the ask's future.
     */
    private static CompletableFuture<?> heldThenQueued(ActorRef<Held> actor, CountDownLatch go, int tells) {
        actor.tell(h -> h.await(go));
        for (int i = 0; i < tells; i++) {
            actor.tell(h -> { });
        }
        return actor.ask(h -> 1);
    }
}
