/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.cluster.ClusterStats;
import dev.spindle.cluster.ClusterView;
import dev.spindle.cluster.StealEvent;
import dev.spindle.cluster.TaskEvent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A cluster's steal events and task runs are sent once, in the sample after they were logged.
 * The cursors through the two logs moved on as each list was written, before the rest of the
 * sample: a task run whose key was null (an accessor of the application's that throws) failed
 * the sample after the steal events had been passed, the console showed the error instead, and
 * the next sample started after those events: they never reached a page.
 */
class FailedClusterSampleKeepsItsEventsTest {

    private final List<StealEvent> steals = new ArrayList<>();
    private final List<TaskEvent> runs = new ArrayList<>();

    private final ClusterView cluster = new ClusterView() {
        @Override
        public ClusterStats stats() {
            return new ClusterStats(List.of(), 0, 0, 0, 0, 0, 0, 0);
        }

        @Override
        public List<StealEvent> stealEvents() {
            return new ArrayList<>(steals);
        }

        @Override
        public List<TaskEvent> taskEvents() {
            return new ArrayList<>(runs);
        }
    };

    private final ClusterSource source = new ClusterSource("c", cluster);

    @Test
    void theEventsOfASampleThatFailedAreSentByTheNext() {
        steals.add(new StealEvent(41, "stolen", 0, 1, 0, StealEvent.Outcome.CONFIRMED, 100));
        runs.add(new TaskEvent(1, "first-run", 0, 10, 20, false));
        runs.add(new TaskEvent(2, null, 0, 30, 40, false));   // a key that cannot be written
        assertThatThrownBy(() -> source.sample(new StringBuilder(), 1_000, new ThreadCpu()))
                .isInstanceOf(NullPointerException.class);

        runs.set(1, new TaskEvent(2, "second-run", 0, 30, 40, false));
        StringBuilder sb = new StringBuilder();
        source.sample(sb, 1_000, new ThreadCpu());

        assertThat(sb.toString()).as("the sample after the failed one")
                .contains("\"id\":41", "\"key\":\"first-run\"", "\"key\":\"second-run\"");
    }
}
