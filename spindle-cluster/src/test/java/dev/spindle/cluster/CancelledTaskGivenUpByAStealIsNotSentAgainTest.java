/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static dev.spindle.cluster.HandDriven.reply;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A task cancelled ({@link ClusterFuture#cancel}) while queued on a worker, which a steal then
 * takes off that worker before it started, is forgotten as one cancelled before it was sent: no
 * pending task needs it, so it goes to no other worker. Before, the confirmed steal assigned it to
 * the thief straight away, and the thief ran it for nobody (the scheduler's overview says a
 * cancelled task back from its worker, "lost, stolen, withdrawn", is forgotten; the lost,
 * withdrawn and retired ones were, through placement, the stolen one was not). Driven by hand.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CancelledTaskGivenUpByAStealIsNotSentAgainTest {

    private static boolean computedOn(RecordingTransport wire, int worker, String key) {
        return wire.sentToWorkers().stream().anyMatch(m -> m.worker() == worker
                && m.message() instanceof Message.Compute c && c.key().equals(key));
    }

    @Test
    void aCancelledTaskTheVictimGaveUpDoesNotGoToTheThief() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).forgetReleased(true).build(), wire);
        try {
            List<TaskSpec<?>> specs = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                int v = i;
                specs.add(TaskSpec.builder("slow-" + i, args -> v).restrictions(Restrictions.loose(Set.of(0)))
                        .durationHint(Duration.ofSeconds(1)).build());
            }
            List<CompletableFuture<Object>> fs = s.submit(specs);
            assertThat(s.balanceNow()).as("moves off worker 0").isNotEmpty();
            Message.StealRequest steal = wire.sentToWorkers().stream()
                    .filter(m -> m.message() instanceof Message.StealRequest)
                    .map(m -> (Message.StealRequest) m.message()).findFirst().orElseThrow();
            String key = steal.key();
            int index = Integer.parseInt(key.substring("slow-".length()));

            // cancelled while queued on worker 0 (sent already: it would run there to its end)
            assertThat(fs.get(index).completeExceptionally(new CancellationException())).isTrue();
            s.releaseFuture(key, true);
            s.taskRecords();                  // a barrier
            assertThat(computedOn(wire, 0, key)).isTrue();

            // worker 0 gives it up before starting it
            reply(s, new Message.StealResponse(0, steal.stealId(), key, steal.attempt(), true));
            assertThat(s.stats().stealsConfirmed()).isEqualTo(1);
            assertThat(computedOn(wire, 1, key)).as("'%s', cancelled and needed by nobody, sent to the thief", key)
                    .isFalse();
            boolean recorded = s.inspectTasks((ts, ws) -> ts.containsKey(key));
            assertThat(recorded).as("its record, forgotten").isFalse();
            int processing = s.inspect((ws, d) -> ws.get(0).processing.size() + ws.get(1).processing.size());
            assertThat(processing).as("the other nine, still processing").isEqualTo(9);
        } finally {
            s.close();
        }
    }
}
