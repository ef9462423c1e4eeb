/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.StealEvent;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code spindle cluster} shows the steal events as they happen. The cluster's steal log keeps its
 * most recent 10,000 events, and the demo took the events past the log's size at the previous
 * report as the new ones: once the log was full its size stayed 10,000 and no steal event was
 * shown again, for the rest of a run that went on stealing ({@code --tasks 20000 --millis 2}:
 * 15,000 steals, events shown in the first report only). Found by review; the first test failed
 * before the fix (no event after the log was full).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClusterDemoStealEventsTest {

    private static StealEvent event(long id) {
        return new StealEvent(id, "map-" + id, 0, 1, 0, StealEvent.Outcome.CONFIRMED, id);
    }

    @Test
    void eventsAddedToAFullLogAreNew() {
        StealEvent e1 = event(1);
        StealEvent e2 = event(2);
        StealEvent e3 = event(3);
        StealEvent e4 = event(4);
        ClusterCommand.NewStealEvents steals = new ClusterCommand.NewStealEvents();
        assertThat(steals.next(List.of(e1, e2, e3))).containsExactly(e1, e2, e3);
        // a log of three: e4 pushed e1 out, and its size stayed the same
        assertThat(steals.next(List.of(e2, e3, e4))).containsExactly(e4);
        assertThat(steals.missedSome()).isFalse();
        assertThat(steals.next(List.of(e2, e3, e4))).isEmpty();
    }

    @Test
    void aLogThatMovedPastTheLastEventShownIsNewAndSaysSomeMayHaveGoneUnshown() {
        ClusterCommand.NewStealEvents steals = new ClusterCommand.NewStealEvents();
        assertThat(steals.next(List.of())).isEmpty();
        assertThat(steals.next(List.of(event(1), event(2)))).hasSize(2);
        List<StealEvent> later = List.of(event(6), event(7), event(8));
        assertThat(steals.next(later)).containsExactlyElementsOf(later);
        assertThat(steals.missedSome()).isTrue();
        assertThat(steals.next(later)).isEmpty();
        assertThat(steals.missedSome()).isFalse();
    }

    @Test
    void theDemoComputesItsGraphAndSaysSo() {
        CliOutcome r = CliOutcome.run("cluster", "--workers", "2", "--threads", "1", "--tasks", "5", "--millis", "1",
                "--every", "10");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("result 10 (correct)");
    }
}
