/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static dev.spindle.cluster.HandDriven.reply;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A task that the workers it is assigned to keep dying under (one that exhausts the heap or ends
 * its process, say) errs with {@link WorkerLostException} once more of them were lost than
 * {@code allowedWorkerLosses}, instead of being placed on every worker in turn. Driven by hand:
 * the test plays the workers and their losses.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WorkerLossLimitTest {

    @Test
    void aTaskThatOutlivesMoreWorkersThanAllowedErrsAndSoDoItsDependents() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(4).allowedWorkerLosses(2).build(), wire);
        try {
            List<CompletableFuture<Object>> fs = s.submit(List.of(
                    TaskSpec.builder("poison", args -> 1).build(),
                    TaskSpec.builder("after", args -> 2).dependsOn("poison").build()));
            int lost1 = wire.workerOfLastCompute("poison");
            reply(s, new Message.WorkerLost(lost1));
            int lost2 = wire.workerOfLastCompute("poison");
            assertThat(lost2).as("placed again after one loss").isNotEqualTo(lost1);
            reply(s, new Message.WorkerLost(lost2));
            int lost3 = wire.workerOfLastCompute("poison");
            assertThat(lost3).as("placed again after two losses (2 allowed)").isNotIn(lost1, lost2);
            long computesBefore = computes(wire, "poison");
            reply(s, new Message.WorkerLost(lost3));

            assertThat(computes(wire, "poison")).as("not placed on the last worker").isEqualTo(computesBefore);
            assertThatThrownBy(() -> fs.get(0).get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOfSatisfying(WorkerLostException.class, e -> {
                        assertThat(e.key()).isEqualTo("poison");
                        assertThat(e.workers()).containsExactly(lost1, lost2, lost3);
                        assertThat(e).hasMessageContaining("'poison'").hasMessageContaining("allowedWorkerLosses");
                    });
            assertThat(fs.get(1)).as("its dependent").failsWithin(Duration.ofSeconds(10));
            assertThat(computes(wire, "after")).as("the dependent never placed").isZero();
        } finally {
            s.close();
        }
    }

    @Test
    void theCountStartsAgainOnceTheTaskHasAResult() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(5).allowedWorkerLosses(1).build(), wire);
        try {
            // "d" waits for "t" (workers 0-3) and for "gate" (worker 4), which the test never finishes
            List<CompletableFuture<Object>> fs = s.submit(List.of(
                    TaskSpec.builder("t", args -> 1).restrictions(Restrictions.strict(Set.of(0, 1, 2, 3))).build(),
                    TaskSpec.builder("gate", args -> 0).restrictions(Restrictions.strict(Set.of(4))).build(),
                    TaskSpec.builder("d", args -> 2).dependsOn("t", "gate").build()));
            reply(s, new Message.WorkerLost(wire.workerOfLastCompute("t")));      // one loss: allowed
            int w = wire.workerOfLastCompute("t");
            reply(s, new Message.TaskFinished(w, "t", wire.lastCompute("t").attempt(), 1, 4, 1000));
            assertThat(fs.get(0).get(10, TimeUnit.SECONDS)).isEqualTo(1);

            // its only holder is lost: "t" is computed again for "d", with a count of its own
            reply(s, new Message.WorkerLost(w));
            int again = wire.workerOfLastCompute("t");
            assertThat(again).as("t computed again").isNotEqualTo(w);
            reply(s, new Message.WorkerLost(again));   // its first loss since it had a result: allowed
            assertThat(wire.workerOfLastCompute("t")).as("t placed again after one loss since its result")
                    .isNotIn(w, again);
            assertThat(fs.get(2)).as("d, still waiting").isNotDone();
        } finally {
            s.close();
        }
    }

    @Test
    void settingsRefuseANegativeLimitAndShowIt() {
        assertThatThrownBy(() -> CoordinatorSettings.builder().allowedWorkerLosses(-1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("allowedWorkerLosses");
        CoordinatorSettings s = CoordinatorSettings.builder().allowedWorkerLosses(7).build();
        assertThat(s.allowedWorkerLosses()).isEqualTo(7);
        assertThat(CoordinatorSettings.builder().from(s).build().allowedWorkerLosses()).isEqualTo(7);
        assertThat(CoordinatorSettings.builder().build().allowedWorkerLosses()).isEqualTo(3);
        assertThat(s.toString()).contains("allowedWorkerLosses=7");
    }

    private static long computes(RecordingTransport wire, String key) {
        return wire.sentToWorkers().stream()
                .filter(m -> m.message() instanceof Message.Compute c && c.key().equals(key)).count();
    }
}
