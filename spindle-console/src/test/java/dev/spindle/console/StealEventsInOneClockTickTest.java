/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.ClusterStats;
import dev.spindle.cluster.ClusterView;
import dev.spindle.cluster.StealEvent;
import dev.spindle.cluster.TaskEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The page is sent the steal events logged since the previous sample. Those were found by their
 * {@link StealEvent#nanoTime()}: only events logged after the newest one sent. An event logged
 * later within the same tick of the clock (the same nanoTime, as two steals decided by one
 * message can be) was taken for one already sent and never reached the page.
 */
class StealEventsInOneClockTickTest {

    private static final Pattern ID = Pattern.compile("\\{\"id\":(\\d+),\"key\"");

    private final List<StealEvent> log = new ArrayList<>();

    private final ClusterView cluster = new ClusterView() {
        @Override
        public ClusterStats stats() {
            return new ClusterStats(List.of(), 0, 0, 0, 0, 0, 0, 0);
        }

        @Override
        public List<StealEvent> stealEvents() {
            return List.copyOf(log);
        }

        @Override
        public List<TaskEvent> taskEvents() {
            return List.of();
        }
    };

    private final ClusterSource source = new ClusterSource("c", cluster);

    @Test
    void anEventLoggedInTheTickOfTheNewestSentIsSentNextTime() {
        log.add(event(1, 100));
        log.add(event(2, 200));
        assertThat(sentIds()).containsExactly(1L, 2L);

        log.add(event(3, 200));          // same tick as event 2, logged after it was sent
        log.add(event(4, 300));
        assertThat(sentIds()).containsExactly(3L, 4L);
        assertThat(sentIds()).isEmpty();

        log.add(event(5, 300));
        log.add(event(6, 300));
        assertThat(sentIds()).containsExactly(5L, 6L);
    }

    @Test
    void aLogThatDroppedItsOldestEntriesStillYieldsOnlyTheNewOnes() {
        log.add(event(1, 100));
        log.add(event(2, 100));
        assertThat(sentIds()).containsExactly(1L, 2L);
        log.remove(0);                   // the log keeps only its newest entries
        log.add(event(3, 150));
        assertThat(sentIds()).containsExactly(3L);
    }

    @Test
    void aBusyLogIsCutToItsNewestEntries() {
        for (int i = 1; i <= ClusterSource.MAX_EVENTS + 5; i++) {
            log.add(event(i, 7));
        }
        List<Long> sent = sentIds();
        assertThat(sent).hasSize(ClusterSource.MAX_EVENTS).startsWith(6L).endsWith((long) ClusterSource.MAX_EVENTS + 5);
        log.add(event(ClusterSource.MAX_EVENTS + 6, 7));
        assertThat(sentIds()).containsExactly((long) ClusterSource.MAX_EVENTS + 6);
    }

    private List<Long> sentIds() {
        StringBuilder sb = new StringBuilder();
        source.sample(sb, 1_000, new ThreadCpu());
        source.delivered();                    // as the console does once the sample is sent
        List<Long> ids = new ArrayList<>();
        Matcher m = ID.matcher(sb.substring(sb.indexOf("\"steals\"")));
        while (m.find()) {
            ids.add(Long.parseLong(m.group(1)));
        }
        return ids;
    }

    private static StealEvent event(long id, long nanoTime) {
        return new StealEvent(id, "k" + id, 0, 1, 0, StealEvent.Outcome.CONFIRMED, nanoTime);
    }
}
