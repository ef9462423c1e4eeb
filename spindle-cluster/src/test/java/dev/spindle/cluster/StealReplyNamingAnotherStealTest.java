/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A steal reply that names a steal in flight but does not match it (another task's key, or
 * another worker than the victim: a stale or misdirected reply, or a hostile worker) is ignored
 * and counted stale; the steal it names stays in flight for its own reply. Before, the scheduler
 * took the steal's record out of its in-flight table before checking the reply, so the genuine
 * reply that followed was counted stale too: when the victim had released the task, the task was
 * on no worker while the scheduler still had it queued on the victim, and its future never
 * completed.
 */
@Timeout(60)
class StealReplyNamingAnotherStealTest {

    private final RecordingTransport transport = new RecordingTransport();
    private final GraphScheduler scheduler = new GraphScheduler(HandDriven.settings(2).build(), transport);

    @AfterEach
    void close() {
        scheduler.close();
    }

    /** Ten 1 s tasks placed on worker 0; a balance round asks it for some of them. */
    private List<Message.StealRequest> stealsOffWorkerZero() {
        List<TaskSpec<?>> specs = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            int v = i;
            specs.add(TaskSpec.builder("slow-" + i, args -> v).restrictions(Restrictions.loose(Set.of(0)))
                    .durationHint(Duration.ofSeconds(1)).build());
        }
        scheduler.submit(specs);
        assertThat(scheduler.balanceNow()).hasSizeGreaterThanOrEqualTo(2);
        List<Message.StealRequest> out = new ArrayList<>();
        for (RecordingTransport.Sent s : transport.sentToWorkers()) {
            if (s.message() instanceof Message.StealRequest r) {
                out.add(r);
            }
        }
        return out;
    }

    private boolean computedOnWorkerOne(String key) {
        return transport.sentToWorkers().stream()
                .anyMatch(s -> s.worker() == 1 && s.message() instanceof Message.Compute c && c.key().equals(key));
    }

    @Test
    void aReplyWithAnotherTasksKeyLeavesTheStealInFlight() {
        List<Message.StealRequest> steals = stealsOffWorkerZero();
        Message.StealRequest a = steals.get(0);
        Message.StealRequest b = steals.get(1);

        // a's id, b's key and attempt: matches neither steal
        HandDriven.reply(scheduler, new Message.StealResponse(0, a.stealId(), b.key(), b.attempt(), true));
        assertThat(computedOnWorkerOne(a.key())).isFalse();
        assertThat(computedOnWorkerOne(b.key())).isFalse();
        assertThat(scheduler.stats().stealsStale()).isEqualTo(1);

        // the genuine replies still move both tasks
        HandDriven.reply(scheduler, new Message.StealResponse(0, a.stealId(), a.key(), a.attempt(), true));
        HandDriven.reply(scheduler, new Message.StealResponse(0, b.stealId(), b.key(), b.attempt(), true));
        assertThat(computedOnWorkerOne(a.key())).as("the task steal a released").isTrue();
        assertThat(computedOnWorkerOne(b.key())).as("the task steal b released").isTrue();
        assertThat(scheduler.stats().stealsConfirmed()).isEqualTo(2);
        assertThat(scheduler.stats().stealsStale()).isEqualTo(1);
    }

    @Test
    void aReplyFromAnotherWorkerThanTheVictimLeavesTheStealInFlight() {
        Message.StealRequest a = stealsOffWorkerZero().get(0);

        // worker 1 answers for worker 0's task
        HandDriven.reply(scheduler, new Message.StealResponse(1, a.stealId(), a.key(), a.attempt(), true));
        assertThat(computedOnWorkerOne(a.key())).isFalse();
        assertThat(scheduler.stats().stealsStale()).isEqualTo(1);

        HandDriven.reply(scheduler, new Message.StealResponse(0, a.stealId(), a.key(), a.attempt(), true));
        assertThat(computedOnWorkerOne(a.key())).as("the task the victim released").isTrue();
        assertThat(scheduler.stats().stealsConfirmed()).isEqualTo(1);
    }
}
