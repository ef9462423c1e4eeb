/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static dev.spindle.cluster.HandDriven.reply;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The bytes a task's inputs lack on a worker were summed in a {@code long} that overflowed for
 * values whose sizes ({@link Sized#sizeInBytes}, or a worker's report) come near
 * {@link Long#MAX_VALUE}: the sum wrapped to a negative value, which placement reads as "holds
 * them all", and the task went to the worker that lacked the most instead of the one that lacked
 * one byte. The sums saturate now, and a running total is kept exact.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class HugeSizesPlacementTest {

    @Test
    void aTaskGoesWhereItsInputsAreEvenWhenTheirSizesSumPastLongMaxValue() {
        RecordingTransport t = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).build(), t);
        try {
            s.submit(List.of(TaskSpec.builder("a", args -> 1).restrictions(Restrictions.strict(Set.of(0))).build(),
                    TaskSpec.builder("b", args -> 1).restrictions(Restrictions.strict(Set.of(0))).build(),
                    TaskSpec.builder("c", args -> 1).restrictions(Restrictions.strict(Set.of(1))).build()));
            reply(s, new Message.TaskFinished(0, "a", t.lastCompute("a").attempt(), 1, Long.MAX_VALUE, 1000));
            reply(s, new Message.TaskFinished(0, "b", t.lastCompute("b").attempt(), 1, Long.MAX_VALUE, 1000));
            reply(s, new Message.TaskFinished(1, "c", t.lastCompute("c").attempt(), 1, 1, 1000));

            s.submit(List.of(TaskSpec.builder("t", args -> 1).dependsOn("a", "b", "c").build()));

            assertThat(t.workerOfLastCompute("t")).as("the worker that lacks one byte, not 2 x Long.MAX_VALUE")
                    .isZero();
        } finally {
            s.close();
        }
    }

    /**
     * A worker's running total of the bytes its processing tasks lack, which the balance rounds
     * read as its transfer cost, wrapped the same way: two tasks each lacking a value near
     * {@link Long#MAX_VALUE} made the worker look as if it had nothing to fetch.
     */
    @Test
    void aWorkersTransferTotalDoesNotWrapForTasksLackingHugeValues() {
        RecordingTransport t = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).build(), t);
        try {
            s.submit(List.of(TaskSpec.builder("x", args -> 1).restrictions(Restrictions.strict(Set.of(0))).build(),
                    TaskSpec.builder("y", args -> 1).restrictions(Restrictions.strict(Set.of(0))).build()));
            reply(s, new Message.TaskFinished(0, "x", t.lastCompute("x").attempt(), 1, Long.MAX_VALUE, 1000));
            reply(s, new Message.TaskFinished(0, "y", t.lastCompute("y").attempt(), 1, Long.MAX_VALUE, 1000));
            s.submit(List.of(TaskSpec.builder("p", args -> 1).dependsOn("x").restrictions(Restrictions.strict(Set.of(1)))
                            .build(),
                    TaskSpec.builder("q", args -> 1).dependsOn("y").restrictions(Restrictions.strict(Set.of(1))).build()));

            BalanceParams params = HandDriven.settings(2).build().balanceParams();
            double seconds = s.inspect((ws, d) -> ws.get(1).transferSeconds(params));
            long bytes = s.inspect((ws, d) -> ws.get(1).bytesMissing());
            assertThat(seconds).as("worker 1's transfer seconds, lacking 2 x Long.MAX_VALUE bytes")
                    .isGreaterThan(Long.MAX_VALUE / params.bandwidth());
            assertThat(bytes).as("worker 1's bytes missing, saturated").isEqualTo(Long.MAX_VALUE);
        } finally {
            s.close();
        }
    }

    /** The stealing policy's cost of moving a task summed its inputs' bytes in a long too. */
    @Test
    void aStealsTransferCostDoesNotWrapForHugeInputs() {
        BalanceParams params = HandDriven.settings(2).build().balanceParams();
        List<BalanceSnapshot.Dep> deps = List.of(new BalanceSnapshot.Dep(Long.MAX_VALUE, Set.of(0)),
                new BalanceSnapshot.Dep(Long.MAX_VALUE, Set.of(0)));
        assertThat(params.transferCost(deps, 1)).as("the seconds to move 2 x Long.MAX_VALUE bytes")
                .isGreaterThan(Long.MAX_VALUE / params.bandwidth());
    }
}
