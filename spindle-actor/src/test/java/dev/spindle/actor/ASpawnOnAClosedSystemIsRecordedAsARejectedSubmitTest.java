/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static dev.spindle.testkit.JfrCapture.named;
import static dev.spindle.testkit.JfrCapture.record;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.pool.WorkSharingPool;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A spawn on a closed system throws {@link RejectedExecutionException}, as a pool's, a union's and
 * the async runtime's submits after shutdown do, but it alone recorded no {@code RejectedSubmit}
 * event, so a recording showed every refused task but the refused actors. A message to an actor
 * the close stopped is a dead letter, not a refused submit, and records none.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ASpawnOnAClosedSystemIsRecordedAsARejectedSubmitTest {

    private static final String EVENT = "dev.spindle.RejectedSubmit";

    @Test
    void aSpawnAfterTheCloseIsRecordedOnTheSpawnersThread() throws Exception {
        ActorSystem system = ActorSystem.builder().name("shut-jfr").build();
        ActorRef<StringBuilder> before = system.spawn(StringBuilder::new);
        system.close();
        List<RecordedEvent> events = record(() -> {
            assertThatThrownBy(() -> system.spawn(StringBuilder::new))
                    .isInstanceOf(RejectedExecutionException.class).hasMessage("actor system 'shut-jfr' is closed");
            before.tell(sb -> sb.append('x'));          // a dead letter: no event
        }, EVENT);

        assertThat(system.stats().deadLetters()).as("the tell, a dead letter").isEqualTo(1);
        assertThat(named(events, EVENT)).singleElement().satisfies(e -> {
            assertThat(e.getString("scheduler")).isEqualTo("shut-jfr");
            assertThat(e.getString("reason")).isEqualTo("actor system 'shut-jfr' is closed");
            assertThat(e.getThread().getJavaName()).isEqualTo(Thread.currentThread().getName());
            assertThat(e.getStackTrace().getFrames()).anySatisfy(f -> assertThat(f.getMethod().getType().getName())
                    .isEqualTo(ASpawnOnAClosedSystemIsRecordedAsARejectedSubmitTest.class.getName()));
        });
    }

    /** The system closes while the factory runs: the spawn that finds it closed afterwards records it too. */
    @Test
    void aSpawnWhoseSystemClosesWhileItsFactoryRunsIsRecorded() throws Exception {
        try (WorkSharingPool pool = WorkSharingPool.builder().workers(1).name("closing-jfr-pool").build()) {
            ActorSystem system = ActorSystem.builder().name("closing-jfr").scheduler(pool).build();
            AtomicReference<ActorRef<StringBuilder>> made = new AtomicReference<>();
            List<RecordedEvent> events = record(() -> assertThatThrownBy(() -> system.<StringBuilder>spawnWithSelf(self -> {
                made.set(self);
                system.close();               // a caller-owned scheduler: close() does not wait
                return new StringBuilder();
            })).isInstanceOf(RejectedExecutionException.class), EVENT);
            made.get().stop().get(30, TimeUnit.SECONDS);

            assertThat(named(events, EVENT)).singleElement().satisfies(e -> {
                assertThat(e.getString("scheduler")).isEqualTo("closing-jfr");
                assertThat(e.getString("reason")).isEqualTo("actor system 'closing-jfr' is closed");
            });
        }
    }
}
