/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import static dev.spindle.console.ConsoleTest.get;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.actor.ActorConfig;
import dev.spindle.actor.ActorRef;
import dev.spindle.SchedulerStats;
import dev.spindle.actor.ActorSystem;
import dev.spindle.cluster.ClusterStats;
import dev.spindle.cluster.ClusterView;
import dev.spindle.cluster.StealEvent;
import dev.spindle.cluster.TaskEvent;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Defects found in a review of what the console samples and sends: each test failed on the code
 * before its fix (docs/measurements/2026-11-29-s26/io-console-review-before-after.txt).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConsoleSamplingRegressionTest {

    /** Long enough that every sample holding it whole is a megabyte. */
    private static final String LONG = "x".repeat(1_000_000);

    /** The snapshot once it contains {@code text}; the test's timeout fails a console that never shows it. */
    private static String snapshotWith(Console console, String text) throws Exception {
        String snapshot;
        do {
            snapshot = get(console.uri().resolve("/snapshot")).body();
        } while (!snapshot.contains(text));
        return snapshot;
    }

    /**
     * The sampler caught only a RuntimeException of a source. An Error (here a class missing from
     * the class path, as a cluster transport's optional dependency can be) escaped the periodic
     * sample, and a periodic task that throws is never run again: every page froze on the last
     * sample for good, without a word.
     */
    @Test
    @Timeout(value = 15, unit = TimeUnit.SECONDS)
    void aSourceThatThrowsAnErrorShowsItAndTheSamplingGoesOn() throws Exception {
        try (Console console = Console.builder().withoutToken().interval(Duration.ofMillis(50)).start()) {
            console.register("broken", () -> {
                throw new NoClassDefFoundError("com/example/Missing");
            });
            assertThat(snapshotWith(console, "\"broken\"")).contains("\"kind\":\"error\"")
                    .contains("NoClassDefFoundError");
        }
    }

    /**
     * Texts of the application's other than the registered names were sent whole in every sample
     * to every page: a source's error text, an actor's name. One long one made each sample of
     * each open page as long (here a megabyte a sample); the async source clips its texts to
     * {@code MAX_TEXT}, these were not.
     */
    @Test
    void anErrorTextAndAnActorNameAreClipped() throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        CompletableFuture<Void> release = new CompletableFuture<>();
        try (ActorSystem system = ActorSystem.builder().name("mail").build();
                Console console = Console.builder().withoutToken().interval(Duration.ofMillis(50)).start()) {
            try {
                console.register("broken", () -> {
                    throw new IllegalStateException(LONG);
                });
                console.register("mail", system);
                ActorRef<Object> busy = system.spawn(Object::new, ActorConfig.builder().name("y".repeat(1_000_000)).build());
                busy.tell(a -> {
                    inside.countDown();
                    release.orTimeout(30, TimeUnit.SECONDS).exceptionally(t -> null).join();
                });
                assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();
                busy.tell(a -> { });
                String snapshot = snapshotWith(console, "\"depth\":1");
                assertThat(snapshot).contains("\"kind\":\"error\"").contains("\"actor\":\"yyy");
                assertThat(snapshot.length()).as("length of a sample").isLessThan(10_000);
            } finally {
                release.complete(null);
            }
        }
    }

    /** The same for a cluster's task keys, which the steal and task logs carry. */
    @Test
    void aClustersTaskKeysAreClipped() {
        long now = System.nanoTime();
        ClusterView view = new ClusterView() {
            @Override
            public ClusterStats stats() {
                return new ClusterStats(List.of(), 0, 0, 0, 0, 0, 0, 0);
            }

            @Override
            public List<StealEvent> stealEvents() {
                return List.of(new StealEvent(1, LONG, 0, 1, 0, StealEvent.Outcome.values()[0], now));
            }

            @Override
            public List<TaskEvent> taskEvents() {
                return List.of(new TaskEvent(1, LONG, 0, now, now, false));
            }
        };
        StringBuilder sb = new StringBuilder();
        new ClusterSource("c", view).sample(sb, now, new ThreadCpu());
        assertThat(sb.toString()).contains("\"key\":\"xxx");
        assertThat(sb.length()).as("length of a sample").isLessThan(10_000);
    }

    /**
     * The same for a scheduler's own name ({@code SchedulerStats.name()}, a pool's or runtime's
     * builder name, of any length), the "scheduler" field of its every sample. Found by review
     * (session 40).
     */
    @Test
    void aSchedulersOwnNameIsClipped() {
        SchedulerStats stats = new SchedulerStats(LONG, 1, 1, 0, 0,
                List.of(new SchedulerStats.WorkerStats(0, false, 0, 0, 0, 0, 0, 0, 0, 0)));
        StringBuilder sb = new StringBuilder();
        new SchedulerSource("long", () -> stats).sample(sb, System.nanoTime(), new ThreadCpu());
        assertThat(sb.toString()).contains("\"scheduler\":\"xxx");
        assertThat(sb.length()).as("length of a sample").isLessThan(10_000);
    }
}
