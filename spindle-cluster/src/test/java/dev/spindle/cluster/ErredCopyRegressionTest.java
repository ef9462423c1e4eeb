/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static dev.spindle.cluster.HandDriven.reply;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker that reports a task failed may hold a copy of its result all the same: between JVMs a
 * result that cannot travel (not serialisable, over the frame limit) is reported as the task's
 * failure after the worker stored it, and a result the coordinator's allow-list refuses on
 * arrival becomes a failure there. The scheduler counted no such copy, so nothing released it:
 * it stayed in the worker's memory for good, and once the key was forgotten and submitted anew a
 * dependent placed on that worker took it for the new task's value (the end-to-end cases are
 * {@code ResultTravelRegressionTest} of the Hazelcast transport). Driven by hand.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ErredCopyRegressionTest {

    @Test
    void aFailureReleasesTheKeyOnItsWorkerBeforeTheRetryIsSent() {
        RecordingTransport t = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(1).retries(1).build(), t);
        try {
            s.submit(List.of(TaskSpec.builder("k", args -> 1).build()));
            Message.Compute first = t.lastCompute("k");
            int sentBefore = t.sentToWorkers().size();

            reply(s, new Message.TaskErred(0, "k", first.attempt(), new IllegalArgumentException("cannot travel"), 1000));

            List<RecordingTransport.Sent> after = t.sentToWorkers().subList(sentBefore, t.sentToWorkers().size());
            assertThat(after).as("what the failure sent to the worker").hasSize(2);
            assertThat(after.get(0)).as("first: the copy it may hold is dropped")
                    .usingRecursiveComparison().ignoringFields("message.index")
                    .isEqualTo(new RecordingTransport.Sent(0, new Message.ReleaseKey("k")));
            assertThat(after.get(1).message()).as("then the retry, which may run there")
                    .isInstanceOfSatisfying(Message.Compute.class, c -> assertThat(c.key()).isEqualTo("k"));
        } finally {
            s.close();
        }
    }
}
