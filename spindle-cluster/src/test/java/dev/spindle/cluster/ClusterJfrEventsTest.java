/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static dev.spindle.testkit.JfrCapture.named;
import static dev.spindle.testkit.JfrCapture.record;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The cluster scheduler's flight recorder events, driven by hand as in {@code GraphSchedulerTest}:
 * every steal the scheduler logs, and a lost worker.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClusterJfrEventsTest {

    private static GraphScheduler scheduler(RecordingTransport transport) {
        return new GraphScheduler(
                CoordinatorSettings.builder().workers(2).threadsPerWorker(1).bandwidth(100e6)
                        .latency(Duration.ofMillis(1)).stealing(false).balanceInterval(Duration.ZERO).retries(1)
                        .minStealDuration(Duration.ofMillis(1)).saturatedOccupancy(Duration.ofMillis(400))
                        .defaultDuration(Duration.ofMillis(500)).build(), transport);
    }

    /** Ten 1 s tasks on worker 0, then one balancing round: five steal requests to worker 0. */
    private static List<Message.StealRequest> requestSteals(GraphScheduler scheduler, RecordingTransport transport) {
        List<TaskSpec<?>> specs = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            int v = i;
            specs.add(TaskSpec.builder("slow-" + i, args -> v).restrictions(Restrictions.loose(Set.of(0)))
                    .durationHint(Duration.ofSeconds(1)).build());
        }
        scheduler.submit(specs);
        scheduler.balanceNow();
        List<Message.StealRequest> out = new ArrayList<>();
        for (RecordingTransport.Sent s : transport.sentToWorkers()) {
            if (s.message() instanceof Message.StealRequest r) {
                out.add(r);
            }
        }
        return out;
    }

    @Test
    void everyStealStepIsRecordedWithItsOutcome() throws Exception {
        List<Message.StealRequest> requests = new ArrayList<>();
        List<RecordedEvent> events = record(() -> {
            RecordingTransport transport = new RecordingTransport();
            try (GraphScheduler scheduler = scheduler(transport)) {
                requests.addAll(requestSteals(scheduler, transport));
                Message.StealRequest yes = requests.get(0);
                Message.StealRequest no = requests.get(1);
                scheduler.receive(new Message.StealResponse(0, yes.stealId(), yes.key(), yes.attempt(), true));
                scheduler.receive(new Message.StealResponse(0, no.stealId(), no.key(), no.attempt(), false));
                scheduler.receive(new Message.StealResponse(0, yes.stealId(), yes.key(), yes.attempt(), true));
                scheduler.stealEvents();               // a barrier behind the replies
            }
        }, "dev.spindle.ClusterSteal");

        List<RecordedEvent> steals = named(events, "dev.spindle.ClusterSteal");
        assertThat(steals).extracting(e -> e.getString("outcome"))
                .containsExactly("REQUESTED", "REQUESTED", "REQUESTED", "REQUESTED", "REQUESTED",
                        "CONFIRMED", "REJECTED", "STALE");
        assertThat(steals.subList(0, 5)).extracting(e -> e.getLong("stealId"))
                .containsExactlyElementsOf(requests.stream().map(Message.StealRequest::stealId).toList());
        RecordedEvent confirmed = steals.get(5);
        assertThat(confirmed.getLong("stealId")).isEqualTo(requests.get(0).stealId());
        assertThat(confirmed.getString("key")).isEqualTo(requests.get(0).key());
        assertThat(confirmed.getInt("victim")).isZero();
        assertThat(confirmed.getInt("thief")).isEqualTo(1);
        assertThat(steals.get(6).getString("key")).isEqualTo(requests.get(1).key());
    }

    @Test
    void aLostWorkerIsRecordedWithWhatItHad() throws Exception {
        List<RecordedEvent> events = record(() -> {
            RecordingTransport transport = new RecordingTransport();
            try (GraphScheduler scheduler = scheduler(transport)) {
                requestSteals(scheduler, transport);
                scheduler.receive(new Message.WorkerLost(0));
                scheduler.receive(new Message.WorkerLost(0));   // a second report changes nothing
                scheduler.stealEvents();
            }
        }, "dev.spindle.ClusterWorkerLost");

        assertThat(named(events, "dev.spindle.ClusterWorkerLost")).singleElement().satisfies(e -> {
            assertThat(e.getInt("worker")).isZero();
            assertThat(e.getInt("tasksReassigned")).isEqualTo(10);
            assertThat(e.getInt("resultsHeld")).isZero();
        });
    }
}
