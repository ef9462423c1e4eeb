/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static dev.spindle.cluster.HandDriven.reply;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The end of a task's wait for a worker (CoordinatorSettings.noWorkerTimeout) comes from the
 * scheduler's own timer, not from an event: failing the task releases its inputs, which may be
 * all that a retirement waits for. The retirement is checked then too; it was checked only after
 * the next event, so in a cluster where nothing else happened a retiring worker whose last
 * values only the failed task needed was never removed, and its retirement never completed.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RetirementEndsWhenAWaitForAWorkerEndsTest {

    /**
     * The setup below must be done while 't' still waits: a test thread held up for the whole wait
     * (300 ms; a loaded machine) would find the retirement done by the end of the wait it is about
     * to wait for, which says nothing. Such a run checks nothing and the scenario runs again with a
     * wait twice as long, until one fits (the class timeout bounds it).
     */
    @Test
    void aRetirementWaitingOnlyForTheInputOfATaskWhoseWaitEndsCompletes() throws Exception {
        for (long waitMillis = 300; !ranWithinTheWait(waitMillis); waitMillis *= 2) {
            // held up past the wait: again, with a longer one
        }
    }

    /** One run of the scenario; false, with nothing checked, if its setup outlasted 't''s wait. */
    private static boolean ranWithinTheWait(long waitMillis) throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(3).noWorkerTimeout(Duration.ofMillis(waitMillis))
                .build(), wire);
        try {
            CompletableFuture<Object> x = s.submit(List.of(TaskSpec.builder("x", args -> 1)
                    .restrictions(Restrictions.strict(Set.of(0))).build())).get(0);
            reply(s, new Message.TaskFinished(0, "x", wire.lastCompute("x").attempt(), 1, 4, 1000));
            assertThat(x.get(10, TimeUnit.SECONDS)).isEqualTo(1);
            reply(s, new Message.WorkerLost(2));
            long beforeTheWait = System.nanoTime();   // 't''s wait starts later, on the scheduler's thread
            CompletableFuture<Object> t = s.submit(List.of(TaskSpec.builder("t", args -> 2).dependsOn("x")
                    .restrictions(Restrictions.strict(Set.of(2))).build())).get(0);
            s.releaseFuture("x");             // only 't', waiting for worker 2, needs x now
            CompletableFuture<Void> retired = s.retire(0);   // x is to be copied to worker 1 first...
            reply(s, new Message.WorkerLost(1));            // ...which is lost: no active worker to copy to
            boolean retiredBeforeTheWaitEnded = retired.isDone();
            if (System.nanoTime() - beforeTheWait >= TimeUnit.MILLISECONDS.toNanos(waitMillis)) {
                return false;                 // the wait may have ended meanwhile
            }
            assertThat(retiredBeforeTheWaitEnded).as("retired while worker 0 holds x, which 't' waits with").isFalse();

            // the wait ends (no further event): 't' fails, x is released, and nothing keeps worker 0
            assertThat(t).failsWithin(Duration.ofSeconds(10));
            assertThat(retired).as("the retirement, once the end of 't''s wait released x")
                    .succeedsWithin(Duration.ofSeconds(10));
            return true;
        } finally {
            s.close();
        }
    }
}
