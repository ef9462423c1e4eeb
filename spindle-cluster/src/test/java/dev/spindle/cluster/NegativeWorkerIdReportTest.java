/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static dev.spindle.cluster.HandDriven.reply;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A {@link Message.DataAdded} naming a negative worker (a worker's word, decoded from its frame in
 * another JVM) is ignored, as every other report naming no worker of the cluster is. Its handler
 * checked only the upper bound, so the event threw {@link IndexOutOfBoundsException} half way,
 * skipping the retirement and stall checks that end every event, and the loop printed it as a bug.
 * On the code before the fix the exception was printed.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class NegativeWorkerIdReportTest {

    @Test
    void aCopyReportNamingANegativeWorkerIsIgnored() throws Exception {
        RecordingTransport t = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(1).build(), t);
        PrintStream err = System.err;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        try {
            CompletableFuture<Object> x = s.submit(List.of(TaskSpec.builder("x", args -> 1).build())).get(0);
            reply(s, new Message.TaskFinished(0, "x", t.lastCompute("x").attempt(), 1, 8, 1000));
            assertThat(x.get(10, TimeUnit.SECONDS)).isEqualTo(1);

            System.setErr(new PrintStream(printed, true, StandardCharsets.UTF_8));
            try {
                reply(s, new Message.DataAdded(-1, "x", 8));
            } finally {
                System.setErr(err);
            }
            assertThat(printed.toString(StandardCharsets.UTF_8)).as("what the scheduler printed")
                    .doesNotContain("IndexOutOfBoundsException");
            assertThat(s.retainedForTests()).containsEntry("holds", 1);   // worker 0's copy, and no other
        } finally {
            System.setErr(err);
            s.close();
        }
    }
}
