/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.bench.workload.Size;
import dev.spindle.bench.workload.WrongResultException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every actor workload, at its tiny size, on every actor runtime, computes the known answer. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ActorWorkloadsTest {

    /** The answers at {@link Size#TINY}, written out so the tests do not trust the workloads' own. */
    private static final Map<String, Long> TINY_ANSWERS = Map.of(
            "pingpong", 400L,                 // 200 pings + 200 pongs
            "threadring", 1_001L,             // 1,000 hops: the token is received 1,001 times
            "chameneos", 1_000L,              // 500 meetings, two creatures each
            "big", 500L,                      // 10 actors x 50 pings, one pong each
            "fjthrput", 600L,                 // 100 messages x 6 actors
            "count", 1_000L,
            "tell-only", 1_000L);             // 2 senders x 500

    private final Map<String, ActorKit> kits = new LinkedHashMap<>();

    @BeforeAll
    void openKits() {
        for (ActorKits.Spec s : ActorKits.all()) {
            kits.put(s.id(), s.open(3));
        }
    }

    @AfterAll
    void closeKits() {
        kits.values().forEach(ActorKit::close);
    }

    static Stream<Arguments> everyPair() {
        List<Arguments> list = new ArrayList<>();
        for (String kit : ActorKits.ids()) {
            for (String w : ActorWorkloads.names()) {
                list.add(Arguments.of(kit, w));
            }
        }
        return list.stream();
    }

    @Test
    void everyWorkloadHasAWrittenOutAnswer() {
        assertThat(TINY_ANSWERS.keySet()).containsExactlyInAnyOrderElementsOf(ActorWorkloads.names());
    }

    @ParameterizedTest(name = "{1} on {0}")
    @MethodSource("everyPair")
    void computesTheKnownAnswer(String kit, String name) {
        ActorWorkload w = ActorWorkloads.create(name, Size.TINY);
        assertThat(w.expected()).isEqualTo(TINY_ANSWERS.get(name));
        // twice on the same long-lived kit: the first run's actors are stopped, nothing leaks over
        assertThat(w.run(kits.get(kit))).isEqualTo(TINY_ANSWERS.get(name));
        assertThat(w.run(kits.get(kit))).isEqualTo(TINY_ANSWERS.get(name));
        assertThat(kits.get(kit).firstFailure()).isNull();
    }

    @Test
    void sizesGrowFromTinyToFull() {
        for (String name : ActorWorkloads.names()) {
            long tiny = ActorWorkloads.create(name, Size.TINY).messages();
            long quick = ActorWorkloads.create(name, Size.QUICK).messages();
            long full = ActorWorkloads.create(name, Size.FULL).messages();
            assertThat(tiny).as(name).isLessThan(quick);
            assertThat(quick).as(name).isLessThanOrEqualTo(full);
        }
    }

    /** Each workload's figures at TINY and at QUICK, as the registry gave them (FULL's: the test below). */
    @Test
    void tinyAndQuickSizesAreTheRecordedOnes() {
        Map<String, List<String>> recorded = Map.of(
                "pingpong", List.of("pingpong(200 pings)", "pingpong(40,000 pings)"),
                "threadring", List.of("threadring(10 actors x 1,000 hops)", "threadring(100 actors x 100,000 hops)"),
                "chameneos", List.of("chameneos(10 chameneos x 500 meetings)",
                        "chameneos(100 chameneos x 100,000 meetings)"),
                "big", List.of("big(10 actors x 50 pings)", "big(120 actors x 5,000 pings)"),
                "fjthrput", List.of("fjthrput(100 messages x 6 actors)", "fjthrput(10,000 messages x 60 actors)"),
                "count", List.of("count(1,000 increments)", "count(1,000,000 increments)"),
                "tell-only", List.of("tell-only(2 senders x 500 messages -> 1 actor)",
                        "tell-only(4 senders x 250,000 messages -> 1 actor)"));
        assertThat(recorded.keySet()).containsExactlyInAnyOrderElementsOf(ActorWorkloads.names());
        for (String name : ActorWorkloads.names()) {
            assertThat(ActorWorkloads.create(name, Size.TINY).describe()).as(name).isEqualTo(recorded.get(name).get(0));
            assertThat(ActorWorkloads.create(name, Size.QUICK).describe()).as(name).isEqualTo(recorded.get(name).get(1));
        }
    }

    @Test
    void fullSizesAreSavinas() {
        assertThat(ActorWorkloads.create("pingpong", Size.FULL).describe()).isEqualTo("pingpong(40,000 pings)");
        assertThat(ActorWorkloads.create("threadring", Size.FULL).describe())
                .isEqualTo("threadring(100 actors x 100,000 hops)");
        assertThat(ActorWorkloads.create("chameneos", Size.FULL).describe())
                .isEqualTo("chameneos(100 chameneos x 200,000 meetings)");
        assertThat(ActorWorkloads.create("big", Size.FULL).describe()).isEqualTo("big(120 actors x 20,000 pings)");
        assertThat(ActorWorkloads.create("fjthrput", Size.FULL).describe())
                .isEqualTo("fjthrput(10,000 messages x 60 actors)");
        assertThat(ActorWorkloads.create("count", Size.FULL).describe()).isEqualTo("count(1,000,000 increments)");
    }

    @Test
    void aDroppedMessageIsAWrongResult() {
        ActorKit faulty = new FaultyKit(kits.get("pekko-t5"), FaultyKit.Fault.DROP, 0, 10);   // the counter's 10th increment
        assertThatThrownBy(() -> ActorWorkloads.create("count", Size.TINY).run(faulty))
                .isInstanceOf(WrongResultException.class)
                .hasMessageContaining("expected 1000 but computed 999");
    }

    @Test
    void aDuplicatedMessageIsAWrongResult() {
        ActorKit faulty = new FaultyKit(kits.get("pekko-t5"), FaultyKit.Fault.DUPLICATE, 3, 7);
        assertThatThrownBy(() -> ActorWorkloads.create("fjthrput", Size.TINY).run(faulty))
                .isInstanceOf(WrongResultException.class)
                .hasMessageContaining("expected 600 but computed 601");
    }

    @Test
    void aThrowingHandlerFailsTheRunAtOnce() {
        try (ActorKit k = new FaultyKit(ActorKits.byId("pekko-t5").open(2), FaultyKit.Fault.THROW, 4, 3)) {
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> ActorWorkloads.create("threadring", Size.TINY).run(k))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("a handler threw")
                    .hasRootCauseMessage("injected failure");
            assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0)).isLessThan(10);
        }
    }

    @Test
    void unknownNamesAreRefusedNamingTheValidOnes() {
        assertThatThrownBy(() -> ActorWorkloads.create("nope", Size.TINY))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown actor workload 'nope'; valid: pingpong, threadring, chameneos, big, fjthrput, count,"
                        + " tell-only");
        assertThatThrownBy(() -> ActorKits.byId("nope"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("pekko-t5");
    }

    @Test
    void pekkoRunsWithTheConfiguredDispatcher() {
        PekkoActorKit k = (PekkoActorKit) kits.get("pekko-t100");
        assertThat(k.settings().getInt("pekko.actor.default-dispatcher.throughput")).isEqualTo(100);
        assertThat(k.settings().getString("pekko.actor.default-dispatcher.executor")).isEqualTo("fork-join-executor");
        assertThat(k.settings().getInt("pekko.actor.default-dispatcher.fork-join-executor.parallelism-max")).isEqualTo(3);
        assertThat(((PekkoActorKit) kits.get("pekko-t5")).settings()
                .getInt("pekko.actor.default-dispatcher.throughput")).isEqualTo(5);
    }
}
